package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"

	"github.com/toolparse/toolparse/internal/jsonscan"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events as Anthropic Messages,
// one JSON message per line: an assistant message holds the thinking, text
// and tool_use blocks in their order and ends at execute (stop_reason
// "tool_use") or before results (stop_reason "end_turn"); a run of results is
// a user message of tool_result blocks (is_error for a failure), each
// pointing at its call by tool_use_id. A call without an id is given one
// (call_1, call_2, … in stream order) and the results that answer it the
// same; a result that answers no call of the last batch names its tool in a
// "name" field instead, which this parser reads (Anthropic's API has no
// such field).
//
// Calls the provider ran itself (hosted) are server_tool_use blocks when
// their tool is one of Anthropic's, mcp_tool_use blocks otherwise, each
// followed by its result block. A refusal ends its message with stop_reason
// "refusal" and the text as stop_details.explanation. A custom call's
// tool_use block has "custom":true, which this parser reads (Anthropic's API
// has no such field).
//
// It cannot carry calls that no execute followed, or an execute with no call.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	if opts.Mode == syntax.TokenMode {
		r, _ := NewStream("anthropic", w, StreamOptions{})
		return r
	}
	r := wire.New("anthropic", &anthropicUnits{w: bufio.NewWriter(w)})
	r.IDs, r.Form = true, "anthropic"
	return r
}

// The JSON written, in the providers' field order.
type (
	aBlock struct {
		Type      string          `json:"type"`
		Text      *string         `json:"text,omitempty"`
		Thinking  *string         `json:"thinking,omitempty"`
		Signature string          `json:"signature,omitempty"`
		Data      string          `json:"data,omitempty"`
		ID        string          `json:"id,omitempty"`
		ToolUseID string          `json:"tool_use_id,omitempty"`
		Name      string          `json:"name,omitempty"`
		Input     json.RawMessage `json:"input,omitempty"`
		Content   json.RawMessage `json:"content,omitempty"`
		IsError   bool            `json:"is_error,omitempty"`
		Custom    bool            `json:"custom,omitempty"`
	}
	aStopDetails struct {
		Type        string `json:"type"`
		Explanation string `json:"explanation"`
	}
	aMessage struct {
		Type        string        `json:"type,omitempty"`
		Role        string        `json:"role"`
		Content     []aBlock      `json:"content"`
		StopReason  string        `json:"stop_reason,omitempty"`
		StopDetails *aStopDetails `json:"stop_details,omitempty"`
	}
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

type anthropicUnits struct {
	w        *bufio.Writer
	content  []aBlock          // the open assistant message's blocks
	calls    []syntax.Event    // its calls
	names    map[string]string // call id → tool name, of the batch's calls (forgotten at the next batch: memory does not grow with the stream)
	answered bool              // results were written since the batch's calls
	refusal  *string           // its refusal, which ends it
	hosted   map[string]bool   // the ids of the hosted calls written
}

// Refusal ends the open assistant message with stop_reason "refusal", the
// text as its stop_details' explanation.
func (u *anthropicUnits) Refusal(s string) error {
	err := u.afterRefusal()
	u.refusal = &s
	return err
}

// afterRefusal writes the open message if a refusal ended it: what follows
// is in a message of its own.
func (u *anthropicUnits) afterRefusal() error {
	if u.refusal == nil {
		return nil
	}
	return u.message("end_turn")
}

func (u *anthropicUnits) Text(t syntax.Type, s string) error {
	if err := u.afterRefusal(); err != nil {
		return err
	}
	if t == syntax.Think {
		// A thought that came with no signature (another provider's) is
		// written without one: nothing is lost, but the Messages API takes
		// a thinking block back only with the signature it gave.
		u.content = append(u.content, aBlock{Type: "thinking", Thinking: &s})
	} else {
		u.content = append(u.content, aBlock{Type: "text", Text: &s})
	}
	return nil
}

// TextOpaque writes a thought with the state the API gave for it: a
// thinking block with its signature, or a redacted_thinking block.
func (u *anthropicUnits) TextOpaque(t syntax.Type, s string, state json.RawMessage) error {
	var st struct{ Type, Signature, Data string }
	json.Unmarshal(state, &st)
	if t != syntax.Think || st.Type == "thinking" && st.Signature == "" || st.Type == "redacted_thinking" && st.Data == "" {
		return errors.Join(u.Text(t, s), wire.CannotCarry("native", "the anthropic state of a %s event that is not a thought's signature or redacted thinking: not written", t))
	}
	if err := u.afterRefusal(); err != nil {
		return err
	}
	if st.Type == "redacted_thinking" {
		u.content = append(u.content, aBlock{Type: "redacted_thinking", Data: st.Data})
		if s != "" {
			u.content = append(u.content, aBlock{Type: "thinking", Thinking: &s})
			return wire.CannotCarry("native", "the text of a redacted thought: written as a thinking block without a signature")
		}
		return nil
	}
	u.content = append(u.content, aBlock{Type: "thinking", Thinking: &s, Signature: st.Signature})
	return nil
}

func (u *anthropicUnits) Calls(calls []syntax.Event) error {
	if err := u.afterRefusal(); err != nil {
		return err
	}
	if u.names == nil || u.answered {
		u.names, u.answered = map[string]string{}, false // a new batch: results answer its calls
	}
	for _, c := range calls {
		u.content = append(u.content, aBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: c.ArgsJSON(), Custom: c.Custom})
		u.names[c.ID] = c.Name
	}
	u.calls = append(u.calls, calls...)
	return nil
}

