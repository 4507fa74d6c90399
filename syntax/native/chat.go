// OpenAI Chat Completions: a response or stream chunk read (choices[], a
// message or its delta, tool_calls with their function or custom input),
// the fast path for its deltas, its usage, the renderer (one message a
// turn, tool-role messages for results) and the stream encoder (SSE chunks
// of deltas).

package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// chatCompletion reads an OpenAI Chat Completions response or stream chunk.
func (p *parser) chatCompletion(d fields, span syntax.Span) {
	ended, choices := false, d.arr("choices")
	for _, raw := range choices {
		ch := p.object(raw)
		if !p.first(ch, "choice", span) {
			continue
		}
		m := ch.obj("message")
		whole := !m.none()
		if m.none() {
			m = ch.obj("delta")
		}
		if !m.none() {
			p.reasoning(m, span)
			p.content(m.get("content"), span)
			p.refuse(m.get("refusal"), span)
			for i, tc := range m.arr("tool_calls") {
				p.chatToolCall(p.object(tc), i, span)
			}
		}
		if finish := ch.s("finish_reason"); finish != "" {
			p.EndRun()
			p.endMessage(span, cutReason(finish == "length", "finish_reason length"))
			ended = true
		} else if whole {
			p.EndRun()
			p.endMessage(span, "")
			ended = true
		}
	}
	// A server that counts in every chunk (vLLM's continuous usage stats)
	// gives the response's counts at its end: read there, or in the
	// chunk of counts alone (no choice) that include_usage asks for.
	if len(choices) == 0 || ended {
		u, ok := chatUsage(d.obj("usage"), false)
		p.emitUsage(u, ok, span)
	}
}

// chatToolCall adds a tool call or a piece of one, keyed by its index (the
// position in the list when there is no index).
func (p *parser) chatToolCall(tc fields, pos int, span syntax.Span) {
	idx, ok := tc.num("index")
	if !ok {
		idx = pos
	}
	if cu := tc.obj("custom"); !cu.none() {
		p.chatCustomCall(p.callFor("index:"+strconv.Itoa(idx), tc.s("id"), cu.s("name"), span), cu.get("input"))
		return
	}
	fn := tc.obj("function")
	c := p.callFor("index:"+strconv.Itoa(idx), tc.s("id"), fn.s("name"), span)
	switch args := fn.get("arguments"); jsonscan.Kind(args) {
	case '"':
		p.addArgs(c, decode(&p.sText, args), span)
	case '{':
		p.setValue(c, args) // some servers send the arguments as an object
	case 'n', 0:
	default:
		p.setValue(c, args) // reported: arguments that are not an object
	}
}

// chatCustomCall reads a Chat Completions call of a custom tool
// ({"type":"custom","custom":{"name","input"}}): its free-text input becomes
// args {"input": text}, flagged custom. The API documents it whole; input
// sent again in pieces is not read (an error, never a call from part of it).
func (p *parser) chatCustomCall(c *call, input []byte) {
	switch {
	case input == nil:
		return
	case c.custom && c.whole != nil:
		c.problem, c.problemCode = "its custom input came in pieces, which is not read", syntax.CodeUnsupported
	case jsonscan.Kind(input) == '"':
		p.setWhole(c, append(append([]byte(`{"input":`), jsonscan.Compact(input)...), '}'))
	default:
		p.setWhole(c, input) // not a string: reported as arguments that are not an object
	}
	c.custom = true
}

