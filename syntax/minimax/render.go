package minimax

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in MiniMax-M2's form:
// thoughts as <think>…</think> (with Options.ThinkOpen, the first thought
// without its opener, which the prompt holds, and always a </think> before
// anything else), text as it is, each batch of calls as one
// <minimax:tool_call> block of <invoke name="N"> elements with one
// <parameter name="K"> per value (an array of strings as the parameter
// repeated), and each run of results as a <function_results> block of
// <result> elements (<tool_name>, then <stdout>, or <error> for a failure).
// Each call is parsed back before it is written.
//
// It cannot carry (and says so): ids, values that are not strings (written
// as their JSON text; a tool schema converts them back), an array of fewer
// than two items, values holding a parameter closer that would end them, a
// result content that is not a string (written as its JSON text), text or a
// thought holding the tags, text or calls between an execute and the
// results, and calls with no execute.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("minimax", &units{w: bufio.NewWriter(w), implicit: opts.ThinkOpen, think: wire.NewOpenThought(opts, closeThink)})
}

type units struct {
	w        *bufio.Writer
	implicit bool
	think    wire.OpenThought
	section  bool
	pending  int
	executed bool
}

func cannot(format string, args ...any) error { return wire.CannotCarry("minimax", format, args...) }

func (u *units) closeSection() {
	if u.section {
		u.w.WriteString(closeMiniMax + "\n")
		u.section = false
	}
}

func (u *units) Text(t syntax.Type, s string) error {
	var err error
	if u.executed {
		err = cannot("%s text after an execute: the parser executes a batch at the end of the message, so it reads back before the execute", t)
	}
	u.closeSection()
	if t == syntax.Think {
		implicit := u.think.Begin(u.w, true)
		if u.implicit && !implicit {
			return cannot("a thought after the reasoning the prompt opened (with ThinkOpen, a later <think> is text); not written")
		}
		if m := markup.WriteThought(u.w, s, implicit, openThink, closeThink, callOpeners[:]); m != "" {
			return cannot("a thought holding %s; not written", m)
		}
		return err
	}
	u.think.Begin(u.w, false)
	if !plainText(s) {
		return cannot("text holding <think> or a tag that opens a block; not written")
	}
	u.w.WriteString(s + "\n")
	return err
}

// plainText reports whether s, parsed alone, is one run of text: a tag in
// it that opens no block (prose that names <minimax:tool_call>) is fine.
func plainText(s string) bool {
	if markup.HoldsMarker(s, textMarkers[:]) == "" {
		return true
	}
	evs := syntax.Parse(Syntax, []byte(s), syntax.Options{})
	return len(evs) == 2 && evs[0].Type == syntax.Respond && evs[0].Content == s
}

func (u *units) Calls(calls []syntax.Event) error {
	var first error
	note := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	if u.executed {
		note(cannot("calls after an execute with no result between: they read back as one batch with the calls before"))
	}
	u.think.Begin(u.w, false)
	if !u.section {
		u.w.WriteString(openMiniMax + "\n")
		u.section = true
	}
	for _, c := range calls {
		if c.ID != "" {
			note(cannot("the id %q of call %s (MiniMax calls have no ids): not written", c.ID, c.Name))
		}
		b, err := renderInvoke(c)
		note(err)
		u.w.Write(b)
		u.pending++
	}
	return first
}

func renderInvoke(c syntax.Event) ([]byte, error) {
	var b bytes.Buffer
	lossy := ""
	b.WriteString(`<invoke name="` + c.Name + "\">\n")
	param := func(k, v string) { b.WriteString(`<parameter name="` + k + `">` + invokexml.Pad(v) + "</parameter>\n") }
	jsonscan.Members(c.ArgsJSON(), func(k string, v []byte) bool {
		switch jsonscan.Kind(v) {
		case '"':
			s, _ := jsonscan.Unquote(v)
			param(k, s)
		case '[':
			n, strs := 0, true
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				n++
				strs = strs && jsonscan.Kind(e) == '"'
				return true
			})
			if n < 2 || !strs {
				param(k, string(v))
				lossy = "values that are not strings, written as their JSON text"
				break
			}
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				s, _ := jsonscan.Unquote(e)
				param(k, s)
				return true
			})
		default:
			param(k, string(v))
			lossy = "values that are not strings, written as their JSON text"
		}
		return true
	})
	b.WriteString("</invoke>\n")
	if lossy != "" {
		return b.Bytes(), cannot("call %s: %s", c.Name, lossy)
	}
	if !invokexml.RoundTrips(newParser, []byte(openMiniMax+"\n"), b.Bytes(), []byte(closeMiniMax), c) {
		return b.Bytes(), cannot("call %s: its name or values do not survive the invoke form", c.Name)
	}
	return b.Bytes(), nil
}

func (u *units) Execute() error {
	u.closeSection()
	if u.pending == 0 {
		return cannot("an execute with no call: a batch is executed only when it holds a call")
	}
	u.pending = 0
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var first error
	note := func(err error) {
		if first == nil {
			first = err
		}
	}
	u.think.Begin(u.w, false)
	if u.pending > 0 {
		note(cannot("results after calls with no execute: the parser executes the calls at their results"))
		u.closeSection()
		u.pending = 0
	}
	u.executed = false
	u.w.WriteString(openResults + "\n")
	for _, r := range rs {
		if r.ID != "" {
			note(cannot("the id %q of a result: not written", r.ID))
		}
		plain := r
		plain.Status = syntax.Success  // the status is the tag
		text := wire.ResultText(plain) // any value as its JSON text
		tag := "stdout"
		if r.Status == syntax.Failure {
			tag = "error"
		}
		if strings.Contains(text, "</"+tag+">") || strings.Contains(text, closeResults) || strings.Contains(r.Tool, "<") ||
			strings.TrimSpace(r.Tool) != r.Tool {
			note(cannot("a result of %q that its tags cannot hold", r.Tool))
		}
		u.w.WriteString("<result>\n<tool_name>" + r.Tool + "</tool_name>\n<" + tag + ">" + invokexml.Pad(text) + "</" + tag + ">\n</result>\n")
	}
	u.w.WriteString(closeResults + "\n")
	return first
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	u.closeSection()
	u.think.Begin(u.w, false)
	var err error
	if u.pending > 0 {
		err = cannot("calls with no execute: the parser executes a batch at the end of the message")
	}
	if ferr := u.w.Flush(); ferr != nil {
		return ferr
	}
	return err
}
