package llama3

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the llama3 syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "llama3",
	Aliases:     []string{"llama3-json"},
	Description: `Llama 3.1/3.2/3.3: {"name": …, "parameters": {…}} opening the message, <|python_tag|> built-in calls; xLAM's [{"name": …, "arguments": {…}}]`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Variants: []syntax.Variant{
		{Name: "xlam", Description: `xLAM: a message's calls as one JSON array, [{"name": …, "arguments": {…}}], opening it`, Render: newRendererXLAM,
			Prompt: promptXLAM, Models: []string{"*xlam*", "*hammer2*"}},
	},
	Prompt:     promptRules,
	CompleteAt: completeAt,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"llama-3.1*", "llama-3.2*", "llama-3.3*", "llama3.1*", "llama3.2*", "llama3.3*", "meta-llama-3.1*", "*-llama-3.1-*", "*llama-3.3-*", "*functionary*v3.1*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"Respond in the format {\"name\": function name, \"parameters\""}},
		{All: []string{"<|python_tag|>", "\"parameters\""}},
		{All: []string{"<function=", "</function>"}, None: []string{"<parameter="}}, // Functionary v3.1
	},
}

// promptRules follow the instruction Meta's Llama 3.1 chat template gives
// for JSON tool calls.
const promptRules = `Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.
Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.
- The call must be the whole reply: start it with the JSON object, write nothing before it. Several calls are separated by "; ".
- Tool results come back in a message of role ipython. Reply to the user in plain text that does not start with "{".`

// promptXLAM follows the instruction of xLAM's example chat template.
const promptXLAM = `To call tools, reply with nothing but a JSON array of calls:
[{"name": "tool_call_name", "arguments": {"arg1": "value1", "arg2": "value2"}}, ... (additional parallel tool calls as needed)]
- The array is strict JSON and opens your reply; each call has "name" and "arguments" (an object).
- Tool results come back in the next message. Reply to the user in plain text that does not start with "[" or "{".`

// The special tokens of Llama 3.x that the parser reads.
const (
	pythonTag   = "<|python_tag|>"
	eomID       = "<|eom_id|>"
	eotID       = "<|eot_id|>"
	startHeader = "<|start_header_id|>"
	endHeader   = "<|end_header_id|>"
)

// The tags of Llama 3.1's custom function format (Meta's prompt guide),
// which Functionary v3.1 writes: <function=NAME>{"arg": 1}</function>.
const (
	funcOpen  = "<function="
	funcClose = "</function>"
	maxName   = 256
)

// markers are the tokens that mean something in text, and at the start of
// a message (where a JSON call may also begin).
var markers = [...]string{pythonTag, eomID, eotID, startHeader}

// maxRole bounds a header's role: <|end_header_id|> must come within it.
const maxRole = 64

type state uint8

const (
	stStart   state = iota // the start of a message: white space, then a call or text
	stTag                  // after <|python_tag|>: white space, then JSON, a built-in call or code
	stJSON                 // inside a JSON object that may be a call
	stArray                // inside a JSON array of call objects opening the message (xLAM)
	stFunc                 // the JSON arguments after <function=NAME>
	stFuncEnd              // after them: white space, then </function> or not
	stBuiltin              // inside the arguments of NAME.call(
	stCode                 // code after <|python_tag|>: a code_interpreter call
	stAfter                // after a call: white space and ';', then another call, text or the end
	stText                 // respond text, to the end of the message
	stSwallow              // after a broken call: the rest of the message is its error's raw
	stHeader               // after <|start_header_id|>: the role
	stResult               // the content of an ipython message
	stOther                // the content of a message of another role
)

type parser struct {
	scan.Core
	waker jsonscan.StringWaker // inside a JSON string, which chunks can complete an event
	state state

	// The message.
	calls    int   // valid calls in the message
	execFrom int64 // where its calls begin (the first call, or the <|python_tag|> before it)
	started  bool  // a call, or a <|python_tag|>, was seen in the message: execFrom is set

	// The block being read: a JSON candidate, a built-in call, code, a
	// broken call's rest, a header, a result.
	blk      scan.Block
	blkStart syntax.Pos // where the block starts (a <|python_tag|> before its body, or a header, included)
	bodyAt   syntax.Pos // where its body starts
	bodyOff  int        // and at which index of blk.Bytes
	tagged   bool       // the block starts with <|python_tag|>
	cs       callScan
	arr      jsonscan.JSON // stArray, stFunc: finds where the array or the arguments end
	first    callScan      // stArray: reads the first element, which decides whether the array is calls
	firstAt  int           // its '{' in blk.Bytes, -1 before it came
	firstN   int           // the bytes of blk.Bytes it has read
	firstIs  firstVerdict
	funcBody bool          // stFunc: the arguments have started (bodyAt is set)
	pendErr  *syntax.Event // a call attempt's error, held while the separators after it are read
	streamed int           // calls streamed so far (token mode index)
	errCode  syntax.Code
	errMsg   string
	name     string  // built-in: the tool
	end      argsEnd // built-in: finds the closing ')'

	// Results.
	batch     []string // the names of the last message's calls
	resultIdx int
	role      string
	codeAtEnd bool // the input ended inside code (for completeAt)
}

