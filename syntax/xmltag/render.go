package xmltag

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the xmltag form:
// thoughts as <thinking>…</thinking>, text as plain lines, and each call as a
// <tool:NAME> block with one <param:KEY> per value (an array as the key
// repeated), each value between newlines. Each block is parsed back before it
// is written, to make sure it gives its call: its name and the same JSON
// values (an escape such as \u00fc may read back as the character itself).
//
// xmltag cannot carry: results (it has no form for them), a batch of several
// calls as one batch (each tool is its own batch), an array of one item or
// none (a single param reads back as a string), values holding our tags, or
// values that are not strings (written as their JSON text; a tool schema
// converts them back).
func newRenderer(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New("xmltag", &units{w: bufio.NewWriter(w)})
}

type units struct {
	w       *bufio.Writer
	inBatch int
}

func (u *units) Text(t syntax.Type, s string) error {
	if t == syntax.Think {
		if strings.Contains(s, closeThinking) {
			return wire.CannotCarry("xmltag", "a thought holding %s; not written", closeThinking)
		}
		u.w.WriteString(openThinking + s + closeThinking + "\n")
		if u.inBatch > 0 {
			return wire.CannotCarry("xmltag", "a thought between a call and its execute: written after the call's tool, which is executed at its close tag")
		}
		return nil
	}
	if strings.Contains(s, openThinking) || holdsToolTag(s) {
		return wire.CannotCarry("xmltag", "text holding <thinking> or a <tool:…> tag; not written")
	}
	u.w.WriteString(s + "\n")
	if u.inBatch > 0 {
		return wire.CannotCarry("xmltag", "text between a call and its execute: written after the call's tool, which is executed at its close tag")
	}
	return nil
}

func holdsToolTag(s string) bool {
	for i := strings.Index(s, toolPrefix); i >= 0; {
		if n, _ := openTool([]byte(s[i:]+"\n"), true); n > 0 {
			return true
		}
		j := strings.Index(s[i+1:], toolPrefix)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func (u *units) Calls(calls []syntax.Event) error {
	var first error
	for _, c := range calls {
		u.inBatch++
		b, err := renderTool(c)
		if err != nil && first == nil {
			first = err
		}
		u.w.Write(b)
	}
	return first
}

func (u *units) Execute() error {
	n := u.inBatch
	u.inBatch = 0
	switch {
	case n == 0:
		return wire.CannotCarry("xmltag", "an execute with no call: each tool is its own batch")
	case n > 1:
		return wire.CannotCarry("xmltag", "a batch of %d calls: each tool is read back as a batch of its own", n)
	}
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	return wire.CannotCarry("xmltag", "%d result(s): xmltag has no form for results; not written", len(rs))
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	if u.inBatch > 0 {
		u.w.Flush()
		return wire.CannotCarry("xmltag", "calls with no execute: a tool block is always executed")
	}
	return u.w.Flush()
}

func renderTool(c syntax.Event) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("<tool:" + c.Name + ">\n")
	lossy := params.Strings(c.Args, func(k, v string) {
		b.WriteString("<param:" + k + ">\n" + v + "\n</param:" + k + ">\n")
	})
	b.WriteString("</tool:" + c.Name + ">\n")
	if lossy != "" {
		return b.Bytes(), wire.CannotCarry("xmltag", "call %s: %s", c.Name, lossy)
	}
	if !markup.RoundTrips(newParser, nil, b.Bytes(), nil, c) {
		return b.Bytes(), wire.CannotCarry("xmltag", "call %s: its name or values do not survive the xmltag form", c.Name)
	}
	return b.Bytes(), nil
}
