package glimmer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events as Glimmer's chat
// template writes an assistant's turn: think as a message to self, respond
// as a message to the user ended by <|eot|>, each call as a message to its
// tool holding one ATEM block, each result as a message from the tool
// with its text in a <tool_output> element. The first message starts at
// its recipient (the prompt ended with <|start|>assistant), the others at
// <|start|>assistant. A call's message ends with <|eom|>, the last before
// an execute with <|eot|>, as the template ends a turn of calls. With
// ThinkOpen the output starts inside a message to self.
//
// A parameter's value is written as it is: a string as its text, any other
// value as its JSON text, which reads back as a string (reported). Glimmer
// has no call ids, no failed results and no execute of its own (the
// results' message implies it), so a failure is written in words, and it
// cannot carry ids, an execute with no call before it, text or calls
// between an execute and its results, or text holding a marker that would
// end its message (<|eom|>, <|eot|>, a header). Each is reported; what can
// be written is written.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("glimmer", &units{w: bufio.NewWriter(w), first: true, thinkOpen: opts.ThinkOpen})
}

type units struct {
	w         *bufio.Writer
	first     bool   // nothing written yet
	thinkOpen bool   // the output starts inside a message to self
	term      string // the end marker of the call message written last, not yet written
	calls     int    // calls written since the last execute
	executed  bool   // an execute came, and no result since
}

// afterExecute reports what, written after an execute and before the
// results, reads back before the execute: Glimmer implies it at the tools'
// messages.
func (u *units) afterExecute(what string) error {
	if !u.executed {
		return nil
	}
	return cannot("%s after an execute with no result in between (Glimmer implies the execute at the tools' messages): written in the same turn", what)
}

func cannot(format string, args ...any) error { return wire.CannotCarry("glimmer", format, args...) }

// open writes a message's header to recipient (from "tool NAME" for a
// result): the rest of it for the first message.
func (u *units) open(header string) {
	u.flushTerm()
	first := u.first && !u.thinkOpen
	if u.first && u.thinkOpen {
		u.w.WriteString(eomTag) // the open message to self is empty
	}
	u.first = false
	switch {
	case !strings.HasPrefix(header, " "): // a role of its own: tool NAME
		u.w.WriteString(startTag + header + messageTag)
	case first:
		u.w.WriteString(header + messageTag)
	default:
		u.w.WriteString(startTag + "assistant" + header + messageTag)
	}
}

func (u *units) flushTerm() {
	u.w.WriteString(u.term)
	u.term = ""
}

// holdsEnder returns the marker s holds that would end the message it is
// written in: an end marker, or a <|start|> that a header follows; or "".
func holdsEnder(s string) string {
	if m := markup.HoldsMarker(s, closers); m != "" {
		return m
	}
	for i := strings.Index(s, startTag); i >= 0; i = strings.Index(s, startTag) {
		if n, _ := headerAt([]byte(s[i:]), true); n > 0 {
			return startTag
		}
		s = s[i+1:]
	}
	return ""
}

func (u *units) Text(t syntax.Type, s string) error {
	if m := holdsEnder(s); m != "" {
		return cannot("%s text holding the marker %s: not written", t, m)
	}
	err := u.afterExecute(string(t) + " text")
	u.write(t, s)
	return err
}

// write writes a text run as its message.
func (u *units) write(t syntax.Type, s string) {
	switch {
	case t == syntax.Think && u.first && u.thinkOpen:
		u.first = false
		u.w.WriteString(s + eomTag)
	case t == syntax.Think:
		u.open(" to=self")
		u.w.WriteString(s + eomTag)
	default:
		u.open(" to=user")
		u.w.WriteString(s + eotTag)
	}
}

// name reports why a call's or a tool's name cannot be written, or "".
func name(n string) string {
	if w := strings.Fields(n); len(w) != 1 || w[0] != n || strings.ContainsAny(n, "<>\"&") {
		return "a recipient is one word with no <>\"&"
	}
	return ""
}