// newParser returns a llama3 parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	if opts.Mode == syntax.TokenMode {
		p.cs.as.Emit = p.Emit
	}
	return p
}

// textWake: in text, only a marker (or the end) completes an event.
var textWake = scan.Bytes("<")

func (p *parser) step(data []byte, eof bool) int {
	n := p.step1(data, eof)
	switch {
	case p.state == stText:
		p.WakeOn(textWake)
	case p.state == stJSON && p.waker.Sync(&p.cs.js):
		p.WakeWith(&p.waker)
	default:
		p.WakeOn(nil)
	}
	return n
}

func (p *parser) step1(data []byte, eof bool) int {
	if p.state != stAfter {
		p.flushErr()
	}
	switch p.state {
	case stTag:
		return p.afterTag(data, eof)
	case stJSON:
		return p.jsonBytes(data)
	case stArray:
		return p.arrayBytes(data)
	case stFunc:
		return p.funcBytes(data)
	case stFuncEnd:
		return p.funcEnd(data, eof)
	case stBuiltin:
		return p.builtinBytes(data)
	case stCode, stSwallow, stResult, stOther:
		return p.untilEnd(data, eof)
	case stAfter:
		return p.afterCall(data, eof)
	case stText:
		return p.text(data, eof)
	case stHeader:
		return p.header(data, eof)
	}
	return p.start(data, eof)
}

// cutMarker reports whether data is a proper prefix of a marker other
// than <|python_tag|> (one cut off by the end of the input).
func cutMarker(data []byte) bool {
	for _, mk := range markers[1:] {
		if _, partial := scan.MatchPrefix(data, mk); partial {
			return true
		}
	}
	return false
}

// start handles the start of a message: white space (no event's), then a
// JSON object (a call candidate), <|python_tag|>, a marker, or text.
func (p *parser) start(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		p.Blank(p.Offset(), i)
		return i
	}
	switch data[0] {
	case '{':
		p.beginJSON(false)
		return scan.Again
	case '[':
		switch arrayHead(data, eof) {
		case headWait:
			return 0
		case headYes:
			p.beginArray()
			return scan.Again
		}
	case '<':
		if n := p.tagAt(data, eof); n != 0 {
			return max(n, 0)
		}
	}
	p.state = stText
	return scan.Again
}

// tagAt handles a marker or a function tag at data[0] == '<': it returns
// the bytes taken, -1 when more input is needed, 0 when data starts with
// neither.
func (p *parser) tagAt(data []byte, eof bool) int {
	m, wait := scan.MatchAny(data, eof, markers[:])
	if m != "" {
		return p.act(m)
	}
	n, name := funcTag(data, eof)
	switch {
	case n > 0:
		p.beginFunc(data[:n], name)
		return n
	case n < 0 || wait:
		return -1
	}
	return 0
}

// funcTag matches <function=NAME> and the '{' after it at the start of
// data; NAME is 1 to 256 bytes, none of them white space, '<', '>', '{',
// '}' or a quote. It returns the tag's length ('{' excluded) and NAME; 0
// when data starts with none; -1 when more input is needed.
func funcTag(data []byte, eof bool) (int, string) {
	full, partial := scan.MatchPrefix(data, funcOpen)
	if !full {
		if partial && !eof {
			return -1, ""
		}
		return 0, ""
	}
	for i := len(funcOpen); i < len(data) && i <= len(funcOpen)+maxName; i++ {
		switch c := data[i]; {
		case c == '>':
			switch {
			case i == len(funcOpen):
				return 0, ""
			case i+1 == len(data) && !eof:
				return -1, ""
			case i+1 < len(data) && data[i+1] == '{':
				return i + 1, string(data[len(funcOpen):i])
			}
			return 0, ""
		case c <= ' ' || c == '<' || c == '{' || c == '}' || c == '"' || c == '\'':
			return 0, ""
		}
	}
	if eof || len(data) > len(funcOpen)+maxName {
		return 0, ""
	}
	return -1, ""
}