// fastChat reads a Chat chunk: choices, an array of at most one choice,
// whose delta holds text, reasoning or tool calls; no message, no end.
func (p *parser) fastChat(span syntax.Span) bool {
	f := &p.fd
	if f.nChoices == 0 {
		return true
	}
	idx, _, ok := fastInt(f.chIndex)
	delta := nul(f.chDelta)
	if !ok || idx != 0 || nonEmpty(f.finish) || !isStr(f.finish) ||
		(delta != nil && f.owner != 'c') {
		return false
	}
	if delta == nil {
		return true
	}
	m := &f.m
	if !isStr(m.content) || !isStr(m.reasoningContent) || !isStr(m.reasoning) || !isStr(m.thinking) ||
		nul(m.refusal) != nil || (nul(m.toolCalls) != nil && m.toolCalls[0] != '[') {
		return false
	}
	for i := range f.nCalls {
		c := &p.fcalls[i]
		if _, _, ok := fastInt(c.index); !ok || !isStr(c.id) || (nul(c.fn) != nil && c.fn[0] != '{') ||
			!isStr(c.name) || !isStr(c.args) {
			return false
		}
	}
	switch { // reasoning, as the general reader reads it
	case nonEmpty(m.reasoningContent):
		p.fastText(syntax.Think, m.reasoningContent, span)
	case nonEmpty(m.reasoning):
		p.fastText(syntax.Think, m.reasoning, span)
	default:
		p.fastText(syntax.Think, m.thinking, span)
	}
	p.fastText(syntax.Respond, m.content, span)
	if nul(m.toolCalls) == nil {
		return true
	}
	for i := range f.nCalls {
		fc := &p.fcalls[i]
		idx, has, _ := fastInt(fc.index)
		if !has {
			idx = i
		}
		p.sKey = strconv.AppendInt(append(p.sKey[:0], "index:"...), int64(idx), 10)
		c := callAt(p, p.sKey, decode(&p.sID, fc.id), decode(&p.sName, fc.name), span)
		if fc.args != nil && fc.args[0] == '"' {
			p.addArgs(c, decode(&p.sText, fc.args), span)
		}
	}
	return true
}

// chatUsage reads a Chat Completions usage object (Responses' when resp).
func chatUsage(u fields, resp bool) (tokens, bool) {
	if u.none() {
		return tokens{}, false
	}
	in, out, inD, outD := "prompt_tokens", "completion_tokens", "prompt_tokens_details", "completion_tokens_details"
	if resp {
		in, out, inD, outD = "input_tokens", "output_tokens", "input_tokens_details", "output_tokens_details"
	}
	return tokens{
		Input: count(u, in), Output: count(u, out),
		Cached: count(u.obj(inD), "cached_tokens"), Reasoning: count(u.obj(outD), "reasoning_tokens"),
	}, true
}

// appendChat appends u as Chat Completions' usage object (Responses' when
// resp).
func (u tokens) appendChat(b []byte, resp bool) []byte {
	in, out, inD, outD := "prompt_tokens", "completion_tokens", "prompt_tokens_details", "completion_tokens_details"
	if resp {
		in, out, inD, outD = "input_tokens", "output_tokens", "input_tokens_details", "output_tokens_details"
	}
	b = appendCount(append(b, '{'), in, u.Input)
	b = appendCount(append(b, ','), out, u.Output)
	b = appendCount(append(b, ','), "total_tokens", u.Input+u.Output)
	if u.Cached > 0 || resp {
		b = appendCount(append(append(b, `,"`+inD+`":`...), '{'), "cached_tokens", u.Cached)
		b = append(b, '}')
	}
	if u.Reasoning > 0 || resp {
		b = appendCount(append(append(b, `,"`+outD+`":`...), '{'), "reasoning_tokens", u.Reasoning)
		b = append(b, '}')
	}
	return append(b, '}')
}

// The Chat Completions message as the renderer writes it, in the provider's field order.
type (
	oFunction struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	oCustom struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	}
	oToolCall struct {
		ID       string     `json:"id,omitempty"`
		Type     string     `json:"type"`
		Function *oFunction `json:"function,omitempty"`
		Custom   *oCustom   `json:"custom,omitempty"`
	}
	oMessage struct {
		Role             string          `json:"role"`
		ToolCallID       string          `json:"tool_call_id,omitempty"`
		Name             string          `json:"name,omitempty"`
		ReasoningContent string          `json:"reasoning_content,omitempty"`
		Content          json.RawMessage `json:"content"`
		Refusal          string          `json:"refusal,omitempty"`
		ToolCalls        []oToolCall     `json:"tool_calls,omitempty"`
	}
)

