package native

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"unsafe"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// call is a tool call being assembled from a provider's stream (or read
// whole from a response).
type call struct {
	key      string
	id, name string
	nameBuf  []byte        // a name streamed in pieces (name views it)
	pos      syntax.Pos    // the document where it started
	span     syntax.Span   // from its first document to its last
	args     []byte        // argument text accumulated from fragments
	whole    []byte        // arguments given whole (an object, or a .done event), if any
	final    []byte        // whole checked and compacted, when it is a valid object
	conflict []byte        // whole arguments sent before whole, and replaced by different ones
	start    []byte        // Anthropic: the input of content_block_start
	js       jsonscan.JSON // scans args as they arrive
	trailing bool          // text came after the arguments' JSON value
	tooLong  bool
	over     string // why it is over the limit, when not for its arguments alone
	started  bool   // token mode: its first partial event was sent
	index    int    // its place among the message's calls
	done     bool   // completed: no longer open
	cost     int    // bytes counted against MaxBlock while it is open

	hosted      bool        // run by the provider: a hosted_call, never a call
	custom      bool        // a free-text input, given as args {"input": text}
	unclosed    bool        // Gemini: streamed with willContinue and not closed yet
	tree        *gNode      // Gemini: the arguments assembled from partialArgs
	argBytes    int         // Gemini: the bytes of partialArgs taken, against the limit
	problem     string      // why the call cannot be read (Gemini's partialArgs, a custom input in pieces)
	problemCode syntax.Code // problem's code, when not malformed
	opaque      []byte      // provider state the call's event carries (Gemini's thoughtSignature, a Responses item id)
}

// callOverhead is what an open call costs against MaxBlock beside its id,
// name and arguments: the parser's own record of it.
const callOverhead = 64

// message is the assistant message whose calls are being assembled.
type message struct {
	calls   []*call // in order of first appearance; finished ones are dropped now and then
	byKey   map[string]*call
	nOpen   int // calls open
	used    int // bytes the open calls cost, against MaxBlock
	emitted int // valid calls emitted
	seen    int // calls started
	// textLast says text or a thought came after the message's last call
	// began: what a cut off message was writing.
	textLast bool
	first    syntax.Pos
	gemini   *call // the Gemini call being streamed with willContinue, if any
}

func (m *message) reset() {
	m.calls = m.calls[:0]
	if m.byKey == nil || len(m.byKey) > 0 {
		m.byKey = map[string]*call{}
	}
	m.nOpen, m.used, m.emitted, m.seen = 0, 0, 0, 0
	m.textLast = false
	m.gemini = nil
}

// open is the number of calls open.
func (m *message) open() int { return m.nOpen }

// charge counts n more bytes of c against the limit of the message's open
// calls. It reports false, counting nothing, when they would go over it.
func (p *parser) charge(c *call, n int) bool {
	if p.msg.used+n > p.Options().BlockLimit() {
		return false
	}
	c.cost += n
	p.msg.used += n
	return true
}

// overOpen says that what of a call takes its message's open calls over
// the limit.
func (p *parser) overOpen(what string) string {
	return fmt.Sprintf("%s would take the open calls of its message over the limit of %d bytes", what, p.Options().BlockLimit())
}

// setWhole gives c its arguments whole, a copy of raw (nil: none), counted
// against the limit.
//
// An empty object sent beside other arguments is a placeholder (a first
// chunk's "arguments":{}, Gemini's opening part): the others stand. Other
// whole arguments sent again must agree with the first (see agrees); when
// they do not, the first are kept, still counted against the limit, for
// the error the call becomes.
func (p *parser) setWhole(c *call, raw []byte) { p.setArgs(c, raw, false) }

// setValue is setWhole for arguments that are a value of the document
// being read, as they are (an object, or a value of another type to report):
// the document's scan has checked them already, to a depth beyond theirs,
// so an object is only compacted, not scanned again.
func (p *parser) setValue(c *call, raw []byte) { p.setArgs(c, raw, true) }

