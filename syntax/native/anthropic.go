// Anthropic Messages: its stream events and whole messages read (content
// blocks: text, thinking with its signature, redacted thinking, tool_use,
// tool_result, and the server and MCP tools the provider runs, which are
// hosted calls and results), the fast path for its deltas, its usage, the
// renderer (one message a turn, tool_result blocks in a user message) and
// the stream encoder (SSE content-block events).

package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// wholeBlock reads one Anthropic content block of a whole message, the
// block at key (see blockKey).
func (p *parser) wholeBlock(b fields, key string, span syntax.Span, complete bool) {
	typ := b.s("type")
	if p.textPart(typ, b, span) {
		return
	}
	switch typ {
	case "tool_use": // complete: emitted at its place among the blocks
		c := p.callFor(key, b.s("id"), b.s("name"), span)
		c.custom = b.boolean("custom")
		p.setValue(c, b.get("input"))
		if len(c.whole) == 0 && !c.tooLong {
			p.setWhole(c, []byte("{}"))
		}
		if complete {
			p.completeCall(c, "")
		}
	case "tool_result":
		p.toolResult(b, span)
	case "server_tool_use", "mcp_tool_use":
		c := p.callFor(key, b.s("id"), b.s("name"), span)
		c.hosted = true
		p.setValue(c, b.get("input"))
		if len(c.whole) == 0 && !c.tooLong {
			p.setWhole(c, []byte("{}"))
		}
		p.completeCall(c, "")
	default:
		if anthropicHostedResult(typ) {
			p.hostedResult(b, span)
			return
		}
		p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a content block of type %q is not read", typ)
	}
}

func (p *parser) toolResult(b fields, span syntax.Span) {
	status := syntax.Success
	if b.boolean("is_error") {
		status = syntax.Failure
	}
	tool := p.toolName(b.s("tool_use_id"))
	if tool == "" {
		tool = b.s("name") // not Anthropic's: the renderer's name for a result whose call had no id
	}
	p.Emit(syntax.Event{Type: syntax.Result, Tool: tool, ID: b.s("tool_use_id"), Status: status, Value: contentValue(b.get("content")), Span: span})
}

func anthropicCut(stop string) string {
	if stop == "max_tokens" {
		return "stop_reason max_tokens"
	}
	return ""
}

var anthropicEvents = map[string]bool{
	"message_start": true, "content_block_start": true, "content_block_delta": true,
	"content_block_stop": true, "message_delta": true, "message_stop": true, "ping": true, "error": true,
}

// anthropicEvent reads one event of an Anthropic Messages stream.
func (p *parser) anthropicEvent(d fields, typ string, span syntax.Span) {
	key := "block:"
	if idx, ok := d.num("index"); ok {
		key = blockKey(idx)
	}
	switch typ {
	case "message_start":
		// A message_start while a message is open (a proxy's retry, or a
		// stream that lost its end) ends the message before it: that one
		// never ended, so nothing of it is executed.
		p.abandon("a new message started before the call was complete", "a new message started before this one ended", false)
		p.started, p.startOK = anthropicUsage(d.obj("message").obj("usage"))
	case "content_block_start":
		b := d.obj("content_block")
		switch typ := b.s("type"); {
		case typ == "tool_use" || anthropicHostedUse(typ):
			c := p.callFor(key, b.s("id"), b.s("name"), span)
			c.start, c.hosted, c.custom = keep(b.get("input")), typ != "tool_use", b.boolean("custom")
		case anthropicHostedResult(typ):
			p.hostedResult(b, span)
		case typ == "text":
			p.text(syntax.Respond, b.get("text"), span)
		case typ == "thinking":
			p.text(syntax.Think, b.get("thinking"), span)
			p.anthropicState(b, "signature", span)
		case typ == "redacted_thinking":
			p.anthropicState(b, "data", span)
		default:
			p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a content block of type %q is not read", typ)
		}
	case "content_block_delta":
		delta := d.obj("delta")
		switch dt := delta.s("type"); dt {
		case "text_delta":
			p.text(syntax.Respond, delta.get("text"), span)
		case "thinking_delta":
			p.text(syntax.Think, delta.get("thinking"), span)
		case "signature_delta":
			p.anthropicState(delta, "signature", span)
		case "input_json_delta":
			c := p.msg.byKey[key]
			if c == nil {
				p.Errorf(syntax.CodeMalformed, p.docStart, span, nil, "input_json_delta for content block %s, which did not start as tool_use", key[len("block:"):])
				return
			}
			if frag, ok := delta.text("partial_json"); ok {
				p.addArgs(c, frag, span)
			}
		case "":
			if jsonscan.Kind(d.get("delta")) == '{' {
				p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a content block delta with no type is not read")
			} else {
				// No delta: its content, if any, stands elsewhere ("text" at
				// the top level): a shape not read, never silence.
				p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a content block delta with no delta is not read")
			}
		default:
			p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a content block delta of type %q is not read", dt)
		}
	case "content_block_stop":
		if c := p.msg.byKey[key]; c != nil {
			c.span.End = span.End
			p.completeCall(c, "")
		}
		p.EndRun()
	case "message_delta":
		if stop := d.obj("delta").s("stop_reason"); stop != "" {
			p.EndRun()
			if stop == "refusal" {
				p.refuse(d.obj("delta").obj("stop_details").get("explanation"), span)
				p.EndRun()
			}
			p.endMessage(span, anthropicCut(stop))
		}
		if u, ok := anthropicUsage(d.obj("usage")); ok || p.startOK {
			// message_delta's counts are the message's so far; an input
			// it leaves out is message_start's.
			if !ok || u.Input == 0 {
				u.Input, u.Cached = p.started.Input, p.started.Cached
			}
			u.Output = max(u.Output, p.started.Output)
			u.Reasoning = max(u.Reasoning, p.started.Reasoning)
			p.startOK = false
			p.emitUsage(u, true, span)
		}
	case "message_stop":
		p.EndRun()
		p.endMessage(span, "")
	case "error":
		p.streamError(d, span)
	}
}

