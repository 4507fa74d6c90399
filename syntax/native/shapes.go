package native

// The shapes read.
//
// Each document is read by its shape; every shape below has golden cases
// in testdata.
//
//	Shape (how it is recognised)            What is read
//	--------------------------------------  ------------------------------------------------------------
//	OpenAI Chat, whole: choices[].message    content (string or typed parts), reasoning_content or
//	  (or object chat.completion)            reasoning, refusal, tool_calls[].function{name, arguments},
//	                                         tool_calls[].custom{name, input} (a custom tool)
//	OpenAI Chat, stream: choices[].delta     the same as deltas; tool calls by index; finish_reason
//	  (object chat.completion.chunk)
//	  — Groq, OpenRouter, vLLM, DeepSeek,    delta.reasoning / message.reasoning (Groq, OpenRouter,
//	    Mistral, Qwen through the same API   newer vLLM), reasoning_content (DeepSeek, vLLM, Qwen),
//	                                         Mistral's text and thinking parts
//	OpenAI Responses, whole: output[]        message (output_text, refusal parts), reasoning (summary
//	                                         or reasoning_text content; id and encrypted_content kept),
//	  (or object response)                   function_call, custom_tool_call, local_shell_call,
//	                                         shell_call, apply_patch_call, hosted items (below),
//	                                         function_call_output (a result)
//	OpenAI Responses, a request: input[]     the same items (user messages end the turn, give nothing)
//	OpenAI Responses, stream: type           output_item.added/.done, function_call_arguments.delta/
//	  response.*                             .done, output_text.delta, refusal.delta,
//	                                         reasoning_summary_text.delta, reasoning_text.delta,
//	                                         content_part.done, reasoning_summary_part.done,
//	                                         completed, incomplete, failed
//	Anthropic Messages, whole: role and      content[] blocks: text, thinking (its signature kept),
//	                                         redacted_thinking (its data kept), tool_use,
//	  content[] (or type message)            server_tool_use, mcp_tool_use, *_tool_result,
//	                                         tool_result; stop_reason, stop_details
//	Anthropic Messages, stream: type         message_start, content_block_start/_delta (text_delta,
//	  message_start, content_block_*, …      thinking_delta, signature_delta, input_json_delta)/_stop,
//	                                         message_delta,
//	                                         message_stop, ping, error
//	An error in place of a stream's rest:    the open message's calls are cut off (none is a call)
//	  type error, or only an error member
//	Gemini: candidates[] (a response or a    content.parts[]: text, thought, a part's thoughtSignature
//	                                         (kept), functionCall (whole, or
//	  stream chunk); contents[] and          streamed with willContinue and partialArgs),
//	  parts[] (a conversation)               functionResponse (a result: an "error" member makes a
//	                                         failure, "output" alone is the content); finishReason
//	Ollama: done beside message or           message.content, message.thinking, message.tool_calls
//	  response (/api/chat, /api/generate)    (arguments an object); response, thinking; done
//	Conversations: messages[], a top-level   each message as above; OpenAI role "tool" messages and
//	  array, or one message per line         Anthropic tool_result blocks are results