func (p *parser) setArgs(c *call, raw []byte, checked bool) {
	if c.whole != nil && raw != nil {
		switch {
		case emptyObject(raw):
			return
		case emptyObject(c.whole):
		case c.conflict == nil && !c.agrees(raw, p.Options().DepthLimit()):
			c.conflict, c.whole, c.final = c.whole, nil, nil // its charge stays: the conflict holds it
		}
	}
	p.charge(c, -len(c.whole)) // whole is always as long as the raw it was charged for
	c.whole, c.final = nil, nil
	if raw == nil || c.tooLong {
		return
	}
	if !p.charge(c, len(raw)) {
		c.tooLong, c.over = true, p.overOpen("its arguments")
		return
	}
	// Valid arguments are checked and compacted now, once. When that
	// leaves them as they came (no white space to drop), the compacted
	// copy is also the one kept as they came, for an error's raw text: one
	// pass and one copy, where a copy now and a pass at the call's end
	// used to be. Otherwise both are kept, and only the arguments as they
	// came count against the limit, as before this was done early: what
	// the open calls may hold is then at most twice the limit, and which
	// calls fit it does not depend on when the compacting is done.
	if text := jsonscan.TrimSpace(raw); len(text) > 0 {
		var args []byte
		problem := ""
		if checked && text[0] == '{' {
			args = jsonscan.Compact(text)
		} else {
			args, _, problem = checkArgs(text, p.Options().DepthLimit())
		}
		if problem == "" {
			c.final = args
			if len(args) == len(raw) {
				c.whole = args // the same bytes: compacting only drops white space
				return
			}
		}
	}
	c.whole = keep(raw)
}

// nameTable maps call ids to tool names, to name the results that answer
// them. It is bounded by MaxBlock: past it, the oldest ids are forgotten.
type nameTable struct {
	m      map[string]string
	order  []string // ids, oldest first, from head on
	head   int
	bytes  int
	warned bool
}

// nameCost is what an entry of the table costs beside its id and name.
const nameCost = 32

// remember records the tool name of call id.
func (p *parser) remember(id, name string, pos syntax.Pos, span syntax.Span) {
	t := &p.names
	if t.m == nil {
		t.m = map[string]string{}
	}
	if old, ok := t.m[id]; ok {
		t.bytes += len(name) - len(old)
		t.m[id] = name
	} else {
		t.m[id] = name
		t.order = append(t.order, id)
		t.bytes += len(id) + len(name) + nameCost
	}
	evicted := false
	for t.bytes > p.Options().BlockLimit() && t.head < len(t.order) {
		old := t.order[t.head]
		t.order[t.head] = ""
		t.head++
		t.bytes -= len(old) + len(t.m[old]) + nameCost
		delete(t.m, old)
		evicted = true
	}
	if t.head > 32 && t.head > len(t.order)/2 {
		t.order = append(t.order[:0], t.order[t.head:]...)
		t.head = 0
	}
	if evicted && !t.warned {
		t.warned = true
		p.Errorf(syntax.CodeOverLimit, pos, span, nil,
			"the call ids kept to name their results are over the limit of %d bytes: the oldest are forgotten, and a result that answers one of them has no tool name", p.Options().BlockLimit())
	}
}

// toolName is the tool name of call id, "" when it is not known.
func (p *parser) toolName(id string) string { return p.names.m[id] }

// keep copies a value of the document being read that a call keeps beyond
// it: the document's buffer is reused by the next one.
func keep(b []byte) []byte {
	switch {
	case b == nil:
		return nil
	case string(b) == "{}":
		return emptyInput // a content_block_start's input, nearly always: no copy per call
	}
	return bytes.Clone(b)
}

// emptyInput is the empty object kept for every call that starts with it;
// never written (its capacity ends at its length, so an append copies).
var emptyInput = []byte("{}")[:2:2]

// callFor returns the call at key, starting one if there is none, or if the
// call there has another id (parallel calls that share one index). A call
// that would take the message's open calls over MaxBlock is not started: an
// over_limit error reports it, and a call that reads nothing is returned.
func (p *parser) callFor(key, id, name string, span syntax.Span) *call {
	return callAt(p, key, id, name, span)
}

