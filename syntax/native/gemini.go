// Gemini: a response or stream chunk read (candidates[].content.parts:
// text, thought, functionCall, a thoughtSignature kept with its part,
// arguments streamed as partialArgs at JSON paths), its usage, the
// renderer (contents with functionResponse parts for results) and the
// stream encoder (SSE chunks of whole parts).

package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

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

// geminiCall reads one functionCall part. A call whose arguments are
// streamed (Gemini 3, Vertex) starts with willContinue set, goes on with
// parts of partialArgs, each value at a jsonPath, and is closed by the first
// functionCall part without willContinue; it is emitted only then. The
// part's thoughtSignature (sig, raw), if any, goes with the call.
func (p *parser) geminiCall(fc fields, sig []byte, span syntax.Span) {
	cont := fc.boolean("willContinue")
	c := p.msg.gemini
	setSig := func(c *call) {
		if sig != nil {
			c.opaque = opaque("gemini", `{"thoughtSignature":`+string(sig)+`}`)
		}
	}
	if c == nil && !cont && !fc.has("partialArgs") { // a call given whole
		c = p.callFor("gemini:"+strconv.Itoa(p.msg.seen), fc.s("id"), fc.s("name"), span)
		setSig(c)
		p.setValue(c, fc.get("args"))
		p.completeCall(c, "")
		return
	}
	if name := fc.s("name"); c != nil && name != "" && c.name != "" && (name != c.name || cont) {
		// A new call (another name, or an opening part) while the last one
		// was never closed; a closing part may repeat the name.
		p.msg.gemini = nil
		p.completeCall(c, "")
		c = nil
	}
	if c == nil {
		c = p.callFor("gemini:"+strconv.Itoa(p.msg.seen), fc.s("id"), fc.s("name"), span)
		c.unclosed, c.tree = true, &gNode{kind: '{'}
		p.msg.gemini = c
	} else {
		c = p.callFor(c.key, fc.s("id"), fc.s("name"), span)
	}
	setSig(c)
	for _, raw := range fc.arr("partialArgs") {
		p.partialArg(c, p.object(raw))
	}
	if args := fc.get("args"); args != nil && jsonscan.Kind(args) != 'n' {
		p.setValue(c, args) // checked against the partialArgs at the close, if any
	}
	if !cont {
		p.msg.gemini = nil
		c.unclosed = false
		switch {
		case c.problem != "" || c.tooLong:
		case c.whole == nil:
			p.setWhole(c, c.tree.appendJSON(nil))
		case !c.tree.empty():
			// args given whole, then partialArgs: both are its arguments
			// (an empty object a placeholder), and must agree
			p.setWhole(c, c.tree.appendJSON(nil))
		}
		c.tree = nil
		p.completeCall(c, "")
	}
}

// partialArg sets one value of a streamed call's arguments: a string is
// appended to the string already at its path, any other value replaces it.
func (p *parser) partialArg(c *call, a fields) {
	if c.problem != "" || c.tooLong {
		return
	}
	path := a.s("jsonPath")
	var val []byte
	isStr := false
	switch {
	case a.has("stringValue"):
		s, ok := a.str("stringValue")
		if !ok {
			c.problem = "partialArgs stringValue at " + strconv.Quote(path) + " is not a string"
			return
		}
		val, isStr = []byte(s), true
	case a.has("numberValue"):
		val = jsonscan.Compact(a.get("numberValue"))
		if k := jsonscan.Kind(val); k != '-' && (k < '0' || k > '9') {
			c.problem = "partialArgs numberValue at " + strconv.Quote(path) + " is not a number"
			return
		}
	case a.has("boolValue"):
		val = jsonscan.Compact(a.get("boolValue"))
		if string(val) != "true" && string(val) != "false" {
			c.problem = "partialArgs boolValue at " + strconv.Quote(path) + " is not a boolean"
			return
		}
	case a.has("nullValue"):
		val = []byte("null")
	default:
		return // a path with no value yet
	}
	c.argBytes += len(path) + len(val)
	if c.argBytes > p.Options().BlockLimit() {
		c.tooLong, c.tree = true, nil
		return
	}
	segs, err := parseJSONPath(path)
	if err == "" {
		room := p.Options().BlockLimit() - c.argBytes
		err = c.tree.set(segs, val, isStr, &room)
		c.argBytes = p.Options().BlockLimit() - room
	}
	if err == errOver {
		c.tooLong, c.tree = true, nil
		return
	}
	if err != "" {
		c.problem = "partialArgs jsonPath " + strconv.Quote(path) + ": " + err
	}
}

// gNode is a value of arguments assembled from partialArgs: an object or
// array whose members come in the order they were first set, or a scalar.
type gNode struct {
	kind  byte // '{', '[', '"' (a string, appended to) or 0 (other JSON, in raw)
	keys  []string
	index map[string]int
	kids  []*gNode // members, or elements (nil: null)
	str   []byte
	raw   []byte
}