const (
	headNo = iota
	headYes
	headWait
)

// maxArrayHead bounds the white space arrayHead looks through.
const maxArrayHead = 256

// arrayHead decides whether data, which starts with '[', may open an array
// of call objects: '[', white space, '{', white space, and "name" as the
// first key (xLAM writes it first, as its template does). Anything else is
// text; an array that may be calls is decided by its first element (see
// beginArray).
func arrayHead(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 1)
	for _, want := range [...]string{"{", `"name"`} {
		if i >= maxArrayHead {
			return headNo
		}
		full, partial := scan.MatchPrefix(data[i:], want)
		switch {
		case partial && !eof:
			return headWait
		case !full:
			return headNo
		}
		i = jsonscan.SkipSpace(data, i+len(want))
	}
	return headYes
}

// act handles a marker at the start of the data, outside any block, and
// returns its length.
func (p *parser) act(m string) int {
	off := p.Offset()
	p.Evident(off) // Llama 3's special tokens, no other syntax's
	end := off + int64(len(m))
	switch m {
	case pythonTag:
		p.EndRun()
		p.sectionFrom(off)
		p.beginBlock(true)
		p.Keep(&p.blk, []byte(pythonTag))
		p.state = stTag
	case eomID, eotID:
		p.endMessage(end)
		p.state = stStart
	case startHeader:
		p.endMessage(off)
		p.beginBlock(false)
		p.Keep(&p.blk, []byte(startHeader))
		p.state = stHeader
	}
	return len(m)
}

// beginBlock starts a block at the data's first byte; tagged says it is
// a <|python_tag|> and what follows it.
func (p *parser) beginBlock(tagged bool) {
	p.blk.Reset()
	p.blkStart = p.Pos()
	p.bodyAt, p.bodyOff = p.blkStart, 0
	p.tagged = tagged
}

// beginBody notes that the block's body (a JSON object, a built-in call,
// code) starts at the data's first byte.
func (p *parser) beginBody() {
	p.bodyAt = p.Pos()
	p.bodyOff = len(p.blk.Bytes)
}

// body is the bytes of the block's body so far.
func (p *parser) body() []byte { return p.blk.Bytes[min(p.bodyOff, len(p.blk.Bytes)):] } // none once over the limit

// bodySpan is the span of the block's body so far.
func (p *parser) bodySpan() syntax.Span {
	return syntax.Span{Start: p.bodyAt.Offset, End: p.blkStart.Offset + p.blk.Len}
}

// blockSpan is the span of the block so far.
func (p *parser) blockSpan() syntax.Span {
	return syntax.Span{Start: p.blkStart.Offset, End: p.blkStart.Offset + p.blk.Len}
}

// raw is the block's text for an error, none when it went over the limit.
func (p *parser) raw() []byte {
	if p.blk.Over {
		return nil
	}
	return p.blk.Bytes
}

// sectionFrom notes where the message's calls begin, at the first.
func (p *parser) sectionFrom(off int64) {
	if !p.started {
		p.started = true
		p.execFrom = off
	}
}

// endMessage ends the message at end (after its stop token, if any): the
// open text run closes there, and a message with a valid call gets its
// execute.
func (p *parser) endMessage(end int64) {
	p.EndRunAt(end)
	if p.calls > 0 {
		p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: p.execFrom, End: end}})
	}
	p.calls, p.started = 0, false
}

