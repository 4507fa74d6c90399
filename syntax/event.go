package syntax

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Type names the kind of an [Event]. Its string form is the "type" field of
// the event's JSON.
type Type string

// The event types parsers produce.
const (
	Think        Type = "think"         // reasoning text
	Respond      Type = "respond"       // text for the user
	Call         Type = "call"          // one complete tool call, for the agent to run
	Execute      Type = "execute"       // the end of a batch of calls
	Result       Type = "result"        // the outcome of one call
	HostedCall   Type = "hosted_call"   // a tool the provider runs itself: never for the agent to run
	HostedResult Type = "hosted_result" // the outcome of a hosted call, as the provider reports it
	Usage        Type = "usage"         // the tokens a response took, as its provider counted them
	End          Type = "end"           // the end of the stream; exactly one closes every stream
	Error        Type = "error"         // input that could not be used, with its code and position
)

// Status is the outcome of a [Result] or [HostedResult] event.
type Status string

// The statuses of a result.
const (
	Success Status = "success"
	Failure Status = "failure"
)

// Code classifies an [Error] event, so that programs can act on it without
// reading its message (which is written for people). Its string form is the
// "code" field of the event's JSON.
type Code string

// The error codes.
const (
	// CodeTruncated: the input ended inside a block (an unterminated
	// thought, a call cut off). A truncated call is never a call.
	CodeTruncated Code = "truncated"
	// CodeInvalidJSON: a block that must hold JSON does not.
	CodeInvalidJSON Code = "invalid_json"
	// CodeMalformed: the block parses but has the wrong shape (not an
	// array, no name, arguments that are not an object, a bad sequence of
	// markers).
	CodeMalformed Code = "malformed"
	// CodeOverLimit: a block longer than Options.MaxBlock, or nesting
	// deeper than Options.MaxDepth.
	CodeOverLimit Code = "over_limit"
	// CodeNotAllowed: something the syntax forbids where it stands (a
	// second caret block in a message, text after an end marker, calls
	// left without their execute).
	CodeNotAllowed Code = "not_allowed"
	// CodeSchema: a call that fails its tool's schema, or names no known
	// tool. The call itself is still reported, with Invalid set.
	CodeSchema Code = "schema"
	// CodeUnsupported: a document or part the parser recognises but cannot
	// read. It is reported, never silently dropped.
	CodeUnsupported Code = "unsupported"
)

// Pos is a position in the input: a 0-based byte offset and a 1-based line and
// column, the column counted in bytes.
type Pos struct {
	Offset int64
	Line   int
	Column int
}

// String formats p as "line:column".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column) }

// Span is the half-open byte range [Start, End) of the input an event came from.
type Span struct {
	Start, End int64
}

// Len is the number of bytes in the span.
func (s Span) Len() int64 { return s.End - s.Start }