// text is the text of a key, id or name: a string, or bytes of the document
// being read (the fast path's), copied only when a call keeps them.
type text interface{ string | []byte }

// callAt is callFor for keys, ids and names given as strings or as bytes.
func callAt[T text](p *parser, key, id, name T, span syntax.Span) *call {
	p.endContent(span) // the text before a provider's call is read to its end first
	c := p.msg.byKey[string(key)]
	if c != nil && len(id) > 0 && c.id != "" && string(id) != c.id {
		p.completeCall(c, "")
		c = nil
	}
	if c == nil {
		// A new call ends the text before it, in event mode as in token
		// mode (where the call's first fragment does): text after it is a
		// run of its own.
		p.EndRun()
		c = &call{key: string(key), pos: p.docStart, span: span, index: p.msg.seen}
		if !p.charge(c, callOverhead+len(id)+len(name)) {
			c.id, c.name = string(id), string(name)
			p.Errorf(syntax.CodeOverLimit, p.docStart, span, nil, "call %s: the message's open calls are over the limit of %d bytes (%d open), so it is not read",
				c.label(), p.Options().BlockLimit(), p.msg.nOpen)
			c.done, c.tooLong = true, true
			return c
		}
		if p.msg.nOpen == 0 && p.msg.emitted == 0 {
			p.msg.first = p.docStart
		}
		p.msg.seen++
		p.msg.textLast = false
		p.msg.nOpen++
		c.js.Reset(p.Options().DepthLimit())
		p.msg.byKey[c.key] = c
		p.msg.calls = append(p.msg.calls, c)
		c.id, c.name = string(id), string(name)
		return c
	}
	c.span.End = span.End
	if c.done {
		return c
	}
	if c.id == "" && len(id) > 0 && p.charge(c, len(id)) {
		c.id = string(id)
	}
	switch {
	case len(name) == 0 || string(name) == c.name:
	case c.name == "":
		if p.charge(c, len(name)) {
			c.name = string(name)
		}
	case !p.charge(c, len(name)):
		c.tooLong, c.over = true, p.overOpen("its name")
	default: // a name streamed in pieces: appended, not concatenated anew
		if c.nameBuf == nil {
			c.nameBuf = append([]byte(nil), c.name...)
		}
		c.nameBuf = scan.Append(c.nameBuf, []byte(name))
		// The bytes of nameBuf up to its length are never written again
		// (Append writes past them, or copies them), so the view is a
		// string that does not change.
		c.name = unsafe.String(unsafe.SliceData(c.nameBuf), len(c.nameBuf))
	}
	return c
}