// newOpenAIRenderer returns a renderer that writes events as OpenAI Chat
// Completions messages, one JSON message per line: an assistant message with
// reasoning_content, content, refusal and tool_calls (arguments as a JSON
// string), ended at execute; a "tool" message per result, with tool_call_id
// and name, its content a string as the API wants it.
//
// The message form has fixed places, so it loses order within a message
// (thoughts first, then text, the refusal, then calls) and joins several
// text runs of a message. A result's content is text (wire.ResultText: a
// value that is not a string as its JSON text, a failure after "Error: ").
// It cannot carry custom calls (written
// as function calls), hosted calls and results (Chat Completions has no
// provider-run tools), calls no execute followed, or an execute with no
// call. Each loss is reported. A call without an id is given one (call_1,
// call_2, … in stream order), and the results that answer it the same
// tool_call_id.
func newOpenAIRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	if opts.Mode == syntax.TokenMode {
		r, _ := NewStream("openai", w, StreamOptions{})
		return r
	}
	r := wire.New("openai", &openaiUnits{w: bufio.NewWriter(w)})
	r.IDs = true
	return r
}

type openaiUnits struct {
	w                           *bufio.Writer
	reasoning, content, refusal string
	calls                       []syntax.Event
}

func (u *openaiUnits) Text(t syntax.Type, s string) error {
	var err error
	if len(u.calls) > 0 || u.refusal != "" || (t == syntax.Think && u.content != "") {
		err = wire.CannotCarry("openai", "order within a message: thoughts, text, refusal and calls have fixed places")
	}
	if t == syntax.Think {
		u.reasoning = join(u.reasoning, s)
	} else {
		u.content = join(u.content, s)
	}
	return err
}

// Refusal sets the open message's refusal field.
func (u *openaiUnits) Refusal(s string) error {
	var err error
	if len(u.calls) > 0 {
		err = wire.CannotCarry("openai", "order within a message: thoughts, text, refusal and calls have fixed places")
	}
	if u.refusal != "" {
		// Two refusals of a message are one field, read back as one run.
		err = errors.Join(err, wire.CannotCarry("openai", "two refusals in one message (joined in its refusal field)"))
	}
	u.refusal = join(u.refusal, s)
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
	var errs []error
	for _, c := range calls {
		if _, ok := customInput(c); c.Custom && !ok {
			errs = append(errs, wire.CannotCarry("openai", "the custom flag of call %s, whose args are not {\"input\": text} (written as a function call)", c.Name))
		}
	}
	return errors.Join(errs...)
}

func (u *openaiUnits) Execute() error {
	if len(u.calls) == 0 {
		return wire.CannotCarry("openai", "an execute with no call")
	}
	return u.message()
}

func (u *openaiUnits) message() error {
	if u.reasoning == "" && u.content == "" && u.refusal == "" && len(u.calls) == 0 {
		return nil
	}
	m := oMessage{Role: "assistant", ReasoningContent: u.reasoning, Content: json.RawMessage("null"), Refusal: u.refusal}
	if u.content != "" {
		m.Content = syntax.AppendQuote(nil, u.content)
	}
	for _, c := range u.calls {
		if input, ok := customInput(c); ok {
			m.ToolCalls = append(m.ToolCalls, oToolCall{ID: c.ID, Type: "custom", Custom: &oCustom{Name: c.Name, Input: input}})
			continue
		}
		m.ToolCalls = append(m.ToolCalls, oToolCall{ID: c.ID, Type: "function", Function: &oFunction{Name: c.Name, Arguments: string(c.ArgsJSON())}})
	}
	u.reasoning, u.content, u.refusal, u.calls = "", "", "", nil
	return writeLine(u.w, m)
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
	for _, r := range rs {
		m := oMessage{Role: "tool", ToolCallID: r.ID, Name: r.Tool, Content: syntax.AppendQuote(nil, wire.ResultText(r))}
		if e := writeLine(u.w, m); e != nil {
			return e
		}
	}
	return err
}