// blockKeys are the keys of the first content blocks of a message, made
// once: every document of an Anthropic stream names its block.
var blockKeys = func() (k [32]string) {
	for i := range k {
		k[i] = "block:" + strconv.Itoa(i)
	}
	return k
}()

// blockKey is the key of the call in content block i.
func blockKey(i int) string {
	if i >= 0 && i < len(blockKeys) {
		return blockKeys[i]
	}
	return "block:" + strconv.Itoa(i)
}

// anthropicState gives the open thought the state of block b (or of a
// delta) that the API needs back: a thinking block's signature, a
// redacted_thinking block's data (a thought of no text).
func (p *parser) anthropicState(b fields, key string, span syntax.Span) {
	v := b.s(key)
	if v == "" {
		return
	}
	typ := "thinking"
	if key == "data" {
		typ = "redacted_thinking"
	}
	p.flushRefusal()
	p.RunOpaque(syntax.Think, opaque("anthropic", `{"type":"`+typ+`","`+key+`":`+string(syntax.AppendQuote(nil, v))+`}`), span)
	if key == "data" {
		p.EndRun() // a block of its own
	}
}

// anthropicHostedUse reports whether an Anthropic content block type is a
// call of a tool the provider runs (server_tool_use, mcp_tool_use).
func anthropicHostedUse(typ string) bool { return typ == "server_tool_use" || typ == "mcp_tool_use" }

// anthropicHostedResult reports whether an Anthropic content block type is
// the result of such a call (web_search_tool_result, mcp_tool_result, …).
func anthropicHostedResult(typ string) bool {
	return strings.HasSuffix(typ, "_tool_result") && typ != "tool_result"
}

// hostedResult emits the hosted_result of an Anthropic result block, named
// after the call it answers.
func (p *parser) hostedResult(b fields, span syntax.Span) {
	id := b.s("tool_use_id")
	content := b.get("content")
	status := syntax.Success
	if b.boolean("is_error") || strings.HasSuffix(p.probe(content).s("type"), "_error") {
		status = syntax.Failure
	}
	tool := p.toolName(id)
	if tool == "" {
		tool = b.s("name") // not Anthropic's: the renderer's name for a result whose call had no id
	}
	p.Emit(syntax.Event{Type: syntax.HostedResult, Tool: tool, ID: id, Status: status, Value: contentValue(content), Span: span})
}

