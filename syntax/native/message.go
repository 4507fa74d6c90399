package native

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// call is a tool call being assembled from a provider's stream (or read
// whole from a response).
type call struct {
	key      string
	id, name string
	pos      syntax.Pos    // the document where it started
	span     syntax.Span   // from its first document to its last
	args     []byte        // argument text accumulated from fragments
	whole    []byte        // arguments given whole (an object, or a .done event), if any
	start    []byte        // Anthropic: the input of content_block_start
	js       jsonscan.JSON // scans args as they arrive
	trailing bool          // text came after the arguments' JSON value
	tooLong  bool
	started  bool // token mode: its first partial event was sent
	index    int  // its place among the message's calls

	hosted   bool   // run by the provider: a hosted_call, never a call
	custom   bool   // a free-text input, given as args {"input": text}
	unclosed bool   // Gemini: streamed with willContinue and not closed yet
	tree     *gNode // Gemini: the arguments assembled from partialArgs
	argBytes int    // Gemini: the bytes of partialArgs taken, against the limit
	problem  string // Gemini: why the partialArgs cannot be assembled
}

// message is the assistant message whose calls are being assembled.
type message struct {
	calls   []*call // not yet finished, in order of first appearance
	byKey   map[string]*call
	emitted int // valid calls emitted
	seen    int // calls started
	first   syntax.Pos
	gemini  *call // the Gemini call being streamed with willContinue, if any
}

func (m *message) reset() {
	m.calls = m.calls[:0]
	if m.byKey == nil || len(m.byKey) > 0 {
		m.byKey = map[string]*call{}
	}
	m.emitted, m.seen = 0, 0
	m.gemini = nil
}

// callFor returns the call at key, starting one if there is none, or if the
// call there has another id (parallel calls that share one index).
func (p *parser) callFor(key, id, name string, span syntax.Span) *call {
	c := p.msg.byKey[key]
	if c != nil && id != "" && c.id != "" && id != c.id {
		p.completeCall(c, "")
		c = nil
	}
	if c == nil {
		if len(p.msg.calls) == 0 && p.msg.emitted == 0 {
			p.msg.first = p.docStart
		}
		c = &call{key: key, pos: p.docStart, span: span, index: p.msg.seen}
		p.msg.seen++
		c.js.Reset(p.Options().DepthLimit())
		p.msg.byKey[key] = c
		p.msg.calls = append(p.msg.calls, c)
	}
	c.span.End = span.End
	if c.id == "" {
		c.id = id
	}
	switch {
	case name == "" || name == c.name:
	case c.name == "":
		c.name = name
	default:
		c.name += name // a name streamed in pieces
	}
	return c
}

// addArgs appends an argument fragment. A fragment that repeats all the
// arguments so far, once they are complete JSON, is a resend and is ignored.
func (p *parser) addArgs(c *call, frag []byte, span syntax.Span) {
	c.span.End = span.End
	if len(frag) == 0 || c.tooLong {
		return
	}
	if c.js.Done() && bytes.Equal(frag, c.args) {
		return
	}
	if len(c.args)+len(frag) > p.Options().BlockLimit() {
		c.tooLong, c.args = true, nil
		return
	}
	c.args = scan.Append(c.args, frag)
	stream := p.Options().Mode == syntax.TokenMode && c.name != "" && !c.trailing && !c.hosted
	if stream && !c.started {
		c.started = true
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: c.name, ID: c.id, Index: c.index, Span: span})
	}
	if c.trailing || c.js.Err() != nil {
		return
	}
	var n int
	if stream { // the scan compacts the delta
		var d []byte
		if d, n = c.js.ScanCompact(nil, frag); len(d) > 0 {
			p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: c.name, Index: c.index, Delta: string(d), Span: span})
		}
	} else {
		n = c.js.Scan(frag)
	}
	if c.js.Done() && len(jsonscan.TrimSpace(frag[n:])) > 0 {
		c.trailing = true
	}
}

