package native

import (
	"bytes"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
)

// quiet reports whether a stretch of input that gives no event may be
// silent (syntax.Syntax.Quiet, for the conformance kit): blank lines, SSE
// comments and fields other than data, "data: [DONE]", and documents that
// hold nothing the model wrote — a keep-alive, a stream's bookkeeping
// (message_start, content_block_stop, response.created, a chunk with only a
// role, a finish reason or usage), or a closing document that repeats what
// the stream's deltas gave (a Responses *.done or response.completed, an
// Anthropic message_delta); a log's user and system messages, which the
// model did not write. A document that holds text, a call or a result
// the parser gave no event for is not quiet: that is a silent drop.
func quiet(gap []byte) bool {
	for len(gap) > 0 {
		gap = jsonscan.TrimSpace(gap)
		gap = bytes.TrimPrefix(gap, []byte(bom))
		if len(gap) == 0 {
			return true
		}
		switch gap[0] {
		case '{', '[':
			end := jsonscan.SkipValue(gap, 0)
			if end <= 0 || !quietDoc(gap[:end]) {
				return false
			}
			gap = gap[end:]
			continue
		case ':': // an SSE comment
		default:
			line := gap
			if i := bytes.IndexAny(gap, "\r\n"); i >= 0 {
				line = gap[:i]
			}
			name, rest, _ := strings.Cut(string(line), ":")
			switch name {
			case "event", "id", "retry":
			case "data":
				rest = strings.TrimSpace(rest)
				if rest == "[DONE]" || rest == "" {
					break
				}
				gap = jsonscan.TrimSpace(gap[len("data:"):])
				continue // the document after data:
			default:
				return false
			}
		}
		if i := bytes.IndexAny(gap, "\r\n"); i >= 0 {
			gap = gap[i:]
		} else {
			return true
		}
	}
	return true
}

// contentKeys are the members that hold what the model wrote.
var contentKeys = map[string]bool{
	"content": true, "text": true, "thinking": true, "reasoning_content": true, "reasoning": true, "refusal": true,
	"delta": true, "arguments": true, "partial_json": true, "input": true, "parts": true,
	"output": true, "summary": true, "response": true, "message": true, "choices": true, "candidates": true, "item": true,
	"content_block": true, "data": true, "signature": true, "thoughtSignature": true, "encrypted_content": true,
}

// callKeys are the members that hold a call or a result: anything in them
// is what the model (or a tool) wrote; they are read before contentKeys.
var callKeys = map[string]bool{"functionCall": true, "functionResponse": true, "tool_calls": true, "function_call": true, "args": true, "partialArgs": true}

// quietDoc reports whether a document holds nothing the model wrote: every
// content member is empty (or the document closes what deltas gave).
func quietDoc(doc []byte) bool {
	var f struct{ typ, role string }
	jsonscan.MembersRaw(doc, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			f.typ, _ = jsonscan.Unquote(v)
		case "role":
			f.role, _ = jsonscan.Unquote(v)
		}
		return true
	})
	switch {
	case f.role == "user" || f.role == "system" || f.role == "developer":
		return !holdsCall(doc, 0) // a message of a log that the model did not write; its results are events
	case strings.HasSuffix(f.typ, ".done"):
		return !holdsCall(doc, 0) // it repeats what deltas gave; a call in it is the parser's to read
	case f.typ == "response.completed", f.typ == "response.incomplete", f.typ == "message_delta", f.typ == "ping":
		return true // the response's end, which repeats every item the stream gave
	}
	return emptyContent(doc, 0)
}

// emptyContent reports whether the content members of v, at any depth,
// hold no text, call or value.
func emptyContent(v []byte, depth int) bool {
	if depth > 64 {
		return false
	}
	switch jsonscan.Kind(v) {
	case '{':
		ok := true
		jsonscan.MembersRaw(v, func(k, val []byte) bool {
			if string(k) == "type" {
				t, _ := jsonscan.Unquote(val)
				ok = !callType(t)
				return ok
			}
			switch {
			case callKeys[string(k)]:
				ok = noValue(val)
			case contentKeys[string(k)]:
				ok = emptyValue(val, depth+1)
			}
			return ok
		})
		return ok
	case '[':
		ok := true
		jsonscan.Elements(v, func(e []byte, _ int) bool {
			ok = emptyContent(e, depth+1)
			return ok
		})
		return ok
	}
	return true
}

// emptyValue reports whether a content member's value holds nothing: null,
// "", {} or [], or an object or array whose own content members are empty
// and that holds no other string.
func emptyValue(v []byte, depth int) bool {
	switch jsonscan.Kind(v) {
	case 'n', 't', 'f', 0:
		return true
	case '"':
		return len(jsonscan.TrimSpace(v)) <= 2
	case '{', '[':
		return emptyContent(v, depth)
	}
	return false // a number the model wrote
}

// noValue reports whether v is empty: null, "", {} or [] (with white
// space).
func noValue(v []byte) bool {
	switch string(jsonscan.Compact(v)) {
	case "", "null", `""`, "{}", "[]":
		return true
	}
	return false
}

// callType reports whether an object of type t is a call or a result (a
// tool_use block, a function_call item, their results).
func callType(t string) bool {
	return t == "tool_use" || t == "tool_result" || strings.HasSuffix(t, "_tool_use") || strings.HasSuffix(t, "_tool_result") ||
		strings.HasSuffix(t, "_call") || strings.HasSuffix(t, "_call_output")
}

// holdsCall reports whether v holds, at any depth, a call or a result: an
// object of a call's or result's type, or a Gemini functionCall or
// functionResponse.
func holdsCall(v []byte, depth int) bool {
	if depth > 64 {
		return true
	}
	found := false
	switch jsonscan.Kind(v) {
	case '{':
		jsonscan.MembersRaw(v, func(k, val []byte) bool {
			switch string(k) {
			case "type":
				t, _ := jsonscan.Unquote(val)
				found = callType(t)
			case "functionCall", "functionResponse", "tool_calls", "function_call":
				found = !noValue(val)
			default:
				found = holdsCall(val, depth+1)
			}
			return !found
		})
	case '[':
		jsonscan.Elements(v, func(e []byte, _ int) bool {
			found = holdsCall(e, depth+1)
			return !found
		})
	}
	return found
}