// fastAnthropic reads content_block_delta (text, thinking, input JSON) and
// content_block_stop.
func (p *parser) fastAnthropic(span syntax.Span) bool {
	f := &p.fd
	idx, has, ok := fastInt(f.index)
	if !ok {
		return false
	}
	p.sKey = append(p.sKey[:0], "block:"...)
	if has {
		p.sKey = strconv.AppendInt(p.sKey, int64(idx), 10)
	}
	if string(f.typ) == `"content_block_stop"` {
		if c := p.msg.byKey[string(p.sKey)]; c != nil {
			c.span.End = span.End
			p.completeCall(c, "")
		}
		p.EndRun()
		return true
	}
	delta := nul(f.delta)
	if delta == nil {
		return false // no delta: the general reader reports the shape
	}
	m := &f.m
	if delta[0] != '{' || f.owner != 'd' || !isStr(m.typ) {
		return false
	}
	switch string(m.typ) {
	case `"text_delta"`:
		if !isStr(m.text) {
			return false
		}
		p.fastText(syntax.Respond, m.text, span)
	case `"thinking_delta"`:
		if !isStr(m.thinking) {
			return false
		}
		p.fastText(syntax.Think, m.thinking, span)
	case `"input_json_delta"`:
		c := p.msg.byKey[string(p.sKey)]
		if c == nil || !isStr(m.partialJSON) {
			return false
		}
		if frag := nul(m.partialJSON); frag != nil {
			p.addArgs(c, decode(&p.sText, frag), span)
		}
	default:
		return false
	}
	return true
}

// anthropicUsage reads an Anthropic usage object.
func anthropicUsage(u fields) (tokens, bool) {
	if u.none() {
		return tokens{}, false
	}
	cached := count(u, "cache_read_input_tokens")
	return tokens{Input: count(u, "input_tokens") + cached + count(u, "cache_creation_input_tokens"), Output: count(u, "output_tokens"), Cached: cached,
		Reasoning: count(u.obj("output_tokens_details"), "thinking_tokens")}, true
}

// appendAnthropic appends u as Anthropic's usage object.
func (u tokens) appendAnthropic(b []byte) []byte {
	b = appendCount(append(b, '{'), "input_tokens", u.Input-u.Cached)
	if u.Cached > 0 {
		b = appendCount(append(b, ','), "cache_read_input_tokens", u.Cached)
	}
	b = appendCount(append(b, ','), "output_tokens", u.Output)
	if u.Reasoning > 0 {
		b = appendCount(append(b, `,"output_tokens_details":{`...), "thinking_tokens", u.Reasoning)
		b = append(b, '}')
	}
	return append(b, '}')
}

// The Anthropic message as the renderer writes it, in the provider's field order.
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

// anthropicStream writes Anthropic Messages events.
type anthropicStream struct {
	w       *bufio.Writer
	blocks  int    // content blocks started in the message
	msgs    int    // messages started
	tool    bool   // the open block is a tool_use block
	b       []byte // the event being made, reused
	refusal []byte // a refusal's text: the message stops with "refusal", the text its explanation
	refuse  bool   // the open run is a refusal
	kind    syntax.Type
	note    func(format string, args ...any) // reports what is not carried
	o       StreamOptions
}

func (s *anthropicStream) event(name string, data []byte) error { return sse(s.w, name, data) }

func (s *anthropicStream) start() error {
	s.msgs++
	s.blocks, s.refuse, s.refusal = 0, false, s.refusal[:0]
	d := syntax.AppendQuote([]byte(`{"type":"message_start","message":{"id":`), s.o.id("msg_", s.msgs))
	d = syntax.AppendQuote(append(d, `,"type":"message","role":"assistant","model":`...), s.o.model())
	d = append(d, `,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}`...)
	return s.event("message_start", d)
}

func (s *anthropicStream) blockStart(block []byte) error {
	d := []byte(`{"type":"content_block_start","index":`)
	d = strconv.AppendInt(d, int64(s.blocks), 10)
	d = append(d, `,"content_block":`...)
	d = append(d, block...)
	return s.event("content_block_start", append(d, '}'))
}

// deltaHead starts a content_block_delta event in s.b, up to its delta's
// members; the caller appends them and calls deltaEnd.
func (s *anthropicStream) deltaHead(typ string) []byte {
	d := append(s.b[:0], `{"type":"content_block_delta","index":`...)
	d = strconv.AppendInt(d, int64(s.blocks), 10)
	d = append(d, `,"delta":{"type":"`...)
	d = append(d, typ...)
	return append(d, `",`...)
}