func (n *gNode) empty() bool { return n == nil || len(n.kids) == 0 }

// pathSeg is one step of a jsonPath: a member name or an array index.
type pathSeg struct {
	key string
	idx int // -1 for a member
}

// parseJSONPath parses the jsonPath forms Gemini writes: "$", then
// ".name", "[N]" or "['name']" steps.
func parseJSONPath(path string) ([]pathSeg, string) {
	if !strings.HasPrefix(path, "$") {
		return nil, "does not start with $"
	}
	rest := path[1:]
	var segs []pathSeg
	for rest != "" {
		switch rest[0] {
		case '.':
			i := 1
			for i < len(rest) && rest[i] != '.' && rest[i] != '[' {
				i++
			}
			if i == 1 {
				return nil, "an empty member name"
			}
			segs = append(segs, pathSeg{key: rest[1:i], idx: -1})
			rest = rest[i:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, "an unclosed ["
			}
			in := rest[1:end]
			if len(in) >= 2 && (in[0] == '\'' || in[0] == '"') && in[len(in)-1] == in[0] {
				segs = append(segs, pathSeg{key: in[1 : len(in)-1], idx: -1})
			} else {
				n, err := strconv.Atoi(in)
				if err != nil || n < 0 {
					return nil, "a bad index " + strconv.Quote(in)
				}
				segs = append(segs, pathSeg{idx: n})
			}
			rest = rest[end+1:]
		default:
			return nil, fmt.Sprintf("an unexpected %q", rest[0])
		}
	}
	if len(segs) == 0 {
		return nil, "names no member of the arguments"
	}
	return segs, ""
}

// errOver is set's error for arguments that would outgrow the limit.
const errOver = "over the limit"

// set puts val at the path below n, creating the objects and arrays on the
// way. Elements skipped by an index (null) are taken from room, 5 bytes
// each, so that a short path cannot make arguments beyond the limit.
func (n *gNode) set(segs []pathSeg, val []byte, isStr bool, room *int) string {
	for i, s := range segs {
		want := byte('{')
		if s.idx >= 0 {
			want = '['
		}
		if n.kind != want {
			return "steps into a " + n.kindName() + " as into " + (&gNode{kind: want}).kindName()
		}
		var slot **gNode
		if s.idx >= 0 {
			if gap := s.idx - len(n.kids); gap > 0 {
				if *room -= 5 * gap; *room < 0 {
					return errOver
				}
			}
			for len(n.kids) <= s.idx {
				n.kids = append(n.kids, nil)
			}
			slot = &n.kids[s.idx]
		} else {
			if n.index == nil {
				n.index = map[string]int{}
			}
			j, ok := n.index[s.key]
			if !ok {
				j = len(n.kids)
				n.index[s.key] = j
				n.keys = append(n.keys, s.key)
				n.kids = append(n.kids, nil)
			}
			slot = &n.kids[j]
		}
		if i == len(segs)-1 {
			switch {
			case isStr && *slot != nil && (*slot).kind == '"':
				(*slot).str = append((*slot).str, val...)
			case *slot != nil && ((*slot).kind == '{' || (*slot).kind == '['):
				return "sets a value where an " + (*slot).kindName() + " is"
			case isStr:
				*slot = &gNode{kind: '"', str: val}
			default:
				*slot = &gNode{raw: val}
			}
			return ""
		}
		if *slot == nil {
			next := byte('{')
			if segs[i+1].idx >= 0 {
				next = '['
			}
			*slot = &gNode{kind: next}
		}
		n = *slot
	}
	return ""
}

func (n *gNode) kindName() string {
	switch n.kind {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	}
	return "value"
}

// appendJSON appends n as compact JSON.
func (n *gNode) appendJSON(b []byte) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	switch n.kind {
	case '{':
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = syntax.AppendQuote(b, k)
			b = append(b, ':')
			b = n.kids[i].appendJSON(b)
		}
		return append(b, '}')
	case '[':
		b = append(b, '[')
		for i, k := range n.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = k.appendJSON(b)
		}
		return append(b, ']')
	case '"':
		return syntax.AppendQuote(b, string(n.str))
	}
	return append(b, n.raw...)
}