func (u *openaiUnits) Flush() error { return u.w.Flush() }

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

// chatStream writes OpenAI Chat Completions chunks.
type chatStream struct {
	w    *bufio.Writer
	b    []byte // the chunk being made, reused
	top  string // every chunk's start, up to its choices
	head string // every chunk's start, up to its delta
	kind syntax.Type
	ref  bool
}

func newChatStream(w *bufio.Writer, o StreamOptions) *chatStream {
	h := syntax.AppendQuote([]byte(`{"id":`), o.id("chatcmpl-", 1))
	h = strconv.AppendInt(append(h, `,"object":"chat.completion.chunk","created":`...), o.Created, 10)
	h = syntax.AppendQuote(append(h, `,"model":`...), o.model())
	return &chatStream{w: w, top: string(h), head: string(append(h, `,"choices":[{"index":0,"delta":`...))}
}

// send ends the chunk b (its delta written) with finish_reason and writes it.
func (s *chatStream) send(b []byte, finish string) error {
	b = append(b, `,"finish_reason":`...)
	if finish == "" {
		b = append(b, "null"...)
	} else {
		b = syntax.AppendQuote(b, finish)
	}
	b = append(b, "}]}"...)
	s.b = b
	return sse(s.w, "", b)
}

func (s *chatStream) start() error {
	return s.send(append(append(s.b[:0], s.head...), `{"role":"assistant","content":""}`...), "")
}

func (s *chatStream) textStart(t syntax.Type, refusal bool) error {
	s.kind, s.ref = t, refusal
	return nil
}

func (s *chatStream) textDelta(text string) error {
	key := `{"content":`
	switch {
	case s.kind == syntax.Think:
		key = `{"reasoning_content":`
	case s.ref:
		key = `{"refusal":`
	}
	b := append(append(s.b[:0], s.head...), key...)
	b = syntax.AppendQuote(b, text)
	return s.send(append(b, '}'), "")
}

func (s *chatStream) textStop(json.RawMessage) error { return nil }

func (s *chatStream) callStart(c *streamCall) error {
	b := append(append(s.b[:0], s.head...), `{"tool_calls":[{"index":`...)
	b = strconv.AppendInt(b, int64(c.slot), 10)
	b = syntax.AppendQuote(append(b, `,"id":`...), c.id)
	b = syntax.AppendQuote(append(b, `,"type":"function","function":{"name":`...), c.name)
	return s.send(append(b, `,"arguments":""}}]}`...), "")
}

func (s *chatStream) callDelta(c *streamCall, frag []byte) error {
	b := append(append(s.b[:0], s.head...), `{"tool_calls":[{"index":`...)
	b = strconv.AppendInt(b, int64(c.slot), 10)
	b = params.Quote(append(b, `,"function":{"arguments":`...), frag)
	return s.send(append(b, `}}]}`...), "")
}

func (s *chatStream) callStop(*streamCall, []byte, json.RawMessage) error { return nil }

func (s *chatStream) finish(why stop, msg string, u *tokens) error {
	var err error
	switch why {
	case stopError:
		e := syntax.AppendQuote([]byte(`{"error":{"message":`), msg)
		err = sse(s.w, "", append(e, `,"type":"invalid_tool_call","code":null}}`...))
	default:
		err = s.send(append(append(s.b[:0], s.head...), `{}`...), [...]string{stopEnd: "stop", stopCalls: "tool_calls", stopCut: "length"}[why])
		if err == nil && u != nil {
			// The usage chunk, as stream_options.include_usage asks for it.
			err = sse(s.w, "", append(u.appendChat(append(append(s.b[:0], s.top...), `,"choices":[],"usage":`...), false), '}'))
		}
	}
	if err != nil {
		return err
	}
	return sse(s.w, "", []byte("[DONE]"))
}