func (s *anthropicStream) deltaEnd(d []byte) error {
	s.b = append(d, "}}"...)
	return s.event("content_block_delta", s.b)
}

func (s *anthropicStream) textDeltaEvent(typ, key, text string) error {
	d := append(s.deltaHead(typ), key...)
	return s.deltaEnd(syntax.AppendQuote(d, text))
}

func (s *anthropicStream) blockStop() error {
	d := []byte(`{"type":"content_block_stop","index":`)
	d = strconv.AppendInt(d, int64(s.blocks), 10)
	s.blocks++
	return s.event("content_block_stop", append(d, '}'))
}

func (s *anthropicStream) textStart(t syntax.Type, refusal bool) error {
	s.kind, s.tool, s.refuse = t, false, refusal
	if refusal {
		// Anthropic writes a refusal as the message's stop details, not
		// as a block.
		if len(s.refusal) > 0 {
			s.refusal = append(s.refusal, "\n\n"...)
		}
		return nil
	}
	if t == syntax.Think {
		return s.blockStart([]byte(`{"type":"thinking","thinking":"","signature":""}`))
	}
	return s.blockStart([]byte(`{"type":"text","text":""}`))
}

func (s *anthropicStream) textDelta(text string) error {
	if s.refuse {
		s.refusal = append(s.refusal, text...)
		return nil
	}
	if s.kind == syntax.Think {
		return s.textDeltaEvent("thinking_delta", `"thinking":`, text)
	}
	return s.textDeltaEvent("text_delta", `"text":`, text)
}

func (s *anthropicStream) textStop(state json.RawMessage) error {
	if s.refuse {
		s.refuse = false
		return nil
	}
	if s.kind == syntax.Think && state != nil {
		var st struct{ Type, Signature string }
		json.Unmarshal(state, &st)
		if st.Signature != "" {
			if err := s.textDeltaEvent("signature_delta", `"signature":`, st.Signature); err != nil {
				return err
			}
		}
	}
	return s.blockStop()
}

func (s *anthropicStream) callStart(c *streamCall) error {
	s.tool = true
	b := syntax.AppendQuote([]byte(`{"type":"tool_use","id":`), c.id)
	b = append(b, `,"name":`...)
	b = syntax.AppendQuote(b, c.name)
	return s.blockStart(append(b, `,"input":{}}`...))
}

func (s *anthropicStream) callDelta(_ *streamCall, frag []byte) error {
	d := append(s.deltaHead("input_json_delta"), `"partial_json":`...)
	return s.deltaEnd(params.Quote(d, frag))
}

func (s *anthropicStream) callStop(*streamCall, []byte, json.RawMessage) error {
	s.tool = false
	return s.blockStop()
}

func (s *anthropicStream) finish(why stop, msg string, u *tokens) error {
	if why == stopError {
		e := syntax.AppendQuote([]byte(`{"type":"error","error":{"type":"api_error","message":`), msg)
		return s.event("error", append(e, "}}"...))
	}
	reason := [...]string{stopEnd: "end_turn", stopCalls: "tool_use", stopCut: "max_tokens"}[why]
	if len(s.refusal) > 0 && why == stopEnd {
		reason = "refusal"
	} else if len(s.refusal) > 0 {
		// The message stops for another reason: the refusal is text.
		s.note("a refusal in a message that goes on to calls: written as text")
		if err := s.blockStart([]byte(`{"type":"text","text":""}`)); err != nil {
			return err
		}
		if err := s.textDeltaEvent("text_delta", `"text":`, string(s.refusal)); err != nil {
			return err
		}
		if err := s.blockStop(); err != nil {
			return err
		}
	}
	d := syntax.AppendQuote([]byte(`{"type":"message_delta","delta":{"stop_reason":`), reason)
	d = append(d, `,"stop_sequence":null`...)
	if reason == "refusal" {
		d = syntax.AppendQuote(append(d, `,"stop_details":{"type":"refusal","explanation":`...), string(s.refusal))
		d = append(d, '}')
	}
	if u != nil {
		d = append(u.appendAnthropic(append(d, `},"usage":`...)), '}')
	} else {
		d = append(d, `},"usage":{"output_tokens":0}}`...)
	}
	if err := s.event("message_delta", d); err != nil {
		return err
	}
	return s.event("message_stop", []byte(`{"type":"message_stop"}`))
}
