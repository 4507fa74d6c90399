package xmljson

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the xmljson form:
// think as <think>…</think>, respond as plain lines, a batch of calls as one
// <execute> block holding a JSON array of {"name","args","id"}, and a run of
// results as one <results> block of {"tool","status","content"}. Arguments
// and contents are written byte for byte as the events hold them, and a
// result's id when it has one. The end event writes <end>.
//
// It cannot carry respond text holding a marker that would open something
// (<think>, <end>, or <execute> or <results> followed by '[', '{' or their
// close tag), a thought holding </think>, calls no execute followed, or text
// between calls and their execute (it is written before the batch's block,
// and reported). With Options.ThinkOpen the prompt opened <think>: a first
// thought is written without it, and output that starts otherwise starts
// with </think>.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("xmljson", &units{w: bufio.NewWriter(w), open: wire.NewOpenThought(opts, closeThink)})
}

type units struct {
	w     *bufio.Writer
	calls []syntax.Event // the batch so far: one block is written at Execute
	open  wire.OpenThought
}

func (u *units) begin(thought bool) (inside bool) { return u.open.Begin(u.w, thought) }

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
	var moved error
	if len(u.calls) > 0 {
		moved = wire.CannotCarry("xmljson", "%s text between calls and their execute: written before the batch's <execute> block", t)
	}
	if t == syntax.Think {
		if strings.Contains(s, closeThink) {
			return errors.Join(moved, wire.CannotCarry("xmljson", "a thought holding %s: not written", closeThink))
		}
		if !u.begin(true) {
			u.w.WriteString(openThink)
		}
		u.w.WriteString(s + closeThink + "\n")
		return moved
	}
	if m := opensMarker(s); m != "" {
		return errors.Join(moved, wire.CannotCarry("xmljson", "respond text holding the marker %s: not written", m))
	}
	u.begin(false)
	u.w.WriteString(s + "\n")
	return moved
}

// opensMarker returns the first marker in s that the parser would read as
// one, or "".
func opensMarker(s string) string {
	for _, m := range textMarkers {
		for i := 0; ; {
			j := strings.Index(s[i:], m)
			if j < 0 {
				break
			}
			i += j + len(m)
			if m == openThink || m == endTag {
				return m
			}
			rest := strings.TrimLeft(s[i:]+"\n", " \t\r\n") // the text is written followed by a newline
			closeTag := closeExecute
			if m == openResults {
				closeTag = closeResults
			}
			if rest == "" || rest[0] == '[' || rest[0] == '{' || strings.HasPrefix(rest, closeTag[:min(len(rest), len(closeTag))]) {
				return m
			}
		}
	}
	return ""
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
	u.begin(false)
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
		if r.ID != "" {
			b = append(b, `,"id":`...)
			b = syntax.AppendQuote(b, r.ID)
		}
		b = append(b, `,"status":`...)
		b = syntax.AppendQuote(b, string(r.Status))
		b = append(b, `,"content":`...)
		b = append(b, r.ValueJSON()...)
		b = append(b, '}')
	}
	b = append(b, "]\n"+closeResults+"\n"...)
	u.begin(false)
	u.w.Write(b)
	return err
}

// EndMarker writes <end>.
func (u *units) EndMarker() error {
	err := u.pending()
	u.begin(false)
	u.w.WriteString(endTag + "\n")
	return err
}

func (u *units) End() error {
	u.begin(false)
	return errors.Join(u.pending(), u.w.Flush())
}

func (u *units) Flush() error { return u.w.Flush() }