// text handles respond text: it stops where a marker may start.
func (p *parser) text(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 {
		return n
	}
	if n := p.tagAt(data, eof); n != 0 {
		return max(n, 0)
	}
	off := p.Offset()
	n := scan.TextUntil(data, '<', func(rest []byte) bool {
		m, wait := scan.MatchAny(rest, eof, markers[:])
		k, _ := funcTag(rest, eof)
		return m != "" || wait || k != 0
	})
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// afterTag handles what follows <|python_tag|>: white space, then a JSON
// call, a built-in call, or code.
func (p *parser) afterTag(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		if len(p.blk.Bytes)+i > p.Options().BlockLimit() {
			p.emptyTag()
			return scan.Again
		}
		p.Keep(&p.blk, data[:i])
		return i
	}
	if data[0] == '{' {
		p.beginJSON(true)
		return scan.Again
	}
	if data[0] == '<' {
		m, wait := scan.MatchAny(data, eof, markers[:])
		if wait {
			return 0
		}
		if m != "" && m != pythonTag || eof && cutMarker(data) {
			p.emptyTag() // a stop token, a header, or one cut off by the end: no call
			return scan.Again
		}
	}
	nameLen, n := matchBuiltin(data, eof)
	if n == 0 && nameLen == 0 {
		return 0
	}
	p.beginBody()
	if n < 0 { // NAME.ca at the end of the input: a built-in call cut off
		p.name = string(data[:nameLen])
		p.Keep(&p.blk, data)
		p.state = stBuiltin
		return len(data)
	}
	if nameLen > 0 {
		p.name = string(data[:nameLen])
		p.end = argsEnd{}
		p.Keep(&p.blk, data[:n])
		p.state = stBuiltin
		return n
	}
	p.state = stCode
	return scan.Again
}

// emptyTag reports a <|python_tag|> with no call after it (the block so
// far: the tag and white space).
func (p *parser) emptyTag() {
	p.callErr(syntax.CodeMalformed, "%s with no call after it", pythonTag)
	p.state = stAfter
}

// beginJSON starts a JSON object that may be a call: after <|python_tag|>
// (tagged) it is one; else it is one if it has a name and arguments.
func (p *parser) beginJSON(tagged bool) {
	p.EndRun()
	if !tagged {
		p.beginBlock(false)
		p.Undecided(p.blkStart.Offset) // a call attempt, or text: its keys tell
	}
	p.beginBody()
	p.cs.reset(p.Options().DepthLimit(), p.streamed)
	p.state = stJSON
}

// jsonBytes scans the JSON object. Its bytes are kept up to the block
// limit; an object that is not yet a call attempt when it reaches the limit
// is text.
func (p *parser) jsonBytes(data []byte) int {
	limit := p.Options().BlockLimit()
	in := data
	if !p.blk.Over {
		room := limit - len(p.blk.Bytes)
		if room <= 0 && !p.attempt() {
			p.toText()
			return scan.Again
		}
		if room > 0 && len(in) > room {
			in = in[:room]
		}
		if room <= 0 {
			p.cs.as.Stop() // these bytes take the block over: no more deltas
		}
	}
	n := p.cs.scan(in, p.Offset())
	p.Keep(&p.blk, in[:n])
	if p.cs.as.Shaped() || p.cs.js.Err() != nil && p.cs.as.Keyed() {
		p.attemptAt() // a call attempt: the object has its keys
	}
	if p.cs.as.Started() && p.cs.as.Index() == p.streamed {
		p.streamed++
	}
	switch {
	case p.cs.js.Done():
		p.jsonDone()
	case p.cs.js.Err() != nil:
		if !p.attempt() {
			p.toText()
		} else {
			p.swallow(p.cs.js.Err(), "call")
		}
	}
	if n == 0 {
		return scan.Again
	}
	return n
}

type firstVerdict uint8

const (
	firstUndecided firstVerdict = iota
	firstCall                   // the first element is a call attempt: the array is calls
	firstText                   // it is not: the array is text
)

// beginArray starts a JSON array that may be calls (arrayHead said it
// starts so): its first element decides, as a JSON object opening the
// message is decided — a call attempt once it has a name and arguments
// (or, cut off or broken, one of those keys), else text.
func (p *parser) beginArray() {
	p.EndRun()
	p.beginBlock(false)
	p.Undecided(p.blkStart.Offset) // calls, or text: the first element tells
	p.beginBody()
	p.arr.Reset(p.Options().DepthLimit())
	p.first.reset(p.Options().DepthLimit(), 0)
	p.firstAt, p.firstN, p.firstIs = -1, 0, firstUndecided
	p.state = stArray
}

// readFirst reads the array's first element as far as blk holds it.
func (p *parser) readFirst() {
	b := p.blk.Bytes
	if p.firstIs != firstUndecided || p.blk.Over {
		return
	}
	if p.firstAt < 0 {
		k := bytes.IndexByte(b, '{')
		if k < 0 {
			return
		}
		p.firstAt, p.firstN = k, k
	}
	p.firstN += p.first.scan(b[p.firstN:], 0)
	switch {
	case p.first.as.Shaped() || p.first.js.Err() != nil && p.first.as.Keyed():
		p.firstIs = firstCall
		p.attemptAt()
	case p.first.js.Done() || p.first.js.Err() != nil:
		p.firstIs = firstText
	}
}