// addArgs appends an argument fragment. A fragment that repeats all the
// arguments so far, once they are complete JSON, is a resend and is ignored.
//
// Token mode scans the fragments as they come, to stream them compacted
// and to stop at the end of the JSON value. Event mode only keeps them:
// finalArgs checks and compacts them once, at the call's end (a scan here
// as well was a third pass over a whole response's arguments, after the
// document's and before the call's).
func (p *parser) addArgs(c *call, frag []byte, span syntax.Span) {
	c.span.End = span.End
	if len(frag) == 0 || c.tooLong {
		return
	}
	if bytes.Equal(frag, c.args) && p.argsComplete(c) {
		return
	}
	if len(c.args)+len(frag) > p.Options().BlockLimit() {
		c.tooLong = true
	} else if !p.charge(c, len(frag)) {
		c.tooLong, c.over = true, p.overOpen("its arguments")
	}
	if c.tooLong {
		p.charge(c, -len(c.args))
		c.args = nil
		return
	}
	if c.args == nil {
		c.args = make([]byte, 0, max(len(frag), 64)) // most calls' arguments come in one piece, or in many tiny ones
	}
	c.args = scan.Append(c.args, frag)
	if p.Options().Mode != syntax.TokenMode {
		return
	}
	stream := c.name != "" && !c.trailing && !c.hosted
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
	if len(p.ct.held) > 0 {
		defer p.releaseHeld() // the text after it waited for it
	}
	if c.done {
		return false // not read: over the limit, and reported
	}
	c.done = true
	if p.msg.byKey[c.key] == c {
		delete(p.msg.byKey, c.key)
	}
	p.msg.nOpen--
	p.msg.used -= c.cost
	if n := len(p.msg.calls); n >= 16 && p.msg.nOpen < n/2 {
		// Drop the finished calls: each one is copied at most once
		// for every call finished before it, so the cost stays linear.
		open := p.msg.calls[:0]
		for _, x := range p.msg.calls {
			if !x.done {
				open = append(open, x)
			}
		}
		clear(p.msg.calls[len(open):])
		p.msg.calls = open
	}
	if c.id != "" && c.name != "" {
		p.remember(c.id, c.name, c.pos, c.span)
	}
	// other is the arguments the call was sent besides the whole ones it
	// keeps, when the two differ: whole arguments sent before and
	// replaced, or the pieces (which token mode streamed as deltas). A
	// call sent two different arguments is not executed. Whole arguments
	// that are a placeholder, or the pieces' value written otherwise, give
	// way to the pieces: they are the call's arguments, as streamed.
	var other []byte
	switch pieces := jsonscan.TrimSpace(c.args); {
	case c.conflict != nil:
		other = c.conflict
	case c.whole == nil || len(pieces) == 0 || bytes.Equal(pieces, jsonscan.TrimSpace(c.whole)):
	case emptyObject(c.whole) || c.agrees(pieces, p.Options().DepthLimit()):
		p.setWhole(c, nil)
	default:
		other = c.args
	}
	args, code, problem := c.finalArgs(p.Options().DepthLimit())
	switch {
	case c.tooLong:
		code, problem = syntax.CodeOverLimit, fmt.Sprintf("its arguments are longer than the limit of %d bytes", p.Options().BlockLimit())
		if c.over != "" {
			problem = c.over
		}
	case cut != "":
		code, problem = syntax.CodeTruncated, "it was cut off ("+cut+") and is not executed"
	case c.unclosed:
		code, problem = syntax.CodeTruncated, "it was never closed (its closing part or item did not come), so it is not executed"
	case c.problem != "":
		code, problem = cmp.Or(c.problemCode, syntax.CodeMalformed), c.problem
	case other != nil:
		code, problem = syntax.CodeMalformed, "its arguments were sent twice, and differ (raw: the pieces or the first whole arguments, a line feed, the last whole ones)"
	case c.name == "":
		code, problem = syntax.CodeMalformed, "it has no name"
	}
	if problem != "" {
		raw := c.args
		switch {
		case other != nil:
			raw = append(append(append([]byte(nil), other...), '\n'), c.whole...)
		case c.whole != nil:
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
	p.Emit(syntax.Event{Type: syntax.Call, Name: c.name, ID: c.id, Args: args, Custom: c.custom, Opaque: c.opaque, Pos: c.pos, Span: c.span})
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

// argsComplete reports whether c's arguments so far hold a whole JSON
// value (and perhaps more after it). Token mode's scanner knows; event mode
// scans them now, which it does only when a fragment repeats them all.
func (p *parser) argsComplete(c *call) bool {
	if p.Options().Mode == syntax.TokenMode {
		return c.js.Done()
	}
	js := jsonscan.NewJSON(p.Options().DepthLimit())
	js.Scan(c.args)
	return js.Done()
}

// finalArgs returns the call's arguments as a compact JSON object, or a
// problem and its code. Absent or empty arguments, "" included, are {}.
func (c *call) finalArgs(maxDepth int) ([]byte, syntax.Code, string) {
	if c.final != nil {
		return c.final, "", ""
	}
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
	return checkArgs(text, maxDepth)
}

// agrees reports whether text is the call's arguments given whole: the same
// bytes (a Responses stream's done events repeat its deltas), the same once
// compacted, or the same JSON value written otherwise (jsonscan.Equal: a
// server that re-serialises arguments may escape other characters, write
// numbers otherwise or order members otherwise).
func (c *call) agrees(text []byte, maxDepth int) bool {
	text = jsonscan.TrimSpace(text)
	if bytes.Equal(text, jsonscan.TrimSpace(c.whole)) {
		return true
	}
	if c.final == nil || len(text) == 0 {
		return false
	}
	args, _, problem := checkArgs(text, maxDepth)
	return problem == "" && (bytes.Equal(args, c.final) || jsonscan.Equal(args, c.final))
}

// emptyObject reports whether b is the JSON object {} (white space aside).
func emptyObject(b []byte) bool {
	b = jsonscan.TrimSpace(b)
	return len(b) >= 2 && b[0] == '{' && b[len(b)-1] == '}' && len(jsonscan.TrimSpace(b[1:len(b)-1])) == 0
}

// checkArgs returns text, which is not empty, as a compact JSON object, or
// says why it is not one.
func checkArgs(text []byte, maxDepth int) ([]byte, syntax.Code, string) {
	js := jsonscan.NewJSON(maxDepth)
	out, n := js.ScanCompact(make([]byte, 0, len(text)), text) // validated and compacted in one pass
	if !js.Done() && js.Err() == nil {
		js.End()
	}
	switch {
	case js.Err() != nil:
		return nil, js.Err().Code(), "its arguments are not valid JSON (" + js.Err().Msg() + " at byte " + strconv.FormatInt(js.Err().Offset, 10) + ")"
	case len(jsonscan.TrimSpace(text[n:])) > 0:
		return nil, syntax.CodeInvalidJSON, "its arguments hold more than one JSON value"
	case jsonscan.Kind(text) != '{':
		return nil, syntax.CodeMalformed, "its arguments are " + jsonscan.KindName(jsonscan.Kind(text)) + ", not a JSON object"
	}
	return out, "", ""
}

// endMessage ends the assistant message: calls not yet complete are
// completed in order (if cut says the message was cut off, the last one is
// reported as cut off), and execute follows if any call was valid.
func (p *parser) endMessage(span syntax.Span, cut string) {
	p.endContent(span)
	calls := p.msg.calls
	p.msg.calls = nil // so that completing each one does not compact the list
	last := len(calls) - 1
	for last >= 0 && calls[last].done {
		last--
	}
	for i, c := range calls {
		reason := ""
		if i == last {
			reason = cut
		}
		p.completeCall(c, reason)
	}
	if cut != "" && last < 0 && p.msg.textLast {
		// Text or a thought was being written, not a call: its end is
		// missing. Said, so that the cut is not taken for a clean end.
		p.Errorf(syntax.CodeTruncated, p.docStart, span, nil,
			"%s (%s): its last text is incomplete", CutOff, cut)
	}
	if p.msg.emitted+p.contentDone() > 0 {
		p.Emit(syntax.Event{Type: syntax.Execute, Span: span})
	}
	p.msg.reset()
}

// endOfStream reports what the stream left unfinished.
func (p *parser) endOfStream() {
	p.abandon("the stream ended before the call was complete", "the stream ended before the message did", true)
}

// abandon ends a message that will never end: its open calls are truncated
// errors (cut says why), and if it emitted calls, one truncated error
// (ended says why) stands for the execute they do not get; with textCut,
// one says so of a message that ends in text (the stream ended in it).
func (p *parser) abandon(cut, ended string, textCut bool) {
	p.EndRun()
	p.endContent(syntax.Span{Start: p.Offset(), End: p.Offset()})
	calls := p.msg.calls
	p.msg.calls = nil
	for _, c := range calls {
		p.completeCall(c, cut)
	}
	if n := p.msg.emitted + p.contentDone(); n > 0 {
		first := p.msg.first
		if p.msg.emitted == 0 {
			first = p.Pos()
		}
		p.Errorf(syntax.CodeTruncated, first, syntax.Span{Start: first.Offset, End: first.Offset}, nil,
			"%s: its %d call(s) get no execute", ended, n)
	} else if textCut && len(calls) == 0 && p.msg.textLast {
		at := p.Pos()
		p.Errorf(syntax.CodeTruncated, at, syntax.Span{Start: at.Offset, End: at.Offset}, nil,
			"%s: %s; its last text may be incomplete", CutOff, ended)
	}
	p.msg.reset()
}