// geminiUsage reads a Gemini usageMetadata object.
func geminiUsage(u fields) (tokens, bool) {
	if u.none() {
		return tokens{}, false
	}
	thoughts := count(u, "thoughtsTokenCount")
	return tokens{Input: count(u, "promptTokenCount"), Output: count(u, "candidatesTokenCount") + thoughts, Cached: count(u, "cachedContentTokenCount"), Reasoning: thoughts}, true
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

// newGeminiRenderer returns a renderer that writes events as Gemini
// contents, one JSON document per line: the model's output up to an execute
// (or to results, or the end) is a response,
// {"candidates":[{"content":{"role":"model","parts":[…]},"finishReason":"STOP"}]},
// its parts in stream order — a text part per text run, a text part with
// "thought":true per thought, a functionCall part per call ({name, args,
// id}); a run of results is a request's user content,
// {"contents":[{"role":"user","parts":[{"functionResponse":{id, name,
// response}}…]}]}. Adjacent thoughts are one part (Gemini's parser joins
// adjacent parts of a kind).
//
// Gemini has no refusal, custom or provider-run tool form: refusals are
// written as text, custom calls as calls, hosted calls and results not at
// all. A functionResponse's response is an object, read as Gemini's
// documentation says: a failure is written as {"error": content}, and a
// content that is not an object, or that would read back otherwise (it has
// an "error" member, or "output" is its only one), as {"output": content}.
// It cannot carry calls no execute followed, or an execute with no
// call. Each loss is reported. A call without an id is given one (call_1,
// call_2, … in stream order), and the results that answer it the same id.
func newGeminiRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	if opts.Mode == syntax.TokenMode {
		r, _ := NewStream("gemini", w, StreamOptions{})
		return r
	}
	r := wire.New(geminiName, &geminiUnits{w: bufio.NewWriter(w)})
	r.IDs, r.Form = true, geminiName
	return r
}

const geminiName = "gemini"