// arrayBytes scans the array; its calls come when it is complete.
func (p *parser) arrayBytes(data []byte) int {
	limit := p.Options().BlockLimit()
	in := data
	if room := limit - len(p.blk.Bytes); !p.blk.Over && p.firstIs == firstUndecided && room < len(in) {
		if room <= 0 {
			p.toText() // not yet a call attempt at the limit: text from here
			return scan.Again
		}
		in = in[:room]
	}
	n := p.arr.Scan(in)
	p.Keep(&p.blk, in[:n])
	p.readFirst()
	if p.firstIs == firstText {
		p.toText()
		return max(n, scan.Again)
	}
	if p.arr.Err() != nil && p.firstIs == firstUndecided && p.firstAt >= 0 && n < len(in) {
		// The array broke inside its first element: the element's own
		// scan sees the same byte, and decides as an object opening the
		// message would (broken after a call's key: a call attempt).
		p.first.scan(in[n:n+1], 0)
		if p.first.js.Err() != nil && p.first.as.Keyed() {
			p.firstIs = firstCall
			p.attemptAt()
		}
	}
	switch {
	case p.arr.Done():
		p.arrayDone()
	case p.arr.Err() != nil && p.firstIs != firstCall:
		p.toText() // broken before the first element said it is a call
	case p.arr.Err() != nil:
		p.swallow(p.arr.Err(), "call array")
	}
	if n == 0 {
		return scan.Again
	}
	return n
}

// arrayDone reads a complete array: each element is a call or an error of
// its own, its span running from the end of the one before it (the
// array's start for the first) to its own end (the array's end for the
// last). In token mode each call is announced, then sent, in turn.
func (p *parser) arrayDone() {
	p.state = stAfter
	if p.blk.Over {
		p.callErr(syntax.CodeOverLimit, "call array longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	body, base := p.body(), p.bodyAt
	count := 0
	jsonscan.Elements(body, func([]byte, int) bool { count++; return true })
	from, i := base.Offset, 0
	pos, last := base, 0
	jsonscan.Elements(body, func(elem []byte, at int) bool {
		end := base.Offset + int64(at+len(elem))
		if i == count-1 {
			end = base.Offset + int64(len(body))
		}
		span := syntax.Span{Start: from, End: end}
		from = end
		i++
		pos, last = scan.Advance(pos, body[last:at]), at
		if jsonscan.Kind(elem) != '{' {
			p.Emit(syntax.Event{Type: syntax.Error, Code: syntax.CodeMalformed, Pos: pos, Span: span, Raw: string(elem),
				Message: fmt.Sprintf("call array element %d is %s, not a call object", i, jsonscan.KindName(jsonscan.Kind(elem)))})
			return true
		}
		name, id, args, _, problem := readCall(elem, true)
		if problem == "" && !hasArgsKey(elem) {
			problem = "the call " + name + " has no \"arguments\" or \"parameters\""
		}
		if problem != "" {
			p.Emit(syntax.Event{Type: syntax.Error, Code: syntax.CodeMalformed, Pos: pos, Span: span, Raw: string(elem),
				Message: fmt.Sprintf("call array element %d: %s", i, problem)})
			return true
		}
		if p.Options().Mode == syntax.TokenMode {
			csp := syntax.Span{Start: base.Offset + int64(at), End: base.Offset + int64(at+len(elem))}
			p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: p.streamed, Span: csp})
			p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: p.streamed, Delta: string(args), Span: csp})
			p.streamed++
		}
		p.sectionFrom(span.Start)
		p.bodyAt = pos
		p.call(name, id, args, span)
		return true
	})
}

// beginFunc starts a call of Llama 3.1's function form: tag is
// <function=NAME>, its arguments follow.
func (p *parser) beginFunc(tag []byte, name string) {
	p.EndRun()
	p.Evident(p.Offset()) // a function tag that opens a call
	p.beginBlock(false)
	p.Keep(&p.blk, tag)
	p.name = strings.ToValidUTF8(name, "\uFFFD") // as a JSON name carries it
	p.arr.Reset(p.Options().DepthLimit())
	p.funcBody = false
	p.state = stFunc
}

// funcBytes scans the arguments after <function=NAME>.
func (p *parser) funcBytes(data []byte) int {
	if !p.funcBody {
		p.funcBody = true
		p.beginBody()
	}
	n := p.arr.Scan(data)
	p.Keep(&p.blk, data[:n])
	switch {
	case p.arr.Done():
		p.state = stFuncEnd
	case p.arr.Err() != nil:
		p.swallow(p.arr.Err(), "call "+p.name)
	}
	if n == 0 {
		return scan.Again
	}
	return n
}

