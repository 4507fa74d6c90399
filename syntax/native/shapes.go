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

// endTurn ends the assistant turn before an item of a Responses
// conversation that is not the assistant's (a function_call_output, a user
// message): its calls execute before their results come.
func (p *parser) endTurn(span syntax.Span) {
	p.EndRun()
	if p.msg.open() > 0 || p.msg.emitted > 0 {
		p.endMessage(span, "")
	}
}

// opaque is the Event.Opaque of one form's state, given as a JSON object.
func opaque(form, state string) []byte {
	return []byte(`{"` + form + `":` + state + `}`)
}
