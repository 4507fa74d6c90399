package xmljson

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// NewRenderer returns a renderer that writes events in the xmljson form:
// think as <think>…</think>, respond as plain lines, a batch of calls as one
// <execute> block holding a JSON array of {"name","args","id"}, and a run of
// results as one <results> block of {"tool","status","content"}. Arguments
// and contents are written byte for byte as the events hold them. The end
// event writes nothing (the parser gives one end whether or not <end> is
// there). It cannot carry respond text holding a marker, a thought holding
// </think>, or calls no execute followed.
func NewRenderer(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New(&units{w: bufio.NewWriter(w)})
}

type units struct {
	w     *bufio.Writer
	calls []syntax.Event // the batch so far: one block is written at Execute
}

func (u *units) Calls(calls []syntax.Event) error {
	u.calls = append(u.calls, calls...)
	return nil
}

func (u *units) Execute() error {
	err := u.batch(u.calls)
	u.calls = nil
	return err
}

func (u *units) Text(t syntax.Type, s string) error {
	if len(u.calls) > 0 {
		return wire.CannotCarry("xmljson", "text between calls and their execute (written after the text, with the batch)")
	}
	if t == syntax.Think {
		if strings.Contains(s, closeThink) {
			return wire.CannotCarry("xmljson", "a thought holding %s", closeThink)
		}
		u.w.WriteString(openThink + s + closeThink + "\n")
		return nil
	}
	for _, m := range textMarkers {
		if strings.Contains(s, m) {
			return wire.CannotCarry("xmljson", "respond text holding the marker %s", m)
		}
	}
	u.w.WriteString(s + "\n")
	return nil
}

func (u *units) batch(calls []syntax.Event) error {
	b := []byte(openExecute + "\n[")
	for i, c := range calls {
		if i > 0 {
			b = append(b, ",\n "...)
		}
		b = syntax.AppendCallObject(b, c)
	}
	b = append(b, "]\n"+closeExecute+"\n"...)
	u.w.Write(b)
	return nil
}

func (u *units) pending() error {
	if len(u.calls) == 0 {
		return nil
	}
	n := len(u.calls)
	u.calls = nil
	return wire.CannotCarry("xmljson", "%d call(s) with no execute: every <execute> block is executed, so they are not written", n)
}

func (u *units) Results(rs []syntax.Event) error {
	err := u.pending()
	b := []byte(openResults + "\n[")
	for i, r := range rs {
		if i > 0 {
			b = append(b, ",\n "...)
		}
		b = append(b, `{"tool":`...)
		b = syntax.AppendQuote(b, r.Tool)
		b = append(b, `,"status":`...)
		b = syntax.AppendQuote(b, string(r.Status))
		b = append(b, `,"content":`...)
		b = append(b, r.ValueJSON()...)
		b = append(b, '}')
	}
	b = append(b, "]\n"+closeResults+"\n"...)
	u.w.Write(b)
	return err
}

func (u *units) End() error { return errors.Join(u.pending(), u.w.Flush()) }
