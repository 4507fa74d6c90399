// Ollama: a chat response or NDJSON stream line read (message content,
// thinking and tool_calls with object arguments), the fast path for its
// deltas, its usage, the renderer and the stream encoder (NDJSON lines).

package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// ollama reads an Ollama /api/chat or /api/generate response or stream
// chunk (one JSON object a line). Text and thinking stream as deltas; each
// tool call comes whole, its arguments an object; "done" ends the message.
func (p *parser) ollama(d fields, span syntax.Span) {
	m := d.obj("message")
	if role, _ := jsonscan.Unquote(m.get("role")); role == "tool" || role == "user" || role == "system" || role == "developer" {
		p.message(m, span) // a tool (or user) message of a chat log, in a response's wrapping
	} else if !m.none() {
		p.text(syntax.Think, m.get("thinking"), span)
		p.content(m.get("content"), span)
		for _, raw := range m.arr("tool_calls") {
			tc := p.object(raw)
			fn := tc.obj("function")
			// Each call is whole: a key of its own, so that calls in later
			// chunks (whose positions start again at 0) are not merged.
			c := p.callFor("ollama:"+strconv.Itoa(p.msg.seen), tc.s("id"), fn.s("name"), span)
			switch args := fn.get("arguments"); jsonscan.Kind(args) {
			case '"':
				p.addArgs(c, decode(&p.sText, args), span)
			case 0:
			default:
				p.setValue(c, args)
			}
			p.completeCall(c, "")
		}
	} else {
		if d.has("message") && !d.has("response") { // a message of null: nothing to read
			p.wrongType("message", jsonscan.Kind(d.get("message")), '{')
		}
		p.text(syntax.Think, d.get("thinking"), span)
		p.text(syntax.Respond, d.get("response"), span)
	}
	if d.boolean("done") {
		p.EndRun()
		p.endMessage(span, cutReason(d.s("done_reason") == "length", "done_reason length"))
		u, ok := ollamaUsage(d)
		p.emitUsage(u, ok, span)
	}
}

// fastOllama reads an Ollama chunk of text or thinking that does not end
// the message and carries no tool calls.
func (p *parser) fastOllama(span syntax.Span) bool {
	f := &p.fd
	msg := nul(f.message)
	if (f.message == nil && f.response == nil) || (f.done[0] != 'f' && f.done[0] != 'n') {
		return false
	}
	if msg == nil {
		if f.message != nil && f.response == nil {
			return false // a message of null: noted
		}
		if !isStr(f.thinking) || !isStr(f.response) {
			return false
		}
		p.fastText(syntax.Think, f.thinking, span)
		p.fastText(syntax.Respond, f.response, span)
		return true
	}
	m := &f.m
	if msg[0] != '{' || f.owner != 'm' || !isStr(m.thinking) || !isStr(m.content) || nul(m.toolCalls) != nil {
		return false
	}
	p.fastText(syntax.Think, m.thinking, span)
	p.fastText(syntax.Respond, m.content, span)
	return true
}

// ollamaUsage reads the counts of Ollama's last chunk.
func ollamaUsage(d fields) (tokens, bool) {
	if !d.has("prompt_eval_count") && !d.has("eval_count") {
		return tokens{}, false
	}
	return tokens{Input: count(d, "prompt_eval_count"), Output: count(d, "eval_count")}, true
}

// appendOllama appends u as the members of Ollama's last chunk.
func (u tokens) appendOllama(b []byte) []byte {
	b = appendCount(append(b, ','), "prompt_eval_count", u.Input)
	return appendCount(append(b, ','), "eval_count", u.Output)
}

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

// ollamaStream writes Ollama /api/chat NDJSON (calls whole).
type ollamaStream struct {
	w     *bufio.Writer
	think bool
	o     StreamOptions
}

// head is the start of every line, up to the message's role.
func (s *ollamaStream) head(d []byte) []byte {
	d = syntax.AppendQuote(append(d, `{"model":`...), s.o.model())
	d = syntax.AppendQuote(append(d, `,"created_at":`...), time.Unix(s.o.Created, 0).UTC().Format(time.RFC3339Nano))
	return append(d, `,"message":{"role":"assistant","content":`...)
}

func (s *ollamaStream) line(msg []byte, done string, u *tokens) error {
	d := append(s.head(nil), `""`...)
	d = append(d, msg...)
	d = append(d, `},"done":`...)
	if done == "" {
		d = append(d, "false"...)
	} else {
		d = append(d, `true,"done_reason":"`...)
		d = append(d, done...)
		d = append(d, '"')
		if u != nil {
			d = u.appendOllama(d)
		}
	}
	d = append(d, "}\n"...)
	_, err := s.w.Write(d)
	return err
}

func (s *ollamaStream) start() error { return nil }

func (s *ollamaStream) textStart(t syntax.Type, _ bool) error {
	s.think = t == syntax.Think
	return nil
}

func (s *ollamaStream) textDelta(text string) error {
	if s.think {
		return s.line(syntax.AppendQuote([]byte(`,"thinking":`), text), "", nil)
	}
	d := syntax.AppendQuote(s.head(nil), text)
	d = append(d, `},"done":false}`+"\n"...)
	_, err := s.w.Write(d)
	return err
}

func (s *ollamaStream) textStop(json.RawMessage) error { return nil }

func (s *ollamaStream) callStart(*streamCall) error { return nil }

func (s *ollamaStream) callDelta(*streamCall, []byte) error { return nil }

func (s *ollamaStream) callStop(c *streamCall, args []byte, _ json.RawMessage) error {
	m := []byte(`,"tool_calls":[{"function":{"name":`)
	m = syntax.AppendQuote(m, c.name)
	m = append(m, `,"arguments":`...)
	m = append(m, args...)
	m = append(m, `}}]`...)
	return s.line(m, "", nil)
}

func (s *ollamaStream) finish(why stop, msg string, u *tokens) error {
	if why == stopError {
		d := syntax.AppendQuote([]byte(`{"error":`), msg)
		_, err := s.w.Write(append(d, "}\n"...))
		return err
	}
	return s.line(nil, [...]string{stopEnd: "stop", stopCalls: "stop", stopCut: "length"}[why], u)
}