import (
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// document reads one complete JSON document and dispatches it by shape.
func (p *parser) document(raw []byte, span syntax.Span) {
	if jsonscan.Kind(raw) == '[' {
		p.messageArray(raw, span)
		return
	}
	if !p.general && p.fast(raw, span) {
		p.fastReads++
		return
	}
	d := p.object(raw)
	typ, kind := d.s("type"), d.s("object")
	switch {
	case d.isArr("choices") || strings.HasPrefix(kind, "chat.completion"):
		p.chatCompletion(d, span)
	case strings.HasPrefix(typ, "response."):
		p.responsesEvent(d, typ, span)
	case kind == "response" || d.isArr("output"):
		incomplete := d.s("status") == "incomplete"
		p.responsesOutput(d.arr("output"), span, incomplete)
		p.endMessage(span, cutReason(incomplete, "status incomplete"))
		u, ok := chatUsage(d.obj("usage"), true)
		p.emitUsage(u, ok, span)
	case d.isArr("input") && typ == "" && kind == "":
		// A Responses request's input: the conversation so far (the
		// results of the last turn's calls, user messages, earlier output).
		p.responsesOutput(d.arr("input"), span, false)
		p.endMessage(span, "")
	case anthropicEvents[typ]:
		p.anthropicEvent(d, typ, span)
	case d.isArr("candidates"):
		p.gemini(d, span)
	case d.has("done") && (d.has("message") || d.has("response")):
		p.ollama(d, span)
	case d.isArr("messages"):
		for _, m := range d.arr("messages") {
			p.conversationMessage(m, span)
		}
	case d.isArr("contents"):
		for _, c := range d.arr("contents") {
			content := p.object(c)
			p.geminiContent(content.arr("parts"), content.s("role"), span)
		}
	case d.isArr("parts"): // a Gemini content on its own
		p.geminiContent(d.arr("parts"), d.s("role"), span)
	case d.has("error") && typ == "" && kind == "":
		// An error in place of a chunk (OpenAI Chat, Ollama, Gemini).
		p.streamError(d, span)
	case d.s("role") != "" || typ == "message":
		if k := jsonscan.Kind(d.get("parts")); k != 0 && k != 'n' {
			p.wrongType("parts", k, '[') // and the message is read as it is
		}
		p.message(d, span)
	default:
		p.Errorf(syntax.CodeMalformed, p.docStart, span, raw, "document does not fit any provider shape (no choices, type, candidates, output, messages, role or done)")
	}
}

func cutReason(cut bool, reason string) string {
	if cut {
		return reason
	}
	return ""
}

// messageArray reads a top-level array: a conversation's messages.
func (p *parser) messageArray(raw []byte, span syntax.Span) {
	jsonscan.Elements(raw, func(m []byte, _ int) bool {
		p.conversationMessage(m, span)
		return true
	})
}

func (p *parser) conversationMessage(raw []byte, span syntax.Span) {
	m := p.probe(raw)
	switch {
	case m.none():
		p.Errorf(syntax.CodeMalformed, p.docStart, span, raw, "conversation message is not an object")
	case m.isArr("parts"): // Gemini content
		p.geminiContent(m.arr("parts"), m.s("role"), span)
	case m.s("role") == "" && m.s("type") == "":
		p.Errorf(syntax.CodeMalformed, p.docStart, span, raw, "conversation message with no role (or type): not read")
	case m.s("role") == "" && m.s("type") != "message":
		p.Errorf(syntax.CodeUnsupported, p.docStart, span, raw, "a conversation item of type %q is not read", m.s("type"))
	default:
		if k := jsonscan.Kind(m.get("parts")); k != 0 && k != 'n' {
			p.wrongType("parts", k, '[') // and the message is read as it is
		}
		p.message(m, span)
	}
}

// message reads one whole message in OpenAI or Anthropic form.
func (p *parser) message(d fields, span syntax.Span) {
	if t := d.s("type"); t != "" && t != "message" {
		// A role beside an item's type (a tool_result, a function_call):
		// no provider's message; its members are not read as either.
		p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a message of type %q is not read", t)
		return
	}
	switch d.s("role") {
	case "tool", "user", "system", "developer":
		p.endTurn(span) // the assistant's calls before it execute first
	}
	switch d.s("role") {
	case "tool": // an OpenAI (or Ollama: tool_name) tool result
		name := d.s("name")
		if name == "" {
			name = d.s("tool_name")
		}
		if name == "" {
			name = p.toolName(d.s("tool_call_id"))
		}
		p.Emit(syntax.Event{Type: syntax.Result, Tool: name, ID: d.s("tool_call_id"), Status: syntax.Success, Value: contentValue(d.get("content")), Span: span})
		return
	case "user", "system", "developer":
		// Only tool results are read from these (Anthropic tool_result
		// blocks): content given as a string holds none.
		if !d.isArr("content") {
			if k := jsonscan.Kind(d.get("content")); k != '"' && k != 'n' && k != 0 {
				p.wrongType("content", k, '"')
			}
			return
		}
		for _, b := range d.arr("content") {
			if blk := p.object(b); blk.s("type") == "tool_result" {
				p.toolResult(blk, span)
			}
		}
		return
	case "assistant", "":
	default:
		// A role no provider gives the model's own output (OpenAI's old
		// "function" results among them): said, not read as the model's.
		p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a message of role %q is not read", d.s("role"))
		return
	}
	// An assistant message.
	p.reasoning(d, span)
	if jsonscan.Kind(d.get("content")) != '[' {
		p.text(syntax.Respond, d.get("content"), span)
	} else {
		raws := d.arr("content")
		cut := anthropicCut(d.s("stop_reason"))
		lastUse := -1 // cut off by max_tokens: the last tool_use is left for endMessage to report
		// Each block's members are read when it is, and given back to the
		// slab after it (nothing keeps them): a message of many blocks
		// holds one block's members at a time, not all of theirs.
		mark := len(p.slab)
		if cut != "" {
			for i, raw := range raws {
				if p.probe(raw).s("type") == "tool_use" {
					lastUse = i
				}
				p.slab = p.slab[:mark]
			}
		}
		for i, raw := range raws {
			p.wholeBlock(p.object(raw), blockKey(i), span, i != lastUse)
			p.EndRun() // each block is a run of its own, as in a stream
			p.slab = p.slab[:mark]
		}
	}
	p.refuse(d.get("refusal"), span)
	if d.s("stop_reason") == "refusal" {
		p.EndRun()
		p.refuse(d.obj("stop_details").get("explanation"), span)
	}
	for i, tc := range d.arr("tool_calls") {
		p.chatToolCall(p.object(tc), i, span)
	}
	p.EndRun()
	p.endMessage(span, anthropicCut(d.s("stop_reason")))
	u, ok := anthropicUsage(d.obj("usage"))
	p.emitUsage(u, ok, span)
}

// reasoning reads a Chat message's or delta's reasoning: reasoning_content
// (DeepSeek, vLLM, Qwen) or reasoning (Groq, OpenRouter, newer vLLM). A
// server that sends both sends the same text twice: reasoning_content is
// read, and reasoning only when reasoning_content is absent, null or "";
// thinking (an Ollama message) when neither is there.
func (p *parser) reasoning(m fields, span syntax.Span) {
	for _, k := range [...]string{"reasoning_content", "reasoning"} {
		// Read: a string other than "" (a string literal longer than its
		// quotes never decodes to nothing), or a value of another type than
		// null, which text reports.
		v := m.get(k)
		if kind := jsonscan.Kind(v); (kind == '"' && len(v) > 2) || (kind != '"' && kind != 'n' && kind != 0) {
			p.text(syntax.Think, v, span)
			return
		}
	}
	p.text(syntax.Think, m.get("thinking"), span) // an Ollama message
}

// contentValue is a result's content: a string stays a string; parts or
// other JSON are kept as they are.
func contentValue(raw []byte) []byte {
	if len(raw) == 0 {
		return []byte("null")
	}
	return jsonscan.Compact(raw)
}

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

// first reports whether a choice (or candidate) is the first one, the only
// one read; the first time another one comes, an error says it is not read.
func (p *parser) first(c fields, what string, span syntax.Span) bool {
	idx, _ := c.num("index")
	if idx != 0 && !p.otherSeen {
		p.otherSeen = true
		p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "%s %d is not read: only the first %s of a response is parsed", what, idx, what)
	}
	return idx == 0
}

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

