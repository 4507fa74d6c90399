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
	isGemini := field(raw, "parts") != nil
	var system error
	if (role == "system" || role == "developer") && (f == "gemini" || f == "anthropic") {
		// Kept in place, where the conversation had it; the API takes it
		// beside the messages.
		system = wire.CannotCarry(f, "a %s message, which %s takes beside the messages, not among them (written among them)", role, f)
	}
	if f == "openai-responses" && !isGemini && field(raw, "type") == nil && field(raw, "role") != nil {
		// A {"role","content"} message as a Responses input item says it
		// is one (the API takes it either way; the SDKs' item types
		// need the type to tell it apart).
		return withField(raw, "type", []byte(`"message"`)), system
	}
	if isGemini == (f == "gemini") {
		return raw, system
	}
	if t, _ := jsonscan.Unquote(field(raw, "type")); t != "" && field(raw, "role") == nil {
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
	switch list := field(raw, "content"); {
	case isGemini:
		jsonscan.Elements(field(raw, "parts"), func(e []byte, _ int) bool {
			keys, _ := fieldsOf(e)
			textOnly = len(keys) == 1 && keys[0] == "text"
			return textOnly
		})
	case jsonscan.Kind(list) == '[':
		jsonscan.Elements(list, func(e []byte, _ int) bool {
			keys, _ := fieldsOf(e)
			typ, _ := jsonscan.Unquote(field(e, "type"))
			textOnly = len(keys) == 2 && field(e, "text") != nil && (typ == "text" || typ == "input_text" || typ == "output_text")
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
	keys, _ := fieldsOf(raw)
	for _, k := range keys {
		if k != "role" && k != "content" && k != "parts" {
			return true
		}
	}
	return false
}

// unwrap returns the messages of a document a native renderer wrote: the
// content of a Gemini response's candidate, the contents of a Gemini
// request, the items of a Responses output or input, the message of an
// Ollama response; any other document is a message itself.
func unwrap(doc []byte) [][]byte {
	var out [][]byte
	switch {
	case field(doc, "candidates") != nil:
		jsonscan.Elements(field(doc, "candidates"), func(e []byte, _ int) bool {
			out = append(out, field(e, "content"))
			return true
		})
	case field(doc, "contents") != nil:
		jsonscan.Elements(field(doc, "contents"), func(e []byte, _ int) bool {
			out = append(out, e)
			return true
		})
	case field(doc, "output") != nil, field(doc, "input") != nil && field(doc, "role") == nil:
		key := "output"
		if field(doc, "output") == nil {
			key = "input" // a request's input items: the results of a batch
		}
		jsonscan.Elements(field(doc, key), func(e []byte, _ int) bool {
			out = append(out, e)
			return true
		})
	case field(doc, "message") != nil && field(doc, "done") != nil:
		out = append(out, field(doc, "message"))
	default:
		out = append(out, doc)
	}
	return out
}

// asParam returns an Anthropic message as a request takes it: without the
// response's "type" and its stop_reason, but for a refusal's (its
// stop_details hold the refusal's text, which this parser reads).
func asParam(raw []byte) []byte {
	stop, _ := jsonscan.Unquote(field(raw, "stop_reason"))
	keys, vals := fieldsOf(raw)
	b := []byte{'{'}
	for i, k := range keys {
		if k == "type" || (k == "stop_reason" && stop != "refusal") {
			continue
		}
		b = appendMember(b, k, vals[i])
	}
	return append(b, '}')
}

// fieldsOf returns the members of a JSON object, raw, in order.
func fieldsOf(obj []byte) (keys []string, vals [][]byte) {
	jsonscan.MembersRaw(obj, func(k, v []byte) bool {
		keys = append(keys, string(k))
		vals = append(vals, v)
		return true
	})
	return keys, vals
}

// field returns a member of a JSON object, or nil.
func field(obj []byte, key string) []byte {
	var val []byte
	jsonscan.MembersRaw(obj, func(k, v []byte) bool {
		if string(k) == key {
			val = v
			return false
		}
		return true
	})
	return val
}

// withField returns obj with key's value replaced by val (added at the end
// when it has none).
func withField(obj []byte, key string, val []byte) []byte {
	keys, vals := fieldsOf(obj)
	b := []byte{'{'}
	set := false
	for i, k := range keys {
		v := vals[i]
		if k == key {
			v, set = val, true
		}
		b = appendMember(b, k, v)
	}
	if !set {
		b = appendMember(b, key, val)
	}
	return append(b, '}')
}

func appendMember(b []byte, key string, val []byte) []byte {
	if len(b) > 1 {
		b = append(b, ',')
	}
	b = append(syntax.AppendQuote(b, key), ':')
	return append(b, jsonscan.Compact(val)...)
}
