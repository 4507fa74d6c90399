package native

import (
	"errors"
	"fmt"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// The provider message rules a conversation's writer needs: which form a
// syntax value writes, what a renderer's document is as request messages,
// and how a message kept as it is goes into another form's request.

// Form is the native form s writes: the name of the variant that the
// registry's Lookup gave it (Syntax.Variant), or anthropic, the form of
// NewRenderer.
func Form(s syntax.Syntax) string {
	if s.Variant != "" {
		return s.Variant
	}
	return "anthropic"
}

// RequestMessages returns the messages of a document a renderer of form
// wrote as that form's request takes them: the content of a Gemini
// response's candidate and the contents of a Gemini request, the items of
// a Responses output or input, the message of an Ollama response, and an
// Anthropic response's message without what only a response has (its type,
// and a stop_reason other than a refusal's); any other document is a
// message itself.
func RequestMessages(form string, doc []byte) [][]byte {
	msgs := unwrap(doc)
	if form == "anthropic" {
		for i, m := range msgs {
			msgs[i] = asParam(m)
		}
	}
	return msgs
}

// KeepMessage rewrites a chat message kept as it is (raw; its role and its
// text) for a request of form f, when its own form differs: a Gemini
// content ({"role","parts"}) becomes {"role","content"} in the other forms,
// and a {"role","content"} message a Gemini content, with its role and text
// only (anything else it had is reported); a {"role","content"} message is
// a Responses input item of type message. A system or developer message,
// which Anthropic and Gemini take beside the messages, is reported too (it
// is written where the conversation had it).
func KeepMessage(f string, raw []byte, role, text string) ([]byte, error) {
	isGemini := jsonscan.Member(raw, "parts") != nil
	var system error
	if (role == "system" || role == "developer") && (f == "gemini" || f == "anthropic") {
		// Kept in place, where the conversation had it; the API takes it
		// beside the messages.
		system = wire.CannotCarry(f, "a %s message, which %s takes beside the messages, not among them (written among them)", role, f)
	}
	if f == "openai-responses" && !isGemini && jsonscan.Member(raw, "type") == nil && jsonscan.Member(raw, "role") != nil {
		// A {"role","content"} message as a Responses input item says it
		// is one (the API takes it either way; the SDKs' item types
		// need the type to tell it apart).
		return jsonscan.WithMember(raw, "type", []byte(`"message"`)), system
	}
	if isGemini == (f == "gemini") {
		return raw, system
	}
	if t, _ := jsonscan.Unquote(jsonscan.Member(raw, "type")); t != "" && jsonscan.Member(raw, "role") == nil {
		return raw, wire.CannotCarry(f, "a %s item kept as it is: %s has no form for it", "Responses", f)
	}
	var out []byte
	if f == "gemini" {
		if role == "assistant" {
			role = "model"
		}
		out = fmt.Appendf(nil, `{"role":%s,"parts":[{"text":%s}]}`, syntax.AppendQuote(nil, role), syntax.AppendQuote(nil, text))
	} else {
		if role == "model" {
			role = "assistant"
		}
		out = fmt.Appendf(nil, `{"role":%s,"content":%s}`, syntax.AppendQuote(nil, role), syntax.AppendQuote(nil, text))
	}
	textOnly := true
	switch list := jsonscan.Member(raw, "content"); {
	case isGemini:
		jsonscan.Elements(jsonscan.Member(raw, "parts"), func(e []byte, _ int) bool {
			textOnly = onlyMember(e, "text")
			return textOnly
		})
	case jsonscan.Kind(list) == '[':
		jsonscan.Elements(list, func(e []byte, _ int) bool {
			typ, _ := jsonscan.Unquote(jsonscan.Member(e, "type"))
			textOnly = memberCount(e) == 2 && jsonscan.Member(e, "text") != nil && (typ == "text" || typ == "input_text" || typ == "output_text")
			return textOnly
		})
	default:
		textOnly = jsonscan.Kind(list) == '"'
	}
	if !textOnly || hasOtherFields(raw) {
		return out, errors.Join(system, wire.CannotCarry(f, "a %s message rewritten with its role and text only (the rest of %s is not written)", role, raw))
	}
	return out, system
}

// hasOtherFields reports whether a message has fields beside role,
// content and parts.
func hasOtherFields(raw []byte) bool {
	other := false
	jsonscan.MembersRaw(raw, func(k, _ []byte) bool {
		other = string(k) != "role" && string(k) != "content" && string(k) != "parts"
		return !other
	})
	return other
}

// unwrap returns the messages of a document a native renderer wrote: the
// content of a Gemini response's candidate, the contents of a Gemini
// request, the items of a Responses output or input, the message of an
// Ollama response; any other document is a message itself.
func unwrap(doc []byte) [][]byte {
	var out [][]byte
	switch {
	case jsonscan.Member(doc, "candidates") != nil:
		jsonscan.Elements(jsonscan.Member(doc, "candidates"), func(e []byte, _ int) bool {
			out = append(out, jsonscan.Member(e, "content"))
			return true
		})
	case jsonscan.Member(doc, "contents") != nil:
		jsonscan.Elements(jsonscan.Member(doc, "contents"), func(e []byte, _ int) bool {
			out = append(out, e)
			return true
		})
	case jsonscan.Member(doc, "output") != nil, jsonscan.Member(doc, "input") != nil && jsonscan.Member(doc, "role") == nil:
		key := "output"
		if jsonscan.Member(doc, "output") == nil {
			key = "input" // a request's input items: the results of a batch
		}
		jsonscan.Elements(jsonscan.Member(doc, key), func(e []byte, _ int) bool {
			out = append(out, e)
			return true
		})
	case jsonscan.Member(doc, "message") != nil && jsonscan.Member(doc, "done") != nil:
		out = append(out, jsonscan.Member(doc, "message"))
	default:
		out = append(out, doc)
	}
	return out
}

// asParam returns an Anthropic message as a request takes it: without the
// response's "type" and its stop_reason, but for a refusal's (its
// stop_details hold the refusal's text, which this parser reads).
func asParam(raw []byte) []byte {
	stop, _ := jsonscan.Unquote(jsonscan.Member(raw, "stop_reason"))
	b := []byte{'{'}
	jsonscan.MembersRaw(raw, func(k, v []byte) bool {
		if string(k) == "type" || (string(k) == "stop_reason" && stop != "refusal") {
			return true
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(syntax.AppendQuote(b, string(k)), ':')
		b = append(b, jsonscan.Compact(v)...)
		return true
	})
	return append(b, '}')
}