// CutOff starts the message of the truncated error that says a message was
// cut off while the model wrote text (its token limit, or the end of the
// stream): what a stream encoder ends in the form's truncation, where other
// truncated errors outside a call (an unterminated thought in the text a
// content syntax reads) are no cut of the response.
const CutOff = "the message was cut off"

// IsCut reports whether an error event outside any call cuts the response
// off: the message cut off (CutOff), a block cut off by the end of the
// input (a truncated error with the block's text) or over the limit — not
// an unterminated thought, which the model may stop in.
func IsCut(e syntax.Event) bool {
	switch e.Code {
	case syntax.CodeOverLimit:
		return true
	case syntax.CodeTruncated:
		return strings.HasPrefix(e.Message, CutOff) || e.Raw != "" && e.Message != ProviderError
	}
	return false
}

// ProviderError is the message of the error event for an error a provider
// sent in place of the rest of a stream (its own error is the event's Raw).
const ProviderError = "the provider reported an error in the stream"

// streamError reads an error the provider sent in place of the rest of a
// stream: the calls of the open message were never finished, so none of
// them is a call, and those already complete get no execute.
func (p *parser) streamError(d fields, span syntax.Span) {
	p.abandon("the provider reported an error in the stream before the call was complete", "the stream ended in an error", false)
	raw := d.get("error")
	if raw == nil {
		raw = d.get("message")
	}
	p.Errorf(syntax.CodeTruncated, p.docStart, span, jsonscan.Compact(raw), "%s", ProviderError)
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

// responsesEvent reads one event of an OpenAI Responses stream.
func (p *parser) responsesEvent(d fields, typ string, span syntax.Span) {
	outIdx, hasOut := d.num("output_index")
	itemID := d.s("item_id")
	key := "item:" + itemID
	if itemID == "" && hasOut {
		key = "output:" + strconv.Itoa(outIdx)
	}
	switch typ {
	case "response.output_item.added":
		switch it := d.obj("item"); it.s("type") {
		case "function_call":
			c := p.callFor(respKey(it, outIdx, hasOut), it.s("call_id"), it.s("name"), span)
			p.responsesCallID(c, it)
			if args, ok := it.text("arguments"); ok {
				p.addArgs(c, args, span)
			}
		default:
			p.responsesItemOpen(it, respKey(it, outIdx, hasOut), span)
		}
	case "response.function_call_arguments.delta":
		c := p.respCall(key, outIdx, hasOut)
		if c == nil {
			p.Errorf(syntax.CodeMalformed, p.docStart, span, nil, "arguments delta for %s, which did not start as a function_call", key)
			return
		}
		delta, _ := d.text("delta")
		p.addArgs(c, delta, span)
	case "response.function_call_arguments.done":
		if c := p.respCall(key, outIdx, hasOut); c != nil {
			if args, ok := d.text("arguments"); ok {
				p.setWhole(c, args)
				c.span.End = span.End
			}
		}
	case "response.output_item.done":
		switch it := d.obj("item"); it.s("type") {
		case "function_call":
			c := p.callFor(respKey(it, outIdx, hasOut), it.s("call_id"), it.s("name"), span)
			p.responsesCallID(c, it)
			if args, ok := it.text("arguments"); ok {
				p.setWhole(c, args)
			}
			p.completeCall(c, "")
		case "message": // its text came in deltas
		case "reasoning": // its text came in deltas; its state is at its end
			p.EndRun()
			p.reasoningState(it, span)
		default:
			p.responsesItem(it, respKey(it, outIdx, hasOut), span, true)
		}
		p.EndRun()
	case "response.content_part.done", "response.reasoning_summary_part.done":
		p.EndRun() // each part is a run of its own
	case "response.output_text.delta":
		p.text(syntax.Respond, d.get("delta"), span)
	case "response.refusal.delta":
		p.refuse(d.get("delta"), span)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		p.text(syntax.Think, d.get("delta"), span)
	case "response.completed", "response.incomplete", "response.failed":
		p.EndRun()
		cut := ""
		if typ != "response.completed" {
			cut = strings.TrimPrefix(typ, "response.")
			if reason := d.obj("response").obj("incomplete_details").s("reason"); reason != "" {
				cut += ": " + reason
			}
		}
		p.endMessage(span, cut)
		u, ok := chatUsage(d.obj("response").obj("usage"), true)
		p.emitUsage(u, ok, span)
	}
}

func respKey(it fields, outIdx int, hasOut bool) string {
	if id := it.s("id"); id != "" {
		return "item:" + id
	}
	if hasOut {
		return "output:" + strconv.Itoa(outIdx)
	}
	return "call:" + it.s("call_id")
}

// respCall finds the call an event is about, by item id or output index.
func (p *parser) respCall(key string, outIdx int, hasOut bool) *call {
	if c := p.msg.byKey[key]; c != nil {
		return c
	}
	if hasOut {
		return p.msg.byKey["output:"+strconv.Itoa(outIdx)]
	}
	return nil
}

// responsesOutput reads the output items of a whole Responses response (or
// input items of a Responses conversation). Calls are emitted at their
// place, as in a stream, unless the response is incomplete: then the last
// one is left for endMessage to report as cut off.
func (p *parser) responsesOutput(items [][]byte, span syntax.Span, incomplete bool) {
	for i, raw := range items {
		it := p.object(raw)
		switch it.s("type") {
		case "message":
			if r := it.s("role"); r == "user" || r == "system" || r == "developer" {
				p.endTurn(span) // input of a Responses conversation: no events
				continue
			}
			for _, c := range it.arr("content") {
				p.content(append(append([]byte{'['}, c...), ']'), span)
				p.EndRun() // each content part is a run of its own, as in a stream
			}
		case "reasoning":
			// The summary's parts, or the reasoning text itself (gpt-oss
			// servers, LM Studio: reasoning_text parts in content), each a
			// run of its own, as in a stream; then the item's state.
			for _, key := range [...]string{"summary", "content"} {
				for _, s := range it.arr(key) {
					pt := p.object(s)
					switch typ := pt.s("type"); typ {
					case "summary_text", "reasoning_text", "":
						p.text(syntax.Think, pt.get("text"), span)
					default:
						p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a reasoning part of type %q is not read", typ)
					}
					p.EndRun()
				}
			}
			p.reasoningState(it, span)
		case "function_call":
			c := p.callFor("output:"+strconv.Itoa(i), it.s("call_id"), it.s("name"), span)
			p.responsesCallID(c, it)
			if args, ok := it.text("arguments"); ok {
				p.setWhole(c, args)
			}
			if !incomplete {
				p.completeCall(c, "")
			}
		case "function_call_output":
			p.endTurn(span) // the batch of calls before it executes first
			p.Emit(syntax.Event{Type: syntax.Result, Tool: p.toolName(it.s("call_id")), ID: it.s("call_id"), Status: syntax.Success, Value: contentValue(it.get("output")), Span: span})
		default:
			p.responsesItem(it, "output:"+strconv.Itoa(i), span, !incomplete)
		}
	}
	p.EndRun()
}

// endTurn ends the assistant turn before an item of a Responses
// conversation that is not the assistant's (a function_call_output, a user
// message): its calls execute before their results come.
func (p *parser) endTurn(span syntax.Span) {
	p.EndRun()
	if p.msg.open() > 0 || p.msg.emitted > 0 {
		p.endMessage(span, "")
	}
}

// gemini reads a Gemini response or stream chunk.
func (p *parser) gemini(d fields, span syntax.Span) {
	for _, raw := range d.arr("candidates") {
		cand := p.object(raw)
		if !p.first(cand, "candidate", span) {
			continue
		}
		p.geminiParts(cand.obj("content").arr("parts"), "model", span)
		if finish := cand.s("finishReason"); finish != "" {
			p.EndRun()
			p.endMessage(span, cutReason(finish == "MAX_TOKENS", "finishReason MAX_TOKENS"))
			u, ok := geminiUsage(d.obj("usageMetadata"))
			p.emitUsage(u, ok, span)
		}
	}
}

// geminiContent reads one whole content of a Gemini conversation: a model
// turn is a message of its own.
func (p *parser) geminiContent(parts [][]byte, role string, span syntax.Span) {
	p.geminiParts(parts, role, span)
	if role == "model" {
		p.EndRun()
		p.endMessage(span, "")
	}
}

// geminiResponse reads a functionResponse's response as Gemini documents it
// ("use the output key for the function's output and the error key for
// error details; with neither, the whole response is the output"): a
// response with an "error" member is a failure, its content the error's
// value when that is its only member; one whose only member is "output"
// has that value as content; any other is the content, whole.
func geminiResponse(raw []byte) (syntax.Status, []byte) {
	var keys int
	var output, errValue []byte
	jsonscan.MembersRaw(raw, func(kb, v []byte) bool {
		k := string(kb) // only compared: no allocation
		keys++
		switch {
		case k == "output" && output == nil:
			output = v
		case k == "error" && errValue == nil:
			errValue = v
		}
		return true
	})
	switch {
	case errValue != nil && keys == 1:
		return syntax.Failure, contentValue(errValue)
	case errValue != nil:
		return syntax.Failure, contentValue(raw)
	case output != nil && keys == 1:
		return syntax.Success, contentValue(output)
	}
	return syntax.Success, contentValue(raw)
}

func (p *parser) geminiParts(parts [][]byte, role string, span syntax.Span) {
	for _, raw := range parts {
		pt := p.object(raw)
		var sig []byte // the state Gemini needs back, on the part it came on
		if s := pt.s("thoughtSignature"); s != "" {
			sig = syntax.AppendQuote(nil, s)
		}
		switch {
		case pt.has("functionCall"):
			p.geminiCall(pt.obj("functionCall"), sig, span)
		case pt.has("functionResponse"):
			fr := pt.obj("functionResponse")
			status, value := geminiResponse(fr.get("response"))
			p.EndRun()
			p.Emit(syntax.Event{Type: syntax.Result, Tool: fr.s("name"), ID: fr.s("id"), Status: status, Value: value, Span: span})
		case pt.has("text"):
			if role == "user" {
				continue
			}
			if jsonscan.Kind(pt.get("text")) == 'n' {
				p.wrongType("text", 'n', '"') // a text part with no text
			}
			t := syntax.Respond
			if pt.boolean("thought") {
				t = syntax.Think
			}
			p.text(t, pt.get("text"), span)
			if sig != nil { // the part's, which ends with it
				p.flushRefusal()
				p.RunOpaque(t, opaque("gemini", `{"thoughtSignature":`+string(sig)+`}`), span)
				p.EndRun()
			}
		default:
			for _, m := range pt.m {
				if k := string(m.key); k != "thoughtSignature" && k != "thought" {
					p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a part with %q is not read", k)
					break
				}
			}
		}
	}
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

// opaque is the Event.Opaque of one form's state, given as a JSON object.
func opaque(form, state string) []byte {
	return []byte(`{"` + form + `":` + state + `}`)
}

// reasoningState emits the state of a Responses reasoning item that the
// API takes back — its id, and its encrypted_content when the request
// asked for it — as a thought of no text after the item's text (see
// syntax.Event.Opaque).
func (p *parser) reasoningState(it fields, span syntax.Span) {
	id, enc := it.s("id"), it.s("encrypted_content")
	if id == "" {
		return
	}
	state := append([]byte(`{"id":`), syntax.AppendQuote(nil, id)...)
	if enc != "" {
		state = append(append(state, `,"encrypted_content":`...), syntax.AppendQuote(nil, enc)...)
	}
	p.flushRefusal()
	p.RunOpaque(syntax.Think, opaque(responsesForm, string(state)+"}"), span)
	p.EndRun()
}

// responsesCallID keeps a function_call item's id (fc_…, not its call_id),
// which the API takes back with the item.
func (p *parser) responsesCallID(c *call, it fields) {
	if id := it.s("id"); id != "" {
		c.opaque = opaque(responsesForm, `{"id":`+string(syntax.AppendQuote(nil, id))+`}`)
	}
}

// responsesForm is the name of the Responses form, the key of its state.
const responsesForm = "openai-responses"