// completeCall ends a call: a valid one is emitted (a hosted one as a
// hosted_call), anything else becomes an error naming the call. cut, if set,
// says why the call was cut off. It reports whether the call was emitted.
func (p *parser) completeCall(c *call, cut string) bool {
	delete(p.msg.byKey, c.key)
	for i, x := range p.msg.calls {
		if x == c {
			p.msg.calls = append(p.msg.calls[:i], p.msg.calls[i+1:]...)
			break
		}
	}
	if c.id != "" && c.name != "" {
		p.names[c.id] = c.name
	}
	args, code, problem := c.finalArgs(p.Options().DepthLimit())
	switch {
	case c.tooLong:
		code, problem = syntax.CodeOverLimit, fmt.Sprintf("its arguments are longer than the limit of %d bytes", p.Options().BlockLimit())
	case cut != "":
		code, problem = syntax.CodeTruncated, "it was cut off ("+cut+") and is not executed"
	case c.unclosed:
		code, problem = syntax.CodeTruncated, "it was never closed (its closing part or item did not come), so it is not executed"
	case c.problem != "":
		code, problem = syntax.CodeMalformed, c.problem
	case c.name == "":
		code, problem = syntax.CodeMalformed, "it has no name"
	}
	if problem != "" {
		raw := c.args
		if c.whole != nil {
			raw = c.whole
		}
		what := "call"
		if c.hosted {
			what = "hosted call"
		}
		p.Errorf(code, c.pos, c.span, raw, "%s %s: %s", what, c.label(), problem)
		return false
	}
	if c.hosted {
		p.Emit(syntax.Event{Type: syntax.HostedCall, Name: c.name, ID: c.id, Args: args, Pos: c.pos, Span: c.span})
		return true
	}
	p.msg.emitted++
	p.Emit(syntax.Event{Type: syntax.Call, Name: c.name, ID: c.id, Args: args, Custom: c.custom, Pos: c.pos, Span: c.span})
	return true
}

func (c *call) label() string {
	switch {
	case c.id != "" && c.name != "":
		return c.id + " (" + c.name + ")"
	case c.id != "":
		return c.id
	case c.name != "":
		return c.name
	}
	return "at " + c.key
}

// finalArgs returns the call's arguments as a compact JSON object, or a
// problem and its code. Absent or empty arguments, "" included, are {}.
func (c *call) finalArgs(maxDepth int) ([]byte, syntax.Code, string) {
	text := c.args
	if c.whole != nil {
		text = c.whole
	}
	text = jsonscan.TrimSpace(text)
	if len(text) == 0 {
		if k := jsonscan.Kind(c.start); k == '{' {
			return jsonscan.Compact(c.start), "", ""
		}
		return []byte("{}"), "", ""
	}
	js := jsonscan.NewJSON(maxDepth)
	n := js.Scan(text)
	if !js.Done() && js.Err() == nil {
		js.End()
	}
	switch {
	case js.Err() != nil:
		return nil, js.Err().Code(), "its arguments are not valid JSON (" + js.Err().Msg + " at byte " + strconv.FormatInt(js.Err().Offset, 10) + ")"
	case len(jsonscan.TrimSpace(text[n:])) > 0:
		return nil, syntax.CodeInvalidJSON, "its arguments hold more than one JSON value"
	case jsonscan.Kind(text) != '{':
		return nil, syntax.CodeMalformed, "its arguments are " + jsonscan.KindName(jsonscan.Kind(text)) + ", not a JSON object"
	}
	return jsonscan.Compact(text), "", ""
}

// endMessage ends the assistant message: calls not yet complete are
// completed in order (if cut says the message was cut off, the last one is
// reported as cut off), and execute follows if any call was valid.
func (p *parser) endMessage(span syntax.Span, cut string) {
	calls := p.msg.calls
	p.msg.calls = nil // so that completing each one does not search the list
	for i, c := range calls {
		reason := ""
		if i == len(calls)-1 {
			reason = cut
		}
		p.completeCall(c, reason)
	}
	if p.msg.emitted > 0 {
		p.Emit(syntax.Event{Type: syntax.Execute, Span: span})
	}
	p.msg.reset()
}

// endOfStream reports what the stream left unfinished.
func (p *parser) endOfStream() {
	p.EndRun()
	calls := p.msg.calls
	p.msg.calls = nil
	for _, c := range calls {
		p.completeCall(c, "the stream ended before the call was complete")
	}
	if p.msg.emitted > 0 {
		p.Errorf(syntax.CodeTruncated, p.msg.first, syntax.Span{Start: p.msg.first.Offset, End: p.msg.first.Offset}, nil,
			"the stream ended before the message did: its %d call(s) get no execute", p.msg.emitted)
	}
	p.msg.reset()
}
