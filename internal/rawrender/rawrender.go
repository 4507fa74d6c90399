// Package rawrender is the renderer half that the raw-value syntaxes (those
// whose values are raw text between tags, read by internal/rawvalue) share:
// thoughts as <think>…</think>, text as plain lines, each call as a block
// with one tag pair per value (an array as the key repeated), results as
// <tool_response> blocks, and the batch bookkeeping that says what the form
// cannot carry. A [Form] names a syntax's own markers and how it writes a
// call; the package knows no syntax.
package rawrender

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// Form is what a syntax tells the renderer about itself.
type Form struct {
	Syntax string // the syntax's name, for wire.New and wire.CannotCarry

	OpenThink, CloseThink       string // the reasoning block's tags
	OpenResponse, CloseResponse string // a result's tags

	// CallOpeners are what, in a thought written inside reasoning the
	// prompt opened, would be read as a call and so end the reasoning.
	CallOpeners []string
	// Markers lists the markers plain text may not hold, for the message
	// that says so, such as "<think>, <tool_call>, <tool_response>".
	Markers string

	// New makes the syntax's parser, which reads back what is written.
	New func(syntax.Handler, syntax.Options) syntax.Parser
	// OpenCall writes a call's opener for name, Param one value, CloseCall
	// the call's closer.
	OpenCall  func(b *bytes.Buffer, name string)
	Param     func(b *bytes.Buffer, key, value string)
	CloseCall string
}

// NewRenderer returns a renderer that writes events in form f to w (see the
// package comment). With Options.ThinkOpen the prompt opened the reasoning:
// a first thought is written without its opener, and output that starts
// otherwise starts with its closer. Each call is parsed back before it is
// written, to make sure it gives exactly its call.
func NewRenderer(w io.Writer, opts syntax.Options, f *Form) syntax.Renderer {
	return wire.New(f.Syntax, &units{f: f, w: bufio.NewWriter(w), open: wire.NewOpenThought(opts, f.CloseThink)})
}

type units struct {
	f        *Form
	w        *bufio.Writer
	open     wire.OpenThought // ThinkOpen: the output starts in reasoning
	batch    []string         // the calls of the open batch, then of the last executed one
	executed bool             // batch was executed
	answered int              // results written since the execute
	results  bool             // results were written after the last execute
}

func (u *units) cannot(format string, args ...any) error {
	return wire.CannotCarry(u.f.Syntax, format, args...)
}

func (u *units) Text(t syntax.Type, s string) error {
	f := u.f
	if t == syntax.Think {
		if strings.Contains(s, f.CloseThink) {
			u.open.Begin(u.w, false)
			return u.cannot("a thought holding %s; not written", f.CloseThink)
		}
		if u.open.Begin(u.w, true) {
			if !containsAny(s, f.CallOpeners) {
				u.w.WriteString(s + "\n" + f.CloseThink + "\n\n")
				return nil
			}
			// A call opener would end the reasoning the prompt opened:
			// close it empty, and write the thought in a block of its own.
			u.w.WriteString(f.CloseThink + "\n")
		}
		u.w.WriteString(f.OpenThink + "\n" + s + "\n" + f.CloseThink + "\n\n")
		return nil
	}
	u.open.Begin(u.w, false)
	if !u.isPlainText(s) {
		return u.cannot("text holding a marker (%s); not written", f.Markers)
	}
	u.w.WriteString(s + "\n")
	return nil
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// isPlainText reports whether s, written on its own, reads back as one
// respond run with content s.
func (u *units) isPlainText(s string) bool {
	if !strings.Contains(s, "<") {
		return true
	}
	var got []syntax.Event
	p := u.f.New(func(e syntax.Event) { got = append(got, e) }, syntax.Options{})
	p.Write([]byte(s + "\n"))
	p.Close()
	return len(got) == 2 && got[0].Type == syntax.Respond && got[0].Content == s
}

func (u *units) Calls(calls []syntax.Event) error {
	u.open.Begin(u.w, false)
	var first error
	if u.executed {
		if !u.results && len(u.batch) > 0 {
			first = u.cannot("a batch of calls right after another with no results between: read back as one batch")
		}
		u.batch, u.executed, u.answered, u.results = u.batch[:0], false, 0, false
	}
	for _, c := range calls {
		b, err := u.renderCall(c)
		if err != nil && first == nil {
			first = err
		}
		u.w.Write(b)
		u.batch = append(u.batch, c.Name)
	}
	return first
}

func (u *units) Execute() error {
	if len(u.batch) == 0 || u.executed {
		return u.cannot("an execute with no call: a message's calls are executed at its end")
	}
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	u.open.Begin(u.w, false)
	f := u.f
	var first error
	note := func(format string, args ...any) {
		if first == nil {
			first = u.cannot(format, args...)
		}
	}
	if !u.executed && len(u.batch) > 0 {
		note("results before their calls' execute: the calls are executed where the results start")
		u.executed = true
	}
	for _, r := range rs {
		want := ""
		if u.executed && u.answered < len(u.batch) {
			want = u.batch[u.answered]
		}
		u.answered++
		if r.Tool != want {
			note("a result of %q where the call at its position is %q: results are paired with calls by position", r.Tool, want)
		}
		r = wire.AsText(r) // a failure in words the model reads, any value as its JSON text
		content := wire.ResultText(r)
		if strings.Contains(content, f.CloseResponse) {
			note("result content holding %s; not written", f.CloseResponse)
			continue
		}
		u.w.WriteString(f.OpenResponse + "\n" + content + "\n" + f.CloseResponse + "\n")
	}
	u.results = true
	return first
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	u.w.Flush()
	if len(u.batch) > 0 && !u.executed {
		return u.cannot("calls with no execute: a message's calls are always executed at its end")
	}
	return nil
}

func (u *units) renderCall(c syntax.Event) ([]byte, error) {
	f := u.f
	var b bytes.Buffer
	lossy := ""
	f.OpenCall(&b, c.Name)
	param := func(k, v string) { f.Param(&b, k, v) }
	jsonscan.Members(c.Args, func(k string, v []byte) bool {
		switch jsonscan.Kind(v) {
		case '"':
			s, _ := jsonscan.Unquote(v)
			param(k, s)
		case '[':
			n := 0
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				n++
				s, ok := jsonscan.Unquote(e)
				if !ok {
					s, lossy = string(e), "values that are not strings, written as their JSON text"
				}
				param(k, s)
				return true
			})
			if n < 2 {
				lossy = "an array of fewer than two items, which reads back as a string or nothing"
			}
		default:
			param(k, string(v))
			lossy = "values that are not strings, written as their JSON text"
		}
		return true
	})
	b.WriteString(f.CloseCall)
	if lossy != "" {
		return b.Bytes(), u.cannot("call %s: %s", c.Name, lossy)
	}
	var got []syntax.Event
	p := f.New(func(e syntax.Event) { got = append(got, e) }, syntax.Options{})
	p.Write(b.Bytes())
	p.Close()
	if len(got) != 3 || got[0].Type != syntax.Call || got[0].Name != c.Name || !bytes.Equal(got[0].Args, c.Args) {
		return b.Bytes(), u.cannot("call %s: its name or values do not survive the %s form", c.Name, f.Syntax)
	}
	return b.Bytes(), nil
}
