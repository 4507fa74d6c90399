package qwen3coder

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// NewRenderer returns a renderer that writes events in the Qwen3-Coder form:
// thoughts as <think>…</think>, text as plain lines, each call as a
// <tool_call><function=NAME> block with one <parameter=KEY> per value (an
// array as the key repeated), each value between newlines, and results as
// <tool_response> blocks. With Options.ThinkOpen the prompt opened the
// reasoning: a first thought is written without <think>, and output that
// starts otherwise starts with </think>. Each call is parsed back before it
// is written, to make sure it gives exactly its call.
//
// qwen3coder cannot carry (and says so): values that are not strings
// (written as their JSON text, which a tool schema converts back), an array
// of fewer than two items, a value holding </function> or a </parameter>
// that the reader would take for its end, names and keys holding '>' or a
// line end, two batches with no results between them (read back as one),
// results with failure status or content that is not a string, results
// whose tool is not the call at their position, text holding a marker.
func NewRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("qwen3coder", &units{w: bufio.NewWriter(w), first: opts.ThinkOpen})
}

type units struct {
	w        *bufio.Writer
	first    bool     // ThinkOpen: nothing written yet, so the output starts in reasoning
	batch    []string // the calls of the open batch, then of the last executed one
	executed bool     // batch was executed
	answered int      // results written since the execute
	results  bool     // results were written after the last execute
}

// start is called before each unit: with ThinkOpen, the first unit that is
// not a thought closes the reasoning the prompt opened.
func (u *units) start(thought bool) (opened bool) {
	if !u.first {
		return false
	}
	u.first = false
	if thought {
		return true
	}
	u.w.WriteString(closeThink + "\n")
	return false
}

func (u *units) Text(t syntax.Type, s string) error {
	if t == syntax.Think {
		if strings.Contains(s, closeThink) {
			u.start(false)
			return wire.CannotCarry("qwen3coder", "a thought holding %s; not written", closeThink)
		}
		if u.start(true) {
			if !(strings.Contains(s, openToolCall) || strings.Contains(s, "<function=")) {
				u.w.WriteString(s + "\n" + closeThink + "\n\n")
				return nil
			}
			// A call opener would end the reasoning the prompt opened:
			// close it empty, and write the thought in a block of its own.
			u.w.WriteString(closeThink + "\n")
		}
		u.w.WriteString(openThink + "\n" + s + "\n" + closeThink + "\n\n")
		return nil
	}
	u.start(false)
	if !isPlainText(s) {
		return wire.CannotCarry("qwen3coder", "text holding a marker (<think>, <tool_call>, <function=, <tool_response>); not written")
	}
	u.w.WriteString(s + "\n")
	return nil
}

// isPlainText reports whether s, written on its own, reads back as one
// respond run with content s.
func isPlainText(s string) bool {
	if !strings.Contains(s, "<") {
		return true
	}
	var got []syntax.Event
	p := New(func(e syntax.Event) { got = append(got, e) }, syntax.Options{})
	p.Write([]byte(s + "\n"))
	p.Close()
	return len(got) == 2 && got[0].Type == syntax.Respond && got[0].Content == s
}

func (u *units) Calls(calls []syntax.Event) error {
	u.start(false)
	var first error
	if u.executed {
		if !u.results && len(u.batch) > 0 {
			first = wire.CannotCarry("qwen3coder", "a batch of calls right after another with no results between: read back as one batch")
		}
		u.batch, u.executed, u.answered, u.results = u.batch[:0], false, 0, false
	}
	for _, c := range calls {
		b, err := renderCall(c)
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
		return wire.CannotCarry("qwen3coder", "an execute with no call: a message's calls are executed at its end")
	}
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	u.start(false)
	var first error
	note := func(format string, args ...any) {
		if first == nil {
			first = wire.CannotCarry("qwen3coder", format, args...)
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
		if r.Status == syntax.Failure {
			note("a failure status: written as an ordinary tool response")
		}
		content, ok := jsonscan.Unquote(r.ValueJSON())
		if !ok {
			content = string(r.ValueJSON())
			note("result content that is not a string: written as its JSON text")
		}
		if strings.Contains(content, closeResponse) {
			note("result content holding %s; not written", closeResponse)
			continue
		}
		u.w.WriteString(openResponse + "\n" + content + "\n" + closeResponse + "\n")
	}
	u.results = true
	return first
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	u.w.Flush()
	if len(u.batch) > 0 && !u.executed {
		return wire.CannotCarry("qwen3coder", "calls with no execute: a message's calls are always executed at its end")
	}
	return nil
}

func renderCall(c syntax.Event) ([]byte, error) {
	var b bytes.Buffer
	lossy := ""
	b.WriteString(openToolCall + "\n" + openFunction + c.Name + ">\n")
	param := func(k, v string) {
		b.WriteString(openParam + k + ">\n" + v + "\n" + closeParam + "\n")
	}
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
	b.WriteString(closeFunction + "\n" + closeToolCall + "\n")
	if lossy != "" {
		return b.Bytes(), wire.CannotCarry("qwen3coder", "call %s: %s", c.Name, lossy)
	}
	var got []syntax.Event
	p := New(func(e syntax.Event) { got = append(got, e) }, syntax.Options{})
	p.Write(b.Bytes())
	p.Close()
	if len(got) != 3 || got[0].Type != syntax.Call || got[0].Name != c.Name || !bytes.Equal(got[0].Args, c.Args) {
		return b.Bytes(), wire.CannotCarry("qwen3coder", "call %s: its name or values do not survive the qwen3coder form", c.Name)
	}
	return b.Bytes(), nil
}
