package native

import (
	"slices"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// The fast path. Most documents of a stream are deltas of a few shapes: a
// Chat chunk with delta.content, reasoning or tool_calls[].function
// arguments; an Anthropic content_block_delta (text_delta, thinking_delta,
// input_json_delta) or content_block_stop; a Responses
// function_call_arguments, output_text or reasoning text delta; an Ollama
// chunk of message content or thinking. Such a document is read here in one
// walk over its bytes, member by member, into a fixed record (no map, no
// slice of members, no string per value): the values read are decoded into
// buffers the parser reuses, text into the run, argument fragments into
// their call.
//
// The walk changes nothing. Only when the document turns out to be one of
// these shapes with every member read of the type the general reader
// (document) expects is it acted on, with the same calls in the same order
// as the general reader makes; anything else — another shape, a member of
// the wrong type, a key with an escape, a second choice, a call not found,
// the end of a message — is left to the general reader, which reads the
// document afresh. So the fast path only ever does what the general reader
// would do, and TestFastPathAgrees holds it to that.

// maxFastCalls is how many tool calls one Chat delta may carry for the fast
// path to read it.
const maxFastCalls = 4

// fastDoc is what the walk found in a document: each value raw (first
// occurrence, as fields.get gives; nil when absent), and the members of the
// one object that holds the delta's text and calls.
type fastDoc struct {
	// Top-level members: those the general reader dispatches on, and those
	// the delta shapes read.
	typ, object, choices                                                 []byte
	index, outputIndex, itemID, delta, done, message, response, thinking []byte

	nChoices         int    // the elements of choices, when it is an array
	chIndex, chDelta []byte // choices[0]'s index and delta
	finish           []byte // choices[0].finish_reason
	owner            byte   // whose members m holds: 'c' choices[0].delta, 'd' delta, 'm' message; 0 none
	m                fastMsg
	nCalls           int // the elements of m's tool_calls, in p.fcalls
}

// fastMsg is the members of a Chat delta, an Anthropic delta or an Ollama
// message.
type fastMsg struct {
	typ, content, reasoningContent, reasoning, thinking, refusal, text, partialJSON, toolCalls []byte
}

// fastCall is one element of a Chat delta's tool_calls.
type fastCall struct{ index, id, fn, name, args []byte }

// rd walks a document the stream's scanner has validated.
type rd struct {
	b    []byte
	i    int
	skip *jsonscan.Skipper
}

func (r *rd) at(c byte) bool { return r.i < len(r.b) && r.b[r.i] == c }

// value passes over the value at the cursor and returns it.
func (r *rd) value() []byte {
	s := r.i
	r.i = r.skip.SkipValue(r.b, r.i)
	return r.b[s:r.i]
}

// key moves to the next member of the object the cursor is in and past its
// colon, and returns its key. more is false at the object's end, which it
// passes; esc is set for a key that holds an escape (never read here: it may
// stand for a key the general reader reads).
func (r *rd) key() (k []byte, more, esc bool) {
	r.i = jsonscan.SkipSpace(r.b, r.i)
	if r.at(',') {
		r.i = jsonscan.SkipSpace(r.b, r.i+1)
	}
	if !r.at('"') {
		r.i++ // '}'
		return nil, false, false
	}
	// Keys are short: a loop beats a search for the closing quote.
	j := r.i + 1
	for j < len(r.b) && r.b[j] != '"' {
		if r.b[j] == '\\' {
			esc = true
			j++
		}
		j++
	}
	k = r.b[r.i+1 : min(j, len(r.b))]
	r.i = jsonscan.SkipSpace(r.b, j+1)
	if r.at(':') {
		r.i = jsonscan.SkipSpace(r.b, r.i+1)
	}
	return k, true, esc
}

// elem moves to the next element of the array the cursor is in. It reports
// false at the array's end, which it passes.
func (r *rd) elem() bool {
	r.i = jsonscan.SkipSpace(r.b, r.i)
	if r.at(',') {
		r.i = jsonscan.SkipSpace(r.b, r.i+1)
	}
	if r.i >= len(r.b) || r.b[r.i] == ']' {
		r.i++
		return false
	}
	return true
}

// first keeps v in *dst unless a value came first.
func first(dst *[]byte, v []byte) {
	if *dst == nil {
		*dst = v
	}
}

// walk reads the document b into p.fd. It reports false when the document
// is not for the fast path (nothing was changed).
func (p *parser) walk(b []byte) bool {
	f := &p.fd
	*f = fastDoc{}
	r := rd{b: b, i: jsonscan.SkipSpace(b, 0), skip: &p.skip}
	if !r.at('{') {
		return false
	}
	r.i++
	for {
		k, more, esc := r.key()
		if esc {
			return false
		}
		if !more {
			return true
		}
		start := r.i
		switch string(k) {
		case "choices":
			if f.choices == nil && r.at('[') {
				if !p.walkChoices(&r) {
					return false
				}
			} else {
				r.value()
			}
			first(&f.choices, b[start:r.i])
		case "delta", "message":
			dst, owner := &f.delta, byte('d')
			if k[0] == 'm' {
				dst, owner = &f.message, 'm'
			}
			if *dst == nil && r.at('{') {
				if !p.walkMsg(&r, owner) {
					return false
				}
			} else {
				r.value()
			}
			first(dst, b[start:r.i])
		case "type":
			first(&f.typ, r.value())
		case "object":
			first(&f.object, r.value())
		case "usage":
			if nul(r.value()) != nil {
				return false // counts: the general reader gives them
			}
		case "output", "input", "candidates", "messages", "contents":
			// A whole response or a conversation: left to the general
			// reader at once, not walked twice.
			return false
		case "index":
			first(&f.index, r.value())
		case "output_index":
			first(&f.outputIndex, r.value())
		case "item_id":
			first(&f.itemID, r.value())
		case "done":
			first(&f.done, r.value())
		case "response":
			first(&f.response, r.value())
		case "thinking":
			first(&f.thinking, r.value())
		default:
			r.value()
		}
	}
}

// walkChoices reads a choices array of at most one element, an object.
func (p *parser) walkChoices(r *rd) bool {
	f := &p.fd
	r.i++
	for r.elem() {
		if f.nChoices++; f.nChoices > 1 || !r.at('{') {
			return false
		}
		r.i++
		for {
			k, more, esc := r.key()
			if esc {
				return false
			}
			if !more {
				break
			}
			start := r.i
			switch string(k) {
			case "delta":
				if f.chDelta == nil && r.at('{') {
					if !p.walkMsg(r, 'c') {
						return false
					}
				} else {
					r.value()
				}
				first(&f.chDelta, r.b[start:r.i])
			case "index":
				first(&f.chIndex, r.value())
			case "message":
				if !r.at('n') {
					return false // a whole message: left to the general reader at once
				}
				r.value()
			case "finish_reason":
				first(&f.finish, r.value())
			default:
				r.value()
			}
		}
	}
	return true
}

// walkMsg reads the object at the cursor into f.m, for owner.
func (p *parser) walkMsg(r *rd, owner byte) bool {
	f := &p.fd
	if f.owner != 0 {
		return false // two such objects: left to the general reader
	}
	f.owner = owner
	m := &f.m
	r.i++
	for {
		k, more, esc := r.key()
		if esc {
			return false
		}
		if !more {
			return true
		}
		start := r.i
		switch string(k) {
		case "tool_calls":
			if m.toolCalls == nil && r.at('[') {
				if !p.walkCalls(r) {
					return false
				}
			} else {
				r.value()
			}
			first(&m.toolCalls, r.b[start:r.i])
		case "type":
			first(&m.typ, r.value())
		case "content":
			first(&m.content, r.value())
		case "reasoning_content":
			first(&m.reasoningContent, r.value())
		case "reasoning":
			first(&m.reasoning, r.value())
		case "thinking":
			first(&m.thinking, r.value())
		case "refusal":
			first(&m.refusal, r.value())
		case "text":
			first(&m.text, r.value())
		case "partial_json":
			first(&m.partialJSON, r.value())
		default:
			r.value()
		}
	}
}

// walkCalls reads a tool_calls array of at most maxFastCalls objects.
func (p *parser) walkCalls(r *rd) bool {
	f := &p.fd
	r.i++
	for r.elem() {
		if f.nCalls == maxFastCalls || !r.at('{') {
			return false
		}
		c := &p.fcalls[f.nCalls]
		*c = fastCall{}
		f.nCalls++
		r.i++
		for {
			k, more, esc := r.key()
			if esc {
				return false
			}
			if !more {
				break
			}
			start := r.i
			switch string(k) {
			case "function":
				if c.fn == nil && r.at('{') {
					r.i++
					for {
						k, more, esc := r.key()
						if esc {
							return false
						}
						if !more {
							break
						}
						switch string(k) {
						case "name":
							first(&c.name, r.value())
						case "arguments":
							first(&c.args, r.value())
						default:
							r.value()
						}
					}
				} else {
					r.value()
				}
				first(&c.fn, r.b[start:r.i])
			case "index":
				first(&c.index, r.value())
			case "id":
				first(&c.id, r.value())
			case "custom":
				return false // a custom tool's call: the general reader's
			default:
				r.value()
			}
		}
	}
	return true
}

// nul reads a null value as absent.
func nul(v []byte) []byte {
	if len(v) > 0 && v[0] == 'n' {
		return nil
	}
	return v
}

// isStr reports whether v is a string, absent or null: what the general
// reader reads as a string without noting a wrong type.
func isStr(v []byte) bool { return len(v) == 0 || v[0] == '"' || v[0] == 'n' }

// nonEmpty reports whether v is a string with text in it.
func nonEmpty(v []byte) bool { return len(v) > 2 && v[0] == '"' }

// fastInt reads v as fields.num does: has is false when v is absent or
// null; ok is false when the general reader would note v (not an integer)
// or when it is too long to be read here.
func fastInt(v []byte) (n int, has, ok bool) {
	v = nul(v)
	if len(v) == 0 {
		return 0, false, true
	}
	neg := v[0] == '-'
	d := v
	if neg {
		d = v[1:]
	}
	if len(d) == 0 || len(d) > 18 {
		return 0, false, false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true, true
}

// fast reads a document of one of the delta shapes, and reports whether it
// did; when it did not, nothing was changed.
func (p *parser) fast(raw []byte, span syntax.Span) bool {
	if !p.walk(raw) {
		return false
	}
	f := &p.fd
	if !isStr(f.typ) || !isStr(f.object) {
		return false // noted by the general reader
	}
	if f.choices != nil {
		return f.choices[0] == '[' && p.fastChat(span)
	}
	if nul(f.object) != nil {
		return false
	}
	switch string(f.typ) {
	case `"content_block_delta"`, `"content_block_stop"`:
		return p.fastAnthropic(span)
	case `"response.function_call_arguments.delta"`, `"response.output_text.delta"`,
		`"response.reasoning_summary_text.delta"`, `"response.reasoning_text.delta"`:
		return p.fastResponses(span)
	}
	if nul(f.typ) == nil && f.done != nil {
		return p.fastOllama(span)
	}
	return false
}

// decode decodes v, a string (or absent or null), into buf, reused.
func decode(buf *[]byte, v []byte) []byte {
	*buf, _ = jsonscan.AppendUnquote(slices.Grow((*buf)[:0], len(v)), nul(v)) // grown once: a whole call's arguments may be long
	return *buf
}

// fastText is text for a value that is a string, absent or null.
func (p *parser) fastText(t syntax.Type, v []byte, span syntax.Span) {
	if !nonEmpty(v) {
		return
	}
	p.flushRefusal()
	p.TextDecoded(t, decode(&p.sText, v), span)
}