// Event is one item of the event stream every syntax produces. Which fields
// are meaningful depends on Type:
//
//   - Think, Respond: Content (in token mode, Partial marks a fragment).
//   - Call: Name, Args (a JSON object, keys in source order), ID when the source
//     has one, and Invalid when a tool schema rejected it (the call is still reported).
//     In token mode a call also streams as Partial events before it: first
//     one with the name (and ID), then pieces of its arguments in Delta, all
//     with the Index that tells calls streaming at once apart —
//     the arguments' compact JSON text, or for syntaxes whose values are
//     strings (caret, xmltag) a parameter's value, named by Param.
//     Custom marks a call whose input is free text (args {"input": text}).
//   - Respond: Refusal marks text in which the model declines to answer.
//   - Execute, End: nothing more.
//   - Usage: Value, the tokens a provider counted for the response before
//     it, {"input_tokens", "output_tokens"} with "cached_input_tokens" and
//     "reasoning_tokens" when it counts them (input counts the cached
//     tokens, output the reasoning ones); in JSON, "content". Only a
//     provider's stream or response has it (package native reads each
//     one's fields); it is no part of a conversation.
//   - Result: Tool, Status, Value (any JSON value), and ID, the id of the
//     call it answers, when the source gives one.
//   - HostedCall, HostedResult: as Call and Result, for a tool the provider
//     ran itself (a web search, code execution). An agent does not run them.
//   - Error: Code, Message, Pos, and Raw when source text was not used by any other event.
//   - Think, Respond, Call: Opaque, state a provider gave for the
//     client to send back with the conversation (see [Event.Opaque]). A think
//     or respond event that holds only such state (Anthropic's redacted
//     thinking, an encrypted reasoning item) has no Content.
//   - Events a framework adds (user, metric, interrupt, cancelled; parsers
//     never produce them): Content when it is a string, Value otherwise.
//
// Span is set by parsers on every event; it is written to JSON only when the
// encoder is asked for spans (see [AppendJSON]).
type Event struct {
	Type Type

	Content string // think, respond
	Partial bool   // token mode: a fragment of a text run, not the whole run
	Refusal bool   // respond: the model declined (a provider's refusal field)

	Name    string          // call
	Args    json.RawMessage // call: compact JSON object
	ID      string          // call, result: the call's id, when the source gives one
	Invalid string          // call: why it failed validation against its tool's schema, if it did
	Custom  bool            // call: a free-text tool input, given as args {"input": text}
	Strings bool            // call: its values are the strings the model wrote (caret, xmltag); a tool schema converts them. Not written to JSON.
	Index   int             // partial call (token mode): which of the calls streaming at once (0, 1, …)
	Param   string          // partial call (token mode): the parameter Delta belongs to (caret, xmltag)
	Delta   string          // partial call (token mode): the next piece of the arguments

	Tool   string          // result
	Status Status          // result: Success or Failure
	Value  json.RawMessage // result content: any JSON value

	// Opaque is state a provider returned for the client to send back in
	// the next request, which the model's next turn needs: a JSON object
	// with one member per provider form that gave it, holding that form's
	// fields as it wrote them — {"anthropic":{"signature":"…"}} on a
	// thought, {"gemini":{"thoughtSignature":"…"}} on a call or a text,
	// {"openai-responses":{"id":"rs_…","encrypted_content":"…"}} on a
	// reasoning item's thought, {"openai-responses":{"id":"fc_…"}} on a
	// call. The renderer of the same form writes it back; every other
	// renderer reports it as not carried.
	Opaque json.RawMessage

	Code    Code   // error: what kind of problem
	Message string // error: the problem, in words for people
	Pos     Pos    // error: where the problem is; call: where it starts (not written to JSON)
	Raw     string // error: source text no other event used

	Span Span
}

// ArgsJSON is a call's arguments, {} when it has none.
func (e Event) ArgsJSON() json.RawMessage {
	if len(e.Args) == 0 {
		return json.RawMessage("{}")
	}
	return e.Args
}

// ValueJSON is a result's content, null when it has none.
func (e Event) ValueJSON() json.RawMessage {
	if len(e.Value) == 0 {
		return json.RawMessage("null")
	}
	return e.Value
}

// AppendCallObject appends a call as the JSON object {"name", "args", "id"}
// that the JSON syntaxes (xmljson, delimiter) write calls as; the id only
// when there is one.
func AppendCallObject(dst []byte, e Event) []byte {
	dst = append(dst, `{"name":`...)
	dst = AppendQuote(dst, e.Name)
	dst = append(dst, `,"args":`...)
	dst = append(dst, e.ArgsJSON()...)
	if e.ID != "" {
		dst = append(dst, `,"id":`...)
		dst = AppendQuote(dst, e.ID)
	}
	return append(dst, '}')
}

// String renders e as its JSON line, without span.
func (e Event) String() string { return string(AppendJSON(nil, e, false)) }

// MarshalJSON writes the event in its JSON form, fields in the
// documented order, without HTML escaping, span included.
func (e Event) MarshalJSON() ([]byte, error) { return AppendJSON(nil, e, true), nil }