type (
	gFunctionCall struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
		ID   string          `json:"id,omitempty"`
	}
	gFunctionResponse struct {
		ID       string          `json:"id,omitempty"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	}
	gPart struct {
		Text             *string            `json:"text,omitempty"`
		Thought          bool               `json:"thought,omitempty"`
		ThoughtSignature string             `json:"thoughtSignature,omitempty"`
		FunctionCall     *gFunctionCall     `json:"functionCall,omitempty"`
		FunctionResponse *gFunctionResponse `json:"functionResponse,omitempty"`
	}
	gContent struct {
		Role  string  `json:"role"`
		Parts []gPart `json:"parts"`
	}
	gCandidate struct {
		Content      gContent `json:"content"`
		FinishReason string   `json:"finishReason"`
	}
)

type geminiUnits struct {
	w     *bufio.Writer
	parts []gPart // the open model content's parts
	calls int
}

func (u *geminiUnits) Text(t syntax.Type, s string) error {
	thought := t == syntax.Think
	if n := len(u.parts); n > 0 && u.parts[n-1].Text != nil && u.parts[n-1].Thought == thought && u.parts[n-1].ThoughtSignature == "" {
		joined := *u.parts[n-1].Text + "\n\n" + s
		u.parts[n-1].Text = &joined
		return nil
	}
	u.parts = append(u.parts, gPart{Text: &s, Thought: thought})
	return nil
}

// TextOpaque writes a text or thought part with the thoughtSignature it
// came with, a part of its own (a signature is the part's).
func (u *geminiUnits) TextOpaque(t syntax.Type, s string, state json.RawMessage) error {
	u.parts = append(u.parts, gPart{Text: &s, Thought: t == syntax.Think, ThoughtSignature: geminiSignature(state)})
	return nil
}

// geminiSignature is the thoughtSignature of Gemini's state, or "".
func geminiSignature(state json.RawMessage) string {
	var st struct {
		ThoughtSignature string `json:"thoughtSignature"`
	}
	json.Unmarshal(state, &st)
	return st.ThoughtSignature
}

func (u *geminiUnits) Calls(calls []syntax.Event) error {
	for _, c := range calls {
		sig := ""
		if len(c.Opaque) > 0 {
			var st map[string]json.RawMessage
			json.Unmarshal(c.Opaque, &st)
			sig = geminiSignature(st[geminiName])
		}
		u.parts = append(u.parts, gPart{FunctionCall: &gFunctionCall{Name: c.Name, Args: c.ArgsJSON(), ID: c.ID}, ThoughtSignature: sig})
	}
	u.calls += len(calls)
	return nil
}

func (u *geminiUnits) Execute() error {
	if u.calls == 0 {
		return wire.CannotCarry(geminiName, "an execute with no call")
	}
	return u.model()
}

// model writes the open model content as a response, if it has parts.
func (u *geminiUnits) model() error {
	if len(u.parts) == 0 {
		return nil
	}
	doc := struct {
		Candidates []gCandidate `json:"candidates"`
	}{[]gCandidate{{Content: gContent{Role: "model", Parts: u.parts}, FinishReason: "STOP"}}}
	u.parts, u.calls = nil, 0
	return writeLine(u.w, doc)
}

func (u *geminiUnits) pending() error {
	if u.calls == 0 {
		return nil
	}
	n := u.calls
	u.parts, u.calls = nil, 0
	return wire.CannotCarry(geminiName, "%d call(s) with no execute: a model turn's function calls are executed; the turn is not written", n)
}

func (u *geminiUnits) Results(rs []syntax.Event) error {
	err := errors.Join(u.pending(), u.model())
	parts := make([]gPart, len(rs))
	for i, r := range rs {
		resp := r.ValueJSON()
		switch {
		case r.Status == syntax.Failure:
			resp = wrap("error", resp)
		case jsonscan.Kind(resp) != '{' || jsonscan.Member(resp, "error") != nil || onlyMember(resp, "output"):
			resp = wrap("output", resp) // else it would read back as something else
		}
		parts[i] = gPart{FunctionResponse: &gFunctionResponse{ID: r.ID, Name: r.Tool, Response: resp}}
	}
	doc := struct {
		Contents []gContent `json:"contents"`
	}{[]gContent{{Role: "user", Parts: parts}}}
	return errors.Join(err, writeLine(u.w, doc))
}

// onlyMember reports whether the object obj has key and no other member.
func onlyMember(obj []byte, key string) bool {
	return memberCount(obj) == 1 && jsonscan.Member(obj, key) != nil
}

// memberCount is the number of members of the object obj.
func memberCount(obj []byte) int {
	n := 0
	jsonscan.MembersRaw(obj, func(_, _ []byte) bool { n++; return true })
	return n
}

// wrap returns {"key": v}.
func wrap(key string, v []byte) json.RawMessage {
	b := append(syntax.AppendQuote([]byte{'{'}, key), ':')
	return append(append(b, v...), '}')
}

func (u *geminiUnits) Flush() error { return u.w.Flush() }

func (u *geminiUnits) End() error {
	err := errors.Join(u.pending(), u.model())
	return errors.Join(err, u.w.Flush())
}

// geminiStream writes Gemini streamGenerateContent chunks (calls whole).
type geminiStream struct {
	w       *bufio.Writer
	thought bool
	o       StreamOptions
}

func (s *geminiStream) chunk(part []byte, finish string, u *tokens) error {
	d := []byte(`{"candidates":[{"content":{"parts":[`)
	d = append(d, part...)
	d = append(d, `],"role":"model"}`...)
	if finish != "" {
		d = append(d, `,"finishReason":"`...)
		d = append(d, finish...)
		d = append(d, '"')
	}
	d = append(d, `,"index":0}]`...)
	if finish != "" {
		if u == nil {
			u = &tokens{}
		}
		d = u.appendGemini(append(d, `,"usageMetadata":`...))
	}
	d = syntax.AppendQuote(append(d, `,"modelVersion":`...), s.o.model())
	d = append(d, '}')
	return sse(s.w, "", d)
}

func (s *geminiStream) start() error { return nil }

func (s *geminiStream) textStart(t syntax.Type, _ bool) error {
	s.thought = t == syntax.Think
	return nil
}

func (s *geminiStream) textDelta(text string) error {
	p := syntax.AppendQuote([]byte(`{"text":`), text)
	if s.thought {
		p = append(p, `,"thought":true`...)
	}
	return s.chunk(append(p, '}'), "", nil)
}

func (s *geminiStream) textStop(state json.RawMessage) error {
	if sig := geminiSignature(state); sig != "" {
		// The signature closes the part it came on: an empty part of the
		// same kind carries it.
		p := []byte(`{"text":""`)
		if s.thought {
			p = append(p, `,"thought":true`...)
		}
		p = syntax.AppendQuote(append(p, `,"thoughtSignature":`...), sig)
		return s.chunk(append(p, '}'), "", nil)
	}
	return nil
}

func (s *geminiStream) callStart(*streamCall) error { return nil }

func (s *geminiStream) callDelta(*streamCall, []byte) error { return nil }

func (s *geminiStream) callStop(c *streamCall, args []byte, state json.RawMessage) error {
	p := syntax.AppendQuote([]byte(`{"functionCall":{"name":`), c.name)
	p = append(p, `,"args":`...)
	p = append(p, args...)
	if !c.madeID {
		p = syntax.AppendQuote(append(p, `,"id":`...), c.id)
	}
	p = append(p, '}')
	if sig := geminiSignature(state); sig != "" {
		p = syntax.AppendQuote(append(p, `,"thoughtSignature":`...), sig)
	}
	return s.chunk(append(p, '}'), "", nil)
}

func (s *geminiStream) finish(why stop, _ string, u *tokens) error {
	reason := [...]string{stopEnd: "STOP", stopCalls: "STOP", stopCut: "MAX_TOKENS", stopError: "MALFORMED_FUNCTION_CALL"}[why]
	return s.chunk([]byte(`{"text":""}`), reason, u)
}