// funcEnd reads what follows a function call's arguments: white space and
// </function> are the call's; without the closer (left out, or cut off at
// the end of the input) the call ends at its arguments.
func (p *parser) funcEnd(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		return i // no event's, whatever follows (taken as it comes: linear)
	}
	full, partial := scan.MatchPrefix(data, funcClose)
	switch {
	case full:
		p.funcDone() // the closer is not kept: it is in no call's span, nor counted in the block
		if p.pendErr != nil {
			p.pendErr.Span.End = p.Offset() + int64(len(funcClose)) // an error covers it
		}
		return len(funcClose)
	case partial && !eof:
		return 0
	}
	p.funcDone()
	return scan.Again
}

// funcDone emits the call of a function tag whose arguments are complete:
// its span runs from the tag to the arguments' end, so that a cut before
// the closer gives the same call; the closer, when it came, is in the
// execute's span, as the separators between calls are.
func (p *parser) funcDone() {
	p.state = stAfter
	if p.blk.Over {
		p.callErr(syntax.CodeOverLimit, "call %s longer than the limit of %d bytes", p.name, p.Options().BlockLimit())
		return
	}
	body := p.body()
	args, k, ok := jsoncall.Args(body, 0)
	if !ok {
		p.callErr(syntax.CodeMalformed, "the arguments of %s are %s, not an object", p.name, jsonscan.KindName(k))
		return
	}
	span := syntax.Span{Start: p.blkStart.Offset, End: p.bodyAt.Offset + int64(len(body))}
	if p.Options().Mode == syntax.TokenMode {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Index: p.streamed, Span: span})
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Index: p.streamed, Delta: string(args), Span: span})
		p.streamed++
	}
	p.bodyAt = p.blkStart
	p.call(p.name, "", args, span)
}

// hasArgsKey reports whether the call object obj has an arguments key.
func hasArgsKey(obj []byte) bool {
	has := false
	jsonscan.MembersRaw(obj, func(kb, _ []byte) bool {
		has = isArgsKey(string(kb))
		return !has
	})
	return has
}

// swallow makes the rest of the message a broken call's error: JSON that
// broke with err inside what (a call, a call array), at the end of the
// body read; over the limit, its bytes are dropped and no position within
// it can be given.
func (p *parser) swallow(err *jsonscan.SyntaxError, what string) {
	if p.blk.Over {
		p.errCode, p.errMsg = syntax.CodeOverLimit, what+" longer than the limit, and invalid JSON"
	} else {
		p.errCode, p.errMsg = err.Code(), "invalid JSON at "+scan.Advance(p.bodyAt, p.body()).String()+": "+err.Msg()
	}
	p.state = stSwallow
}

// callErr reports a call attempt that is no call: the block so far, with
// its text as raw (none over the limit). The error is held while the white
// space and ';' after the block are read, and covers them: it is sent when
// something else starts.
func (p *parser) callErr(code syntax.Code, format string, args ...any) {
	p.flushErr()
	e := syntax.Event{Type: syntax.Error, Code: code, Message: fmt.Sprintf(format, args...), Pos: p.blkStart, Span: p.blockSpan()}
	if !p.blk.Over {
		e.Raw = string(p.blk.Bytes)
	}
	p.pendErr = &e
	p.state = stAfter
}

// flushErr sends the held error, if any.
func (p *parser) flushErr() {
	if p.pendErr != nil {
		e := *p.pendErr
		p.pendErr = nil
		p.Emit(e)
	}
}

// attempt reports whether the JSON object read so far is a call attempt:
// it follows <|python_tag|>, or a key of a call has been seen.
func (p *parser) attempt() bool { return p.tagged || p.cs.as.Keyed() }

// toText makes the JSON object read so far text: it was not a call.
func (p *parser) toText() {
	p.Undecided(-1)
	p.Text(syntax.Respond, p.blk.Bytes, p.blkStart.Offset)
	p.state = stText
}

// attemptAt notes the block (a JSON object or array opening the message)
// decided as a call attempt: the detector's evidence.
func (p *parser) attemptAt() {
	p.Undecided(-1)
	p.Evident(p.blkStart.Offset)
}

