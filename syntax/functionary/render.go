package functionary

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events as Functionary v3.2
// writes them: the first segment without >>> (the prompt wrote it), each
// later one after >>>; text as an all segment, each call as its name, a
// line end and its arguments' JSON, a call to python whose only argument
// is the string code as the code itself.
//
// It cannot carry, and reports: thoughts (the format has none), results
// (they go back in tool messages), call ids, a name that is not one word,
// text holding >>> (it would open a segment), and text or calls after an
// execute (a second message: read back, it joins the first).
func newRenderer(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New("functionary", &units{w: bufio.NewWriter(w), name: "functionary"})
}

// newRendererV2 returns a renderer that writes events as Functionary v2
// writes them: each segment's head is its recipient, a line end and
// <|content|>; the first follows the prompt's <|from|>assistant and
// <|recipient|>, each later one a line end and those two; the reply ends
// with <|stop|>. It cannot carry what newRenderer cannot.
func newRendererV2(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New("functionary-v2", &units{w: bufio.NewWriter(w), name: "functionary-v2", v2: true})
}

type units struct {
	w        *bufio.Writer
	name     string // the form, for reports
	v2       bool   // Functionary v2's form
	started  bool
	executed bool
	calls    int
}

// markers are what text or code may not hold as it is: each may open a
// segment or end the reply, in either form (one parser reads both).
var markers = []string{sep, sepV2, stopV2, contentMark}

func holdsMarker(s string) bool { return markup.HoldsMarker(s, markers) != "" }

func (u *units) cannot(format string, args ...any) error {
	return wire.CannotCarry(u.name, format, args...)
}

// segment starts a segment for recipient.
func (u *units) segment(recipient string) {
	if u.v2 {
		if u.started {
			u.w.WriteString("\n" + sepV2)
		}
		u.started = true
		u.w.WriteString(recipient + "\n" + contentMark)
		return
	}
	if u.started {
		u.w.WriteString(sep)
	}
	u.started = true
	u.w.WriteString(recipient + "\n")
}

func (u *units) late(what string) error {
	if u.executed {
		return u.cannot("%s after the execute that ended the message: read back, it comes before the execute", what)
	}
	return nil
}

func (u *units) Text(t syntax.Type, s string) error {
	if t == syntax.Think {
		version := "v3.2"
		if u.v2 {
			version = "v2"
		}
		return u.cannot("a thought (Functionary %s has none): not written", version)
	}
	err := u.late("respond text")
	if !u.readsBack(s) {
		return errors.Join(err, u.cannot("respond text that would not read back as it is (it holds a separator and a segment head or <|stop|>, or starts or ends with white space): not written"))
	}
	u.segment(all)
	u.w.WriteString(s)
	return err
}

// readsBack reports whether s, written as an all segment, reads back as
// one respond event holding s. What follows the segment cannot change
// that: a head needs its word right after the separator (>>>, or v2's
// line end and <|from|>assistant…), and the form the first head decided
// reads no marker of the other's.
func (u *units) readsBack(s string) bool {
	if !holdsMarker(s) && strings.TrimSpace(s) == s {
		return s != ""
	}
	head := all + "\n"
	if u.v2 {
		head += contentMark
	}
	evs := syntax.Parse(Syntax, []byte(head+s), syntax.Options{})
	return len(evs) == 2 && evs[0].Type == syntax.Respond && evs[0].Content == s
}

// isWord reports whether s can stand as a recipient.
func isWord(s string) bool {
	if s == "" || len(s) >= maxRecip || s == all {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (u *units) Calls(calls []syntax.Event) error {
	errs := []error{u.late("calls")}
	for _, c := range calls {
		if c.ID != "" {
			errs = append(errs, u.cannot("the id %q of call %s (the format has none): not written", c.ID, c.Name))
		}
		if !isWord(c.Name) {
			errs = append(errs, u.cannot("a call named %q (a recipient is one word, not all): not written", c.Name))
			continue
		}
		args := c.ArgsJSON()
		if c.Name == python {
			if code, ok := onlyCode(args); ok {
				u.segment(python)
				u.w.WriteString(code)
				u.calls++
				continue
			}
		}
		u.segment(c.Name)
		u.w.Write(args)
		u.calls++
	}
	return errors.Join(errs...)
}

// onlyCode returns the code of python's arguments when they are exactly
// {"code": STRING} and the code reads back as code: not empty, not
// starting with '{' or white space, not ending with white space, with no
// >>> in it.
func onlyCode(args []byte) (string, bool) {
	code, n, ok := "", 0, true
	jsonscan.Members(args, func(k string, v []byte) bool {
		n++
		s, isStr := jsonscan.Unquote(v)
		if k != "code" || !isStr {
			ok = false
			return false
		}
		code = s
		return true
	})
	if !ok || n != 1 || code == "" || strings.TrimSpace(code) != code || code[0] == '{' || holdsMarker(code) {
		return "", false
	}
	return code, true
}

func (u *units) Execute() error {
	if u.calls == 0 {
		return u.cannot("an execute with no calls before it: not written")
	}
	u.calls = 0
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	return u.cannot("%d result(s): Functionary's results go back in tool messages, not in the model's text", len(rs))
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	var err error
	if u.calls > 0 {
		err = u.cannot("calls with no execute: a message's calls are always executed at its end")
	}
	if u.v2 && u.started {
		u.w.WriteString(stopV2)
	}
	return errors.Join(err, u.w.Flush())
}