// AppendJSON appends the JSON form of e to dst (no trailing newline). Fields
// come in the order the README's event model shows; "<", ">" and "&" are not escaped. The span
// is written only when withSpan is true.
func AppendJSON(dst []byte, e Event, withSpan bool) []byte {
	dst = append(dst, `{"type":`...)
	dst = AppendQuote(dst, string(e.Type))
	switch e.Type {
	case Think, Respond:
		dst = append(dst, `,"content":`...)
		dst = AppendQuote(dst, e.Content)
		if e.Refusal {
			dst = append(dst, `,"refusal":true`...)
		}
		if len(e.Opaque) > 0 {
			dst = append(dst, `,"opaque":`...)
			dst = append(dst, e.Opaque...)
		}
		if e.Partial {
			dst = append(dst, `,"partial":true`...)
		}
	case Call, HostedCall:
		dst = append(dst, `,"name":`...)
		dst = AppendQuote(dst, e.Name)
		if !e.Partial {
			dst = append(dst, `,"args":`...)
			dst = append(dst, e.ArgsJSON()...)
		}
		if e.ID != "" {
			dst = append(dst, `,"id":`...)
			dst = AppendQuote(dst, e.ID)
		}
		if e.Partial {
			dst = append(dst, `,"index":`...)
			dst = strconv.AppendInt(dst, int64(e.Index), 10)
		}
		if e.Param != "" {
			dst = append(dst, `,"param":`...)
			dst = AppendQuote(dst, e.Param)
		}
		if e.Delta != "" {
			dst = append(dst, `,"delta":`...)
			dst = AppendQuote(dst, e.Delta)
		}
		if e.Custom {
			dst = append(dst, `,"custom":true`...)
		}
		if e.Invalid != "" {
			dst = append(dst, `,"invalid":`...)
			dst = AppendQuote(dst, e.Invalid)
		}
		if len(e.Opaque) > 0 {
			dst = append(dst, `,"opaque":`...)
			dst = append(dst, e.Opaque...)
		}
		if e.Partial {
			dst = append(dst, `,"partial":true`...)
		}
	case Result, HostedResult:
		dst = append(dst, `,"tool":`...)
		dst = AppendQuote(dst, e.Tool)
		if e.ID != "" {
			dst = append(dst, `,"id":`...)
			dst = AppendQuote(dst, e.ID)
		}
		dst = append(dst, `,"status":`...)
		dst = AppendQuote(dst, string(e.Status))
		dst = append(dst, `,"content":`...)
		dst = append(dst, e.ValueJSON()...)
	case Error:
		dst = append(dst, `,"code":`...)
		dst = AppendQuote(dst, string(e.Code))
		dst = append(dst, `,"message":`...)
		dst = AppendQuote(dst, e.Message)
		dst = append(dst, `,"offset":`...)
		dst = strconv.AppendInt(dst, e.Pos.Offset, 10)
		dst = append(dst, `,"line":`...)
		dst = strconv.AppendInt(dst, int64(e.Pos.Line), 10)
		dst = append(dst, `,"column":`...)
		dst = strconv.AppendInt(dst, int64(e.Pos.Column), 10)
		if e.Raw != "" {
			dst = append(dst, `,"raw":`...)
			dst = AppendQuote(dst, e.Raw)
		}
	case Execute, End:
	default: // an event a framework adds (user, metric, …): its content, if any
		if len(e.Value) > 0 {
			dst = append(dst, `,"content":`...)
			dst = append(dst, e.Value...)
		} else if e.Content != "" {
			dst = append(dst, `,"content":`...)
			dst = AppendQuote(dst, e.Content)
		}
	}
	if withSpan {
		dst = append(dst, `,"span":[`...)
		dst = strconv.AppendInt(dst, e.Span.Start, 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, e.Span.End, 10)
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// wireEvent is the decoding shape of every event type.
type wireEvent struct {
	Type    Type            `json:"type"`
	Content json.RawMessage `json:"content"`
	Partial bool            `json:"partial"`
	Refusal bool            `json:"refusal"`
	Custom  bool            `json:"custom"`
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args"`
	ID      string          `json:"id"`
	Invalid string          `json:"invalid"`
	Index   int             `json:"index"`
	Param   string          `json:"param"`
	Delta   string          `json:"delta"`
	Tool    string          `json:"tool"`
	Status  Status          `json:"status"`
	Code    Code            `json:"code"`
	Message string          `json:"message"`
	Offset  int64           `json:"offset"`
	Line    int             `json:"line"`
	Column  int             `json:"column"`
	Raw     string          `json:"raw"`
	Opaque  json.RawMessage `json:"opaque"`
	Span    *[2]int64       `json:"span"`
}

// UnmarshalJSON reads the JSON form of an event. Unknown fields are ignored,
// so readers keep working when fields are added.
func (e *Event) UnmarshalJSON(data []byte) error {
	var w wireEvent
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.Type == "" {
		return fmt.Errorf("event has no type: %s", data)
	}
	*e = Event{Type: w.Type, Partial: w.Partial, Refusal: w.Refusal, Custom: w.Custom, Name: w.Name, ID: w.ID, Invalid: w.Invalid,
		Index: w.Index, Param: w.Param, Delta: w.Delta, Tool: w.Tool,
		Status: w.Status, Code: w.Code, Message: w.Message, Raw: w.Raw,
		Pos: Pos{Offset: w.Offset, Line: w.Line, Column: w.Column}}
	if len(w.Opaque) > 0 && string(w.Opaque) != "null" {
		if bytes.TrimSpace(w.Opaque)[0] != '{' {
			return fmt.Errorf("%s event: opaque is not an object", w.Type)
		}
		e.Opaque = compactCopy(w.Opaque)
	}
	switch w.Type {
	case Think, Respond:
		if len(w.Content) > 0 && string(w.Content) != "null" {
			if err := json.Unmarshal(w.Content, &e.Content); err != nil {
				return fmt.Errorf("%s event: content is not a string", w.Type)
			}
		}
	case Result, HostedResult:
		e.Value = compactCopy(w.Content)
	case Call, HostedCall:
		if w.Partial {
			break
		}
		if len(w.Args) > 0 && string(w.Args) != "null" {
			if bytes.TrimSpace(w.Args)[0] != '{' {
				return fmt.Errorf("call event: args is not an object")
			}
			e.Args = compactCopy(w.Args)
		} else {
			e.Args = json.RawMessage("{}")
		}
	case Execute, End, Error:
	default: // an event a framework adds: string content, or any JSON as Value
		if json.Unmarshal(w.Content, &e.Content) != nil {
			e.Value = compactCopy(w.Content)
		}
	}
	if w.Span != nil {
		e.Span = Span{w.Span[0], w.Span[1]}
	}
	return nil
}

func compactCopy(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return append(json.RawMessage(nil), raw...)
	}
	return b.Bytes()
}

const hexDigits = "0123456789abcdef"

// needsEscape marks the bytes a JSON string must escape. Bytes from 0x80 up
// are parts of UTF-8 characters, written as they are.
var needsEscape = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// AppendQuote appends s as a JSON string to dst. Unlike encoding/json it does
// not escape '<', '>' or '&'; control characters are escaped, and each byte
// of invalid UTF-8 becomes the character U+FFFD (written as itself, so that
// quoting a string that already holds U+FFFD gives the same bytes).
func AppendQuote(dst []byte, s string) []byte {
	room := len(s) + 2
	if len(s) > 4<<10 {
		room += len(s) / 8 // for some escapes: a long value is not copied again at its first
	}
	dst = slices.Grow(dst, room)
	dst = append(dst, '"')
	valid := utf8.ValidString(s)
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if !needsEscape[c] && (c < utf8.RuneSelf || valid) {
			i++
			continue
		}
		if c >= utf8.RuneSelf { // only when s is not valid UTF-8
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...) // the character itself, as a valid string would hold it
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