// jsonDone decides what a complete JSON object is.
func (p *parser) jsonDone() {
	p.state = stAfter
	if p.blk.Over {
		p.callErr(syntax.CodeOverLimit, "call longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	name, id, args, shaped, problem := readCall(p.body(), p.tagged)
	switch {
	case !shaped && !p.tagged:
		p.toText() // JSON that is not a call, as the user may have asked for
	case problem != "":
		p.callErr(syntax.CodeMalformed, "%s", problem)
	default:
		p.call(name, id, args, p.bodySpan())
	}
}

// call emits a valid call.
func (p *parser) call(name, id string, args []byte, span syntax.Span) {
	p.sectionFrom(span.Start)
	p.calls++
	if p.calls == 1 {
		p.batch, p.resultIdx = p.batch[:0], 0
	}
	p.batch = append(p.batch, name)
	p.Emit(syntax.Event{Type: syntax.Call, Name: name, Args: args, ID: id, Pos: p.bodyAt, Span: span})
}

// builtinBytes reads the arguments of NAME.call( up to their ')'.
func (p *parser) builtinBytes(data []byte) int {
	i := p.end.scan(data)
	n := i
	if i < 0 {
		n = len(data)
	}
	p.Keep(&p.blk, data[:n])
	if i >= 0 {
		p.builtinDone()
	}
	return n
}

func (p *parser) builtinDone() {
	p.state = stAfter
	if p.blk.Over {
		p.callErr(syntax.CodeOverLimit, "built-in call longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	body := p.body()
	args, problem := pyArgs(body[len(p.name)+len(callSuffix) : len(body)-1])
	if problem != "" {
		p.callErr(syntax.CodeMalformed, "built-in call %s: %s", p.name, problem)
		return
	}
	p.call(p.name, "", args, p.bodySpan())
}

// untilEnd takes the bytes of a block that runs to the end of the message
// (code, a broken call's rest, a result, another role's message): to a
// stop token or a header, or the end of the input.
func (p *parser) untilEnd(data []byte, eof bool) int {
	i := 0
	for {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			i = len(data)
			break
		}
		i += j
		m, wait := scan.MatchAny(data[i:], eof, markers[:])
		if wait {
			break
		}
		if m == eomID || m == eotID || m == startHeader {
			p.Keep(&p.blk, data[:i])
			p.blockEnd()
			if i == 0 {
				return scan.Again
			}
			return i
		}
		i++
	}
	p.Keep(&p.blk, data[:i])
	return i
}

// blockEnd ends a block that runs to the end of its message, where a stop
// token or a header (read next), or the input's end, stands.
func (p *parser) blockEnd() {
	st := p.state
	p.state = stAfter
	switch st {
	case stCode:
		p.code()
	case stSwallow:
		if p.blk.Over {
			p.callErr(p.errCode, "%s (the call is longer than the limit of %d bytes)", p.errMsg, p.Options().BlockLimit())
		} else {
			p.callErr(p.errCode, "%s; the rest of the message is the broken call's", p.errMsg)
		}
	case stResult:
		p.result()
		p.state = stStart
	case stOther:
		p.Errorf(syntax.CodeNotAllowed, p.blkStart, p.blockSpan(), p.raw(), "a message of role %q in the model's output: not read", p.role)
		p.state = stStart
	}
}

// code emits the code after <|python_tag|> as a code_interpreter call
// (Meta's reading of such a message), its white space trimmed.
func (p *parser) code() {
	if p.blk.Over {
		p.callErr(syntax.CodeOverLimit, "code longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	body := p.body()
	code := jsonscan.TrimSpace(body)
	span := p.bodySpan()
	span.End -= int64(len(body) - len(bytes.TrimRight(body, " \t\r\n")))
	args := append(syntax.AppendQuote([]byte(`{"code":`), string(code)), '}')
	p.call("code_interpreter", "", args, span)
}

// result emits the content of an ipython message: its JSON value when it
// is JSON, else its text as a string.
func (p *parser) result() {
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.blkStart, p.blockSpan(), nil, "tool result longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	content := jsonscan.TrimSpace(p.body())
	value, ok := jsonscan.Whole(content, 0)
	if ok {
		value = jsonscan.Compact(value)
	} else {
		value = params.Quote(nil, content)
	}
	tool := ""
	if p.resultIdx < len(p.batch) {
		tool = p.batch[p.resultIdx]
	}
	p.resultIdx++
	p.Emit(syntax.Event{Type: syntax.Result, Tool: tool, Status: syntax.Success, Value: value, Span: p.blockSpan()})
}

// afterCall handles what follows a call: white space and ';' between
// calls, another call, a marker, or text.
func (p *parser) afterCall(data []byte, eof bool) int {
	i := 0
	for i < len(data) && (jsonscan.IsSpace(data[i]) || data[i] == ';') {
		i++
	}
	if i > 0 {
		if p.pendErr != nil {
			p.pendErr.Span.End = p.Offset() + int64(i)
		}
		return i
	}
	p.flushErr()
	switch data[0] {
	case '{':
		p.beginJSON(false)
		return scan.Again
	case '<':
		if n := p.tagAt(data, eof); n != 0 {
			return max(n, 0)
		}
	}
	p.state = stText
	return scan.Again
}

// header reads the role of <|start_header_id|>ROLE<|end_header_id|>.
func (p *parser) header(data []byte, eof bool) int {
	if k := bytes.Index(data, []byte(endHeader)); k >= 0 && k <= maxRole {
		p.role = string(bytes.TrimSpace(data[:k]))
		switch p.role {
		case "assistant":
			p.state = stStart
		case "ipython", "tool":
			p.state = stResult
		default:
			p.state = stOther
		}
		n := k + len(endHeader)
		p.Keep(&p.blk, data[:n])
		p.bodyAt, p.bodyOff = scan.Advance(p.Pos(), data[:n]), len(p.blk.Bytes)
		return n
	}
	if len(data) < maxRole+len(endHeader) && !eof {
		return 0
	}
	// No <|end_header_id|> in reach: the header token is an error, and
	// what follows it starts a message.
	code := syntax.CodeMalformed
	if eof && len(data) < maxRole+len(endHeader) {
		code = syntax.CodeTruncated
	}
	p.Errorf(code, p.blkStart, syntax.Span{Start: p.blkStart.Offset, End: p.blkStart.Offset + int64(len(startHeader))}, []byte(startHeader),
		"%s without %s after its role", startHeader, endHeader)
	p.state = stStart
	return scan.Again
}

// keep stores block bytes up to the block limit.

// finish reports what the end of the input left open.
func (p *parser) finish(end int64) {
	switch p.state {
	case stTag:
		p.emptyTag()
	case stJSON:
		if p.cs.as.Keyed() {
			p.attemptAt() // cut off after one of a call's keys: an error, a call attempt
		}
		p.cs.js.End()
		switch {
		case p.cs.js.Done():
			p.jsonDone()
		case !p.attempt():
			p.toText()
		case p.blk.Over:
			p.callErr(syntax.CodeOverLimit,
				"truncated call longer than the limit of %d bytes: the stream ended inside it", p.Options().BlockLimit())
		default:
			p.callErr(syntax.CodeTruncated, "truncated call: the stream ended inside its JSON")
		}
	case stArray:
		p.arr.End()
		p.first.js.End()
		p.readFirst()
		switch {
		case p.arr.Done() && p.firstIs != firstText:
			p.arrayDone()
		case p.firstIs != firstCall && !p.first.as.Keyed():
			p.toText()
		case p.blk.Over:
			p.callErr(syntax.CodeOverLimit,
				"truncated call array longer than the limit of %d bytes: the stream ended inside it", p.Options().BlockLimit())
		default:
			p.callErr(syntax.CodeTruncated, "truncated call array: the stream ended inside its JSON")
		}
	case stFunc:
		if p.blk.Over {
			p.callErr(syntax.CodeOverLimit, "truncated call %s longer than the limit of %d bytes: the stream ended inside it", p.name, p.Options().BlockLimit())
		} else {
			p.callErr(syntax.CodeTruncated, "truncated call %s: the stream ended inside its JSON arguments", p.name)
		}
	case stFuncEnd:
		p.funcDone()
	case stBuiltin:
		p.callErr(syntax.CodeTruncated, "truncated built-in call %s: the stream ended before its ')'", p.name)
	case stCode:
		p.codeAtEnd = true
		p.blockEnd()
	case stSwallow, stResult, stOther:
		p.blockEnd()
	case stHeader:
		p.header(nil, true)
	}
	p.flushErr()
	p.endMessage(end)
}

// completeAt reports whether input, cut off where it ends, ends inside code
// after <|python_tag|>: code has no terminator but the stop token, so any
// cut of it is a complete (shorter) call.
func completeAt(input []byte) bool {
	p := newParser(func(syntax.Event) {}, syntax.Options{}).(*parser)
	p.Write(input)
	p.Close()
	return p.codeAtEnd
}