// anthropicServerTools are the tools Anthropic runs itself, each answered by
// a block of type NAME_tool_result; any other hosted tool is written as an
// MCP tool (mcp_tool_use, mcp_tool_result).
var anthropicServerTools = map[string]bool{
	"web_search": true, "web_fetch": true, "code_execution": true, "bash_code_execution": true,
	"text_editor_code_execution": true, "tool_search_tool_regex": true, "tool_search_tool_bm25": true,
}

// Hosted writes a hosted call as a server_tool_use (or mcp_tool_use) block
// of the open assistant message, and a hosted result as the result block
// that follows it (is_error for a failure; a "name" field, which this parser
// reads, when it has no id).
func (u *anthropicUnits) Hosted(e syntax.Event) error {
	if err := u.afterRefusal(); err != nil {
		return err
	}
	if e.Type == syntax.HostedCall {
		typ := "mcp_tool_use"
		if anthropicServerTools[e.Name] {
			typ = "server_tool_use"
		}
		u.content = append(u.content, aBlock{Type: typ, ID: e.ID, Name: e.Name, Input: e.ArgsJSON()})
		if u.hosted == nil {
			u.hosted = map[string]bool{}
		}
		u.hosted[e.ID] = true
		return nil
	}
	typ := "mcp_tool_result"
	if anthropicServerTools[e.Tool] {
		typ = e.Tool + "_tool_result"
	}
	b := aBlock{Type: typ, ToolUseID: e.ID, Content: e.ValueJSON(), IsError: e.Status == syntax.Failure}
	if e.ID == "" || !u.hosted[e.ID] {
		// Its call is not in this output (it had no id, or it was not
		// read): the result names its tool, in a field this parser reads.
		b.Name = e.Tool
	}
	u.content = append(u.content, b)
	return nil
}

func (u *anthropicUnits) Execute() error {
	if len(u.calls) == 0 {
		return wire.CannotCarry("native", "an execute with no call")
	}
	u.calls = nil
	return u.message("tool_use")
}

// message writes the open assistant message, if it has content or a
// refusal.
func (u *anthropicUnits) message(stop string) error {
	if len(u.content) == 0 && u.refusal == nil {
		return nil
	}
	m := aMessage{Type: "message", Role: "assistant", Content: u.content, StopReason: stop}
	if m.Content == nil {
		m.Content = []aBlock{}
	}
	if u.refusal != nil {
		m.StopReason, m.StopDetails = "refusal", &aStopDetails{Type: "refusal", Explanation: *u.refusal}
	}
	err := u.line(m)
	u.content, u.refusal = nil, nil
	return err
}

func (u *anthropicUnits) line(v any) error { return writeLine(u.w, v) }

// writeLine writes v as one JSON line, without HTML escaping.
func writeLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

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
	blocks := make([]aBlock, len(rs))
	u.answered = true
	for i, r := range rs {
		b := aBlock{Type: "tool_result", Content: anthropicContent(r.ValueJSON()), IsError: r.Status == syntax.Failure}
		switch b.ToolUseID = r.ID; {
		case r.ID == "":
			b.Name = r.Tool
			err = errors.Join(err, wire.CannotCarry("native", "a result of %s that answers no call in the stream: a tool_result takes its call's tool_use_id (written with a name field, which this parser reads and the API does not take)", r.Tool))
		case r.Tool != "" && u.names[r.ID] != r.Tool:
			err = errors.Join(err, wire.CannotCarry("native", "the tool name of a result of %s whose call is not in the stream (a tool_result has none)", r.Tool))
		}
		blocks[i] = b
	}
	if e := u.line(aMessage{Role: "user", Content: blocks}); err == nil {
		err = e
	}
	return err
}

func (u *anthropicUnits) Flush() error { return u.w.Flush() }

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

// anthropicContent is a result's content as a tool_result takes it: a
// string, or an array of content blocks (objects with a type) as they are;
// any other value as its JSON text (the Messages API takes nothing else,
// and drops what it does not take).
func anthropicContent(v json.RawMessage) json.RawMessage {
	switch jsonscan.Kind(v) {
	case '"':
		return v
	case '[':
		blocks := true
		jsonscan.Elements(v, func(e []byte, _ int) bool {
			t, _ := jsonscan.Unquote(jsonscan.Member(e, "type"))
			blocks = jsonscan.Kind(e) == '{' && t != ""
			return blocks
		})
		if blocks {
			return v
		}
	}
	return syntax.AppendQuote(nil, string(v))
}
