package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newOllamaRenderer returns a renderer that writes events as Ollama
// /api/chat documents, one JSON document per line: the model's output up to
// an execute (or to results, or the end) is a whole response,
// {"message":{"role":"assistant","content","thinking","tool_calls"},"done":true,"done_reason":"stop"},
// each tool call {"id","function":{"name","arguments"}} with its arguments
// an object; a result is a "tool" message, {"role":"tool","content",
// "tool_name","tool_call_id"}, its content a string.
//
// The message form has fixed places, so it loses order within a message
// (thinking first, then text, then calls) and joins several text runs of a
// message. Ollama has no refusal, custom or provider-run tool form:
// refusals are written as text, custom calls as calls, hosted calls and
// results not at all. A result's content is text (wire.ResultText: a value
// that is not a string as its JSON text, a failure after "Error: "). It
// cannot carry calls no execute
// followed, or an execute with no call. Each loss is reported. A call
// without an id is given one (call_1, call_2, … in stream order), and the
// results that answer it the same tool_call_id.
func newOllamaRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	if opts.Mode == syntax.TokenMode {
		r, _ := NewStream("ollama", w, StreamOptions{})
		return r
	}
	r := wire.New(ollamaName, &ollamaUnits{w: bufio.NewWriter(w)})
	r.IDs = true
	return r
}

const ollamaName = "ollama"

type (
	olFunction struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	olToolCall struct {
		ID       string     `json:"id,omitempty"`
		Function olFunction `json:"function"`
	}
	olMessage struct {
		Role       string       `json:"role"`
		Content    string       `json:"content"`
		Thinking   string       `json:"thinking,omitempty"`
		ToolCalls  []olToolCall `json:"tool_calls,omitempty"`
		ToolName   string       `json:"tool_name,omitempty"`
		ToolCallID string       `json:"tool_call_id,omitempty"`
	}
	olResponse struct {
		Message    olMessage `json:"message"`
		Done       bool      `json:"done"`
		DoneReason string    `json:"done_reason"`
	}
)

type ollamaUnits struct {
	w                 *bufio.Writer
	thinking, content string
	calls             []syntax.Event
}

func (u *ollamaUnits) Text(t syntax.Type, s string) error {
	var err error
	if len(u.calls) > 0 || (t == syntax.Think && u.content != "") {
		err = wire.CannotCarry(ollamaName, "order within a message: thinking, text and calls have fixed places")
	}
	if t == syntax.Think {
		u.thinking = join(u.thinking, s)
	} else {
		u.content = join(u.content, s)
	}
	return err
}

func (u *ollamaUnits) Calls(calls []syntax.Event) error {
	u.calls = append(u.calls, calls...)
	return nil
}

func (u *ollamaUnits) Execute() error {
	if len(u.calls) == 0 {
		return wire.CannotCarry(ollamaName, "an execute with no call")
	}
	return u.message()
}

func (u *ollamaUnits) message() error {
	if u.thinking == "" && u.content == "" && len(u.calls) == 0 {
		return nil
	}
	m := olMessage{Role: "assistant", Content: u.content, Thinking: u.thinking}
	for _, c := range u.calls {
		m.ToolCalls = append(m.ToolCalls, olToolCall{ID: c.ID, Function: olFunction{Name: c.Name, Arguments: c.ArgsJSON()}})
	}
	u.thinking, u.content, u.calls = "", "", nil
	return writeLine(u.w, olResponse{Message: m, Done: true, DoneReason: "stop"})
}

func (u *ollamaUnits) pending() error {
	if len(u.calls) == 0 {
		return nil
	}
	n := len(u.calls)
	u.calls = nil
	return wire.CannotCarry(ollamaName, "%d call(s) with no execute are not written", n)
}

func (u *ollamaUnits) Results(rs []syntax.Event) error {
	err := errors.Join(u.pending(), u.message())
	for _, r := range rs {
		if e := writeLine(u.w, olMessage{Role: "tool", Content: wire.ResultText(r), ToolName: r.Tool, ToolCallID: r.ID}); e != nil {
			return errors.Join(err, e)
		}
	}
	return err
}

func (u *ollamaUnits) Flush() error { return u.w.Flush() }

func (u *ollamaUnits) End() error {
	err := errors.Join(u.pending(), u.message())
	return errors.Join(err, u.w.Flush())
}
