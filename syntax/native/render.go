package native

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// NewRenderer returns a renderer that writes events as Anthropic Messages,
// one JSON message per line: an assistant message holds the thinking, text
// and tool_use blocks in their order and ends at execute (stop_reason
// "tool_use") or before results (stop_reason "end_turn"); a run of results is
// a user message of tool_result blocks (is_error for a failure), each
// pointing at the call at its position in the last batch by tool_use_id — or,
// when that call had no id, naming the tool in a "name" field, which this
// parser reads (Anthropic's API has no such field).
//
// It cannot carry calls that no execute followed, or an execute with no call.
func NewRenderer(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New(&anthropicUnits{w: bufio.NewWriter(w)})
}

type anthropicUnits struct {
	w       *bufio.Writer
	content []map[string]any // the open assistant message's blocks
	calls   []syntax.Event   // its calls
	batch   []syntax.Event   // the last executed batch
}

func (u *anthropicUnits) Text(t syntax.Type, s string) error {
	if t == syntax.Think {
		u.content = append(u.content, map[string]any{"type": "thinking", "thinking": s})
	} else {
		u.content = append(u.content, map[string]any{"type": "text", "text": s})
	}
	return nil
}

func (u *anthropicUnits) Calls(calls []syntax.Event) error {
	for _, c := range calls {
		b := map[string]any{"type": "tool_use", "name": c.Name, "input": argsOf(c)}
		if c.ID != "" {
			b["id"] = c.ID
		}
		u.content = append(u.content, b)
	}
	u.calls = append(u.calls, calls...)
	return nil
}

func argsOf(c syntax.Event) json.RawMessage {
	if len(c.Args) == 0 {
		return json.RawMessage("{}")
	}
	return c.Args
}

func (u *anthropicUnits) Execute() error {
	if len(u.calls) == 0 {
		return wire.CannotCarry("native", "an execute with no call")
	}
	u.batch = u.calls
	u.calls = nil
	return u.message("tool_use")
}

// message writes the open assistant message, if it has content.
func (u *anthropicUnits) message(stop string) error {
	if len(u.content) == 0 {
		return nil
	}
	err := u.line(map[string]any{"type": "message", "role": "assistant", "content": u.content, "stop_reason": stop})
	u.content = nil
	return err
}

func (u *anthropicUnits) line(v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	u.w.Write(b)
	return u.w.WriteByte('\n')
}

// marshal is json.Marshal without HTML escaping (and without its newline).
func marshal(v any) ([]byte, error) {
	var b jsonBuffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.b[:len(b.b)-1], nil
}

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }

func (u *anthropicUnits) pending() error {
	if len(u.calls) == 0 {
		return nil
	}
	n := len(u.calls)
	u.calls = nil
	u.content = nil
	return wire.CannotCarry("native", "%d call(s) with no execute: a message's tool_use blocks are executed; the message is not written", n)
}

func (u *anthropicUnits) Results(rs []syntax.Event) error {
	err := u.pending()
	if err == nil {
		err = u.message("end_turn")
	}
	blocks := make([]map[string]any, len(rs))
	for i, r := range rs {
		b := map[string]any{"type": "tool_result", "content": valueOf(r)}
		if i < len(u.batch) && u.batch[i].Name == r.Tool && u.batch[i].ID != "" {
			b["tool_use_id"] = u.batch[i].ID
		} else {
			b["name"] = r.Tool
		}
		if r.Status == syntax.Failure {
			b["is_error"] = true
		}
		blocks[i] = b
	}
	if e := u.line(map[string]any{"role": "user", "content": blocks}); err == nil {
		err = e
	}
	return err
}

func valueOf(r syntax.Event) json.RawMessage {
	if len(r.Value) == 0 {
		return json.RawMessage("null")
	}
	return r.Value
}

func (u *anthropicUnits) End() error {
	err := u.pending()
	if err == nil {
		err = u.message("end_turn")
	}
	if e := u.w.Flush(); err == nil {
		err = e
	}
	return err
}

// NewOpenAIRenderer returns a renderer that writes events as OpenAI Chat
// Completions messages, one JSON message per line: an assistant message with
// reasoning_content, content and tool_calls (arguments as a JSON string),
// ended at execute; a "tool" message per result, with tool_call_id and name.
//
// The message form has fixed places, so it loses order within a message
// (thoughts first, then text, then calls) and joins several text runs of a
// message; it cannot carry a failure status, calls no execute followed, or an
// execute with no call. Each loss is reported.
func NewOpenAIRenderer(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New(&openaiUnits{w: bufio.NewWriter(w)})
}

type openaiUnits struct {
	w                  *bufio.Writer
	reasoning, content string
	calls              []syntax.Event
	batch              []syntax.Event
	texts              int
}

func (u *openaiUnits) Text(t syntax.Type, s string) error {
	u.texts++
	var err error
	if len(u.calls) > 0 || (t == syntax.Think && u.content != "") {
		err = wire.CannotCarry("openai", "order within a message: thoughts, text and calls have fixed places")
	}
	if t == syntax.Think {
		u.reasoning = join(u.reasoning, s)
	} else {
		u.content = join(u.content, s)
	}
	return err
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}

func (u *openaiUnits) Calls(calls []syntax.Event) error {
	u.calls = append(u.calls, calls...)
	return nil
}

func (u *openaiUnits) Execute() error {
	if len(u.calls) == 0 {
		return wire.CannotCarry("openai", "an execute with no call")
	}
	u.batch = u.calls
	return u.message()
}

func (u *openaiUnits) message() error {
	if u.reasoning == "" && u.content == "" && len(u.calls) == 0 {
		return nil
	}
	m := map[string]any{"role": "assistant", "content": nil}
	if u.content != "" {
		m["content"] = u.content
	}
	if u.reasoning != "" {
		m["reasoning_content"] = u.reasoning
	}
	if len(u.calls) > 0 {
		tcs := make([]map[string]any, len(u.calls))
		for i, c := range u.calls {
			tc := map[string]any{"type": "function", "function": map[string]any{"name": c.Name, "arguments": string(argsOf(c))}}
			if c.ID != "" {
				tc["id"] = c.ID
			}
			tcs[i] = tc
		}
		m["tool_calls"] = tcs
	}
	u.reasoning, u.content, u.calls = "", "", nil
	b, err := marshal(m)
	if err != nil {
		return err
	}
	u.w.Write(b)
	return u.w.WriteByte('\n')
}

func (u *openaiUnits) Results(rs []syntax.Event) error {
	var err error
	if len(u.calls) > 0 {
		u.calls = nil
		err = wire.CannotCarry("openai", "calls with no execute are not written")
	}
	if e := u.message(); err == nil {
		err = e
	}
	for i, r := range rs {
		m := map[string]any{"role": "tool", "name": r.Tool, "content": valueOf(r)}
		if i < len(u.batch) && u.batch[i].Name == r.Tool && u.batch[i].ID != "" {
			m["tool_call_id"] = u.batch[i].ID
		}
		if r.Status == syntax.Failure && err == nil {
			err = wire.CannotCarry("openai", "a failure status (tool messages have none)")
		}
		b, e := marshal(m)
		if e != nil {
			return e
		}
		u.w.Write(b)
		u.w.WriteByte('\n')
	}
	return err
}

func (u *openaiUnits) End() error {
	var err error
	if len(u.calls) > 0 {
		u.calls = nil
		err = wire.CannotCarry("openai", "calls with no execute are not written")
	}
	if e := u.message(); err == nil {
		err = e
	}
	if e := u.w.Flush(); err == nil {
		err = e
	}
	return err
}
