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

// anthropicUsage reads an Anthropic usage object.
func anthropicUsage(u fields) (tokens, bool) {
	if u.none() {
		return tokens{}, false
	}
	cached := count(u, "cache_read_input_tokens")
	return tokens{Input: count(u, "input_tokens") + cached + count(u, "cache_creation_input_tokens"), Output: count(u, "output_tokens"), Cached: cached,
		Reasoning: count(u.obj("output_tokens_details"), "thinking_tokens")}, true
}

// geminiUsage reads a Gemini usageMetadata object.
func geminiUsage(u fields) (tokens, bool) {
	if u.none() {
		return tokens{}, false
	}
	thoughts := count(u, "thoughtsTokenCount")
	return tokens{Input: count(u, "promptTokenCount"), Output: count(u, "candidatesTokenCount") + thoughts, Cached: count(u, "cachedContentTokenCount"), Reasoning: thoughts}, true
}

// ollamaUsage reads the counts of Ollama's last chunk.
func ollamaUsage(d fields) (tokens, bool) {
	if !d.has("prompt_eval_count") && !d.has("eval_count") {
		return tokens{}, false
	}
	return tokens{Input: count(d, "prompt_eval_count"), Output: count(d, "eval_count")}, true
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

// appendGemini appends u as Gemini's usageMetadata object.
func (u tokens) appendGemini(b []byte) []byte {
	b = appendCount(append(b, '{'), "promptTokenCount", u.Input)
	b = appendCount(append(b, ','), "candidatesTokenCount", u.Output-u.Reasoning)
	b = appendCount(append(b, ','), "totalTokenCount", u.Input+u.Output)
	if u.Cached > 0 {
		b = appendCount(append(b, ','), "cachedContentTokenCount", u.Cached)
	}
	if u.Reasoning > 0 {
		b = appendCount(append(b, ','), "thoughtsTokenCount", u.Reasoning)
	}
	return append(b, '}')
}

// appendOllama appends u as the members of Ollama's last chunk.
func (u tokens) appendOllama(b []byte) []byte {
	b = appendCount(append(b, ','), "prompt_eval_count", u.Input)
	return appendCount(append(b, ','), "eval_count", u.Output)
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