func (u *units) Calls(calls []syntax.Event) error {
	err := u.afterExecute("a call")
	for _, c := range calls {
		if why := name(c.Name); why != "" {
			err = errors.Join(err, cannot("a call named %q (%s): not written", c.Name, why))
			continue
		}
		if c.ID != "" {
			err = errors.Join(err, cannot("the id %q of call %s (Glimmer has no call ids): written without it", c.ID, c.Name))
		}
		var b bytes.Buffer
		b.WriteString(tags.Tag(c.Name) + "\n")
		lossy := false
		read := c // the call as it reads back: every value a string
		read.Args = []byte{'{'}
		jsonscan.Members(c.ArgsJSON(), func(k string, v []byte) bool {
			b.WriteString(tags.Param + ` name="` + k + `">`)
			if len(read.Args) > 1 {
				read.Args = append(read.Args, ',')
			}
			read.Args = append(params.Quote(read.Args, []byte(k)), ':')
			if s, ok := jsonscan.Unquote(v); ok && jsonscan.Kind(v) == '"' {
				b.WriteString(invokexml.Pad(s))
				read.Args = append(read.Args, v...)
			} else {
				b.Write(v)
				read.Args = params.Quote(read.Args, v)
				lossy = true
			}
			b.WriteString(tags.ParamEnd + "\n")
			return true
		})
		read.Args = append(read.Args, '}')
		b.WriteString(tags.InvokeEnd + "\n")
		head := " to=" + c.Name + messageTag + callsOpen + "\n"
		if !markup.RoundTrips(newParser, []byte(head), b.Bytes(), []byte(callsClose+eomTag), read) {
			err = errors.Join(err, cannot("call %s: its name or values do not survive the ATEM block; not written", c.Name))
			continue
		}
		if lossy {
			err = errors.Join(err, cannot("call %s: values that are not strings, written as their JSON text (read back as strings)", c.Name))
		}
		u.open(" to=" + c.Name)
		u.w.WriteString(callsOpen + "\n")
		u.w.Write(b.Bytes())
		u.w.WriteString(callsClose)
		u.term = eomTag
		u.calls++
	}
	return err
}

func (u *units) Execute() error {
	if u.calls == 0 {
		return cannot("an execute with no call before it: not written")
	}
	u.calls = 0
	u.executed = true
	u.term = eotTag // the turn of calls ends
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var err error
	if u.calls > 0 {
		err = cannot("%d call(s) followed by results with no execute (Glimmer implies one there)", u.calls)
		u.calls = 0
		u.term = eotTag
	}
	u.executed = false
	for _, r := range rs {
		if why := name(r.Tool); why != "" {
			err = errors.Join(err, cannot("a result of tool %q (%s): not written", r.Tool, why))
			continue
		}
		if r.Status == syntax.Failure {
			r = wire.AsText(r) // the failure in words the model reads
		}
		if r.ID != "" {
			err = errors.Join(err, cannot("the id %q of a result of %s (Glimmer has no call ids): written without it", r.ID, r.Tool))
		}
		v := r.ValueJSON()
		text, ok := jsonscan.Unquote(v)
		if !ok || jsonscan.Kind(v) != '"' {
			text = string(v)
			err = errors.Join(err, cannot("a result of %s that is not text: written as its JSON text (read back as text)", r.Tool))
		}
		if m := markup.HoldsMarker(text, []string{outputEnd}) + holdsEnder(text); m != "" {
			err = errors.Join(err, cannot("a result of %s holding the marker %s: not written", r.Tool, m))
			continue
		}
		u.open("tool " + r.Tool)
		u.w.WriteString(outputOpen + ` name="` + r.Tool + "\">\n" + text + "\n" + outputEnd + eotTag)
	}
	return err
}

func (u *units) End() error {
	var err error
	if u.calls > 0 {
		err = cannot("%d call(s) with no execute (Glimmer implies one at the end): written", u.calls)
		u.term = eotTag
	}
	u.flushTerm()
	if u.first && u.thinkOpen {
		u.w.WriteString(eomTag)
	}
	if !u.first || u.thinkOpen {
		u.w.WriteString("\n") // output ends with a line end, as text does
	}
	return errors.Join(err, u.w.Flush())
}

func (u *units) Flush() error { return u.w.Flush() }
