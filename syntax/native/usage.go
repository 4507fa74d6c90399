package native

import (
	"encoding/json"
	"strconv"

	"github.com/toolparse/toolparse/syntax"
)

// Usage. Each provider reports the tokens a response took in its own
// fields; the parser gives them as one usage event after the message they
// count (syntax.Usage), in one shape, and each stream form writes them back
// in its own:
//
//	                input               output              cached input                 reasoning
//	Chat            prompt_tokens       completion_tokens   prompt_tokens_details.       completion_tokens_details.
//	                                                        cached_tokens                reasoning_tokens
//	Responses       input_tokens        output_tokens       input_tokens_details.        output_tokens_details.
//	                                                        cached_tokens                reasoning_tokens
//	Anthropic       input_tokens +      output_tokens       cache_read_input_tokens      output_tokens_details.
//	                cache_read_ +                                                        thinking_tokens
//	                cache_creation_
//	Gemini          promptTokenCount    candidatesTokenCount cachedContentTokenCount     thoughtsTokenCount
//	                                    + thoughtsTokenCount
//	Ollama          prompt_eval_count   eval_count
//
// Input counts every token of the prompt, cached ones included (Anthropic
// counts cache reads and writes apart: they are added); output counts
// every token generated, reasoning included (Gemini counts thoughts apart:
// they are added). Anthropic's input comes in message_start and its output
// in message_delta: the event comes at message_delta.

// tokens is a response's usage.
type tokens struct {
	Input     int64 `json:"input_tokens"`
	Output    int64 `json:"output_tokens"`
	Cached    int64 `json:"cached_input_tokens,omitempty"`
	Reasoning int64 `json:"reasoning_tokens,omitempty"`
}

// emitUsage gives u as a usage event, when the document reported it (ok).
func (p *parser) emitUsage(u tokens, ok bool, span syntax.Span) {
	if !ok {
		return
	}
	p.EndRun()
	v, _ := json.Marshal(u)
	p.Emit(syntax.Event{Type: syntax.Usage, Value: v, Span: span})
}

// count reads key as a token count; absent, it is 0.
func count(f fields, key string) int64 {
	n, _ := f.num(key)
	return int64(n)
}

// usageOf reads a usage event's value.
func usageOf(v json.RawMessage) (tokens, bool) {
	var u tokens
	return u, json.Unmarshal(v, &u) == nil
}

func appendCount(b []byte, key string, n int64) []byte {
	b = append(b, `"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, n, 10)
}

// UsageJSON is the value of a usage event (syntax.Usage) as the usage
// object of the form's responses: Chat Completions' usage ("openai"),
// Responses' ("openai-responses"), Anthropic's, Gemini's usageMetadata. ok
// is false for a value that is not token counts, and for a form whose
// counts are no object of their own (Ollama's).
func UsageJSON(form string, value json.RawMessage) (usage json.RawMessage, ok bool) {
	u, ok := usageOf(value)
	if !ok {
		return nil, false
	}
	switch form {
	case "openai":
		return u.appendChat(nil, false), true
	case responsesForm:
		return u.appendChat(nil, true), true
	case "anthropic":
		return u.appendAnthropic(nil), true
	case "gemini":
		return u.appendGemini(nil), true
	}
	return nil, false
}
