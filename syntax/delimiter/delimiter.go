package delimiter

import (
	"fmt"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/internal/held"
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/trail"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the delimiter syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "delimiter",
	Aliases:     []string{"section", "§"},
	Description: "legacy §think: §call: §execute §respond: §end delimiters",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
}

const promptRules = `Write each part of your message after a delimiter:
- §think: your reasoning (optional).
- §call: one JSON object {"name": TOOL, "args": {...}} per call; several §call: lines form one batch.
- §execute after the calls: REQUIRED, or the calls are not run. Then stop and wait.
- Results come back as lines [SYSTEM: ...], one per call, in order.
- §respond: your answer to the user. §end when the task is complete.`

// The section sign § is two bytes in UTF-8.
const (
	sect0 = 0xC2
	sect1 = 0xA7
)

// The delimiters' keywords, after §, matched in any letter case. Those with a
// colon take the text that follows; the others must not run on into a word.
var keywords = [...]string{"think:", "call:", "respond:", "execute", "end"}

const systemPrefix = "[SYSTEM:"

type state uint8

const (
	inText     state = iota
	inCallWS         // after §call:, before the JSON
	inCallJSON       // inside the call's JSON
	afterEnd
)

type parser struct {
	scan.Core
	waker       jsonscan.StringWaker // inside a JSON string, which chunks can complete an event
	state       state
	run         syntax.Type // the kind of text now: respond, or think after §think:
	atLineStart bool

	// The call being read.
	callStart syntax.Pos // the §call: delimiter
	callEnd   int64      // just after the delimiter
	jsonStart syntax.Pos
	blk       scan.Block // the call's JSON
	js        jsonscan.JSON
	args      jsoncall.ArgStream // token mode: streams the call's arguments

	pending    held.Calls // calls since the last §execute
	pendingPos syntax.Pos // where the first of them starts
	pendingAt  int64      // the offset where the first of them starts
	batch      held.Calls // the calls of the last executed batch
	resultIdx  int        // results seen since the last §execute

	// [SYSTEM: candidates.
	sysScanned   int   // how far the open candidate has been searched
	noCloseUntil int64 // no "]" ends a line before this offset (searched already)

	endSpan syntax.Span
	trail   trail.Trail
}

// newParser returns a delimiter parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{run: syntax.Respond, atLineStart: true}
	p.Init(h, opts, p.step, p.finish)
	p.args = jsoncall.ArgStream{Emit: p.Emit, JSON: &p.js}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	var n int
	switch p.state {
	case inCallWS:
		n = p.callWS(data, eof)
	case inCallJSON:
		n = p.callJSON(data)
	case afterEnd:
		n = p.trail.Add(&p.Core, data)
	default:
		n = p.text(data, eof)
	}
	p.setWake()
	return n
}

// textWake holds the bytes at which an event can complete in text: a § (its
// first byte) and a line end ([SYSTEM: lines end there).
var textWake = scan.Bytes("\xc2\n")

// setWake tells the core which bytes can complete an event in this state.
func (p *parser) setWake() {
	switch {
	case p.state == inText:
		p.WakeOn(textWake)
	case p.state == inCallJSON && p.waker.Sync(&p.js):
		p.WakeWith(&p.waker)
	default:
		p.WakeOn(nil)
	}
}

// text handles text: it stops at every § and at every line start, where a
// delimiter or a [SYSTEM: line may begin.
func (p *parser) text(data []byte, eof bool) int {
	off := p.Offset()
	if p.atLineStart && data[0] == '[' {
		if n := p.system(data, eof); n != 1 {
			return n // 0: undecided; more: a result line
		}
	}
	if data[0] == sect0 {
		if n, ok := p.delimiter(data, eof); n == 0 || ok {
			return n
		}
	}
	i := 0
	if data[0] == sect0 {
		i = 1 // a § that is not a delimiter
	}
	for i < len(data) && data[i] != '\n' && data[i] != sect0 {
		i++
	}
	if i < len(data) && data[i] == '\n' {
		i++
		p.atLineStart = true
	} else {
		p.atLineStart = false
	}
	p.Text(p.run, data[:i], off)
	return i
}

// delimiter checks for a delimiter at data[0] == 0xC2. It returns the bytes
// it took and ok when there is one; n == 0 means more input is needed.
func (p *parser) delimiter(data []byte, eof bool) (n int, ok bool) {
	kw, n := matchDelimiter(data, eof)
	switch {
	case n < 0:
		return 1, false // the § is text
	case n == 0:
		return 0, false
	}
	p.act(kw, n)
	return n, true
}

func (p *parser) act(kw string, n int) {
	off := p.Offset()
	p.Evident(off) // a delimiter: the detector's evidence
	span := syntax.Span{Start: off, End: off + int64(n)}
	p.atLineStart = false
	switch kw {
	case "think:":
		p.run = syntax.Think
		p.BeginRun(syntax.Think, off)
	case "respond:":
		p.run = syntax.Respond
		p.BeginRun(syntax.Respond, off)
	case "call:":
		p.EndRun()
		p.callStart = p.Pos()
		p.callEnd = span.End
		p.state = inCallWS
	case "execute":
		p.EndRun()
		p.Emit(syntax.Event{Type: syntax.Execute, Span: span})
		p.batch, p.pending = p.pending, p.batch
		p.pending.Reset()
		p.resultIdx = 0
		p.run = syntax.Respond
	case "end":
		p.EndRun()
		p.reportPending()
		p.endSpan = span
		p.state = afterEnd
	}
}

// reportPending reports calls that no §execute followed.
func (p *parser) reportPending() {
	if p.pending.Len() == 0 {
		return
	}
	p.Errorf(syntax.CodeNotAllowed, p.pendingPos, syntax.Span{Start: p.pendingAt, End: p.pendingAt}, nil,
		"call without §execute: %d call(s) were not followed by §execute (%s)", p.pending.Len(), p.pending.Names(20))
	p.pending.Reset()
}

// callWS skips the white space after §call:, which is not content.
func (p *parser) callWS(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if i == len(data) {
		return i
	}
	if i > 0 {
		return i
	}
	if data[0] != '{' && !eof && !utf8.FullRune(data) {
		return 0 // the error message names the character: wait for all of it
	}
	p.jsonStart = p.Pos()
	p.blk.Reset()
	p.js.Reset(p.Options().DepthLimit())
	p.args.Reset()
	if data[0] != '{' {
		code := syntax.CodeInvalidJSON
		if data[0] == '[' || data[0] == '"' { // JSON, but not an object
			code = syntax.CodeMalformed
		}
		p.badCall(code, fmt.Sprintf("§call: must be followed by a JSON object, not %s", describe(data)), p.jsonStart)
		return scan.Again // the text is read again, as respond text
	}
	p.state = inCallJSON
	return scan.Again
}

// callJSON reads the call's JSON object, JSON-aware: a § inside a string is content.
func (p *parser) callJSON(data []byte) int {
	n := p.args.ScanBlock(&p.blk, p.Options().BlockLimit(), data, p.Offset(), p.Options().Mode == syntax.TokenMode)
	switch {
	case p.js.Done():
		p.finishCall()
	case p.js.Err() != nil:
		p.badCall(p.js.Err().Code(), "invalid JSON: "+p.js.Err().Msg(), scan.Advance(p.jsonStart, p.blk.Bytes))
	}
	if n == 0 { // the error was at the first byte: text reads it
		return scan.Again
	}
	return n
}

// badCall reports a §call: whose JSON is not a call. The error covers the
// delimiter; the JSON read so far becomes respond text (the protocol's rule:
// invalid JSON is treated as content), and text goes on from there.
func (p *parser) badCall(code syntax.Code, problem string, at syntax.Pos) {
	p.state = inText
	p.run = syntax.Respond
	span := syntax.Span{Start: p.callStart.Offset, End: p.callEnd}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.callStart, syntax.Span{Start: span.Start, End: p.jsonStart.Offset + p.blk.Len}, nil,
			"§call: JSON longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	p.Errorf(code, p.callStart, span, nil, "§call: at %s: %s; the text is kept as respond", at, problem)
	p.Text(syntax.Respond, p.blk.Bytes, p.jsonStart.Offset)
}

func (p *parser) finishCall() {
	if p.blk.Over {
		p.badCall(syntax.CodeOverLimit, "", p.jsonStart)
		return
	}
	name, id, args, problem := jsoncall.ReadCall(p.blk.Bytes, jsoncall.Default)
	if problem != "" {
		p.badCall(syntax.CodeMalformed, "the JSON object "+problem, p.jsonStart)
		return
	}
	p.state = inText
	p.run = syntax.Respond
	e := syntax.Event{Type: syntax.Call, Name: name, ID: id, Args: args, Pos: p.callStart,
		Span: syntax.Span{Start: p.callStart.Offset, End: p.jsonStart.Offset + p.blk.Len}}
	if !p.pending.Add(name, id, p.Options().BlockLimit()) {
		p.Errorf(syntax.CodeOverLimit, p.callStart, e.Span, nil,
			"§call: the batch holds more calls (%d so far) than the limit of %d bytes allows; this call is not delivered", p.pending.Len(), p.Options().BlockLimit())
		return
	}
	if p.pending.Len() == 1 {
		p.pendingPos, p.pendingAt = p.callStart, p.callStart.Offset
	}
	p.Emit(e)
}

// system decides whether data, at the start of a line, begins a result line
// "[SYSTEM: …]": from "[SYSTEM:" to the first "]" that ends a line (or the
// input), which must lie within the first MaxBlock bytes of the line (so
// that the decision does not depend on how the input was cut into chunks).
// It returns 0 while undecided, 1 when it is not one (the caller takes the
// "[" as text), or the length of the result line.
func (p *parser) system(data []byte, eof bool) int {
	full, partial := scan.MatchPrefix(data, systemPrefix)
	if partial && !eof {
		return 0
	}
	if !full {
		p.sysScanned = 0
		return 1
	}
	off := p.Offset()
	limit := p.Options().BlockLimit()
	stop := min(len(data), limit) // where a "]" may stand
	from := max(p.sysScanned, len(systemPrefix), int(p.noCloseUntil-off))
	for from < stop {
		j := indexByte(data[from:stop], ']')
		if j < 0 {
			from = stop
			break
		}
		j += from
		end, ok := lineEnd(data, j+1, eof)
		if end < 0 { // "]" or "]\r" at the end of the data: wait
			p.sysScanned = j
			return 0
		}
		if ok {
			p.sysScanned = 0
			p.result(data[:end], data[len(systemPrefix):j], off)
			return end
		}
		from = j + 1
	}
	if !eof && from < limit {
		p.sysScanned = from
		return 0
	}
	// No "]" ends a line: it is text. Remember what was searched.
	p.noCloseUntil = off + int64(from)
	p.sysScanned = 0
	return 1
}

// lineEnd checks whether data[i:] starts a line end (or is the end of the
// input). It returns the index after the line end and true; -1 when more
// input is needed; or i and false.
func lineEnd(data []byte, i int, eof bool) (int, bool) {
	switch {
	case i == len(data):
		if eof {
			return i, true
		}
		return -1, false
	case data[i] == '\n':
		return i + 1, true
	case data[i] == '\r':
		if i+1 == len(data) {
			if eof {
				return i + 1, true
			}
			return -1, false
		}
		if data[i+1] == '\n' {
			return i + 2, true
		}
	}
	return i, false
}

func (p *parser) result(line, inner []byte, off int64) {
	call := p.batch.At(p.resultIdx) // the call at the result's position in the last batch
	p.resultIdx++
	p.atLineStart = true
	p.Emit(syntax.Event{Type: syntax.Result, Tool: call.Name, ID: call.ID, Status: syntax.Success,
		Value: params.Quote(nil, jsonscan.TrimSpace(inner)),
		Span:  syntax.Span{Start: off, End: off + int64(len(line))}})
}

func (p *parser) finish(end int64) {
	switch p.state {
	case inCallWS:
		p.Errorf(syntax.CodeTruncated, p.callStart, syntax.Span{Start: p.callStart.Offset, End: end}, nil, "§call: at the end of the stream, with no JSON after it")
		p.state = inText
	case inCallJSON:
		if p.blk.Over {
			p.badCall(syntax.CodeOverLimit, "", p.jsonStart)
		} else {
			p.badCall(syntax.CodeTruncated, "truncated call: the stream ended inside the JSON object", scan.Advance(p.jsonStart, p.blk.Bytes))
		}
		p.EndRun()
	}
	if p.state == afterEnd {
		p.trail.Report(&p.Core, "§end")
		p.Emit(syntax.Event{Type: syntax.End, Span: p.endSpan})
		return
	}
	p.EndRun()
	p.reportPending()
}

func equalFold(b []byte, lower string) bool {
	for i := range len(lower) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// describe names the character at the start of b.
func describe(b []byte) string {
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x", b[0])
	}
	return fmt.Sprintf("%q", r)
}

// matchDelimiter reads the delimiter at the start of b, which starts with
// the first byte of §: its keyword and length, n == 0 when more input is
// needed to tell, n < 0 when there is none.
func matchDelimiter(b []byte, eof bool) (kw string, n int) {
	if len(b) < 2 {
		if eof {
			return "", -1
		}
		return "", 0
	}
	if b[1] != sect1 {
		return "", -1
	}
	rest := b[2:]
	wait := false
	for _, kw := range keywords {
		if len(rest) < len(kw) {
			wait = wait || !eof && equalFold(rest, kw[:len(rest)])
			continue
		}
		if !equalFold(rest[:len(kw)], kw) {
			continue
		}
		if kw[len(kw)-1] != ':' { // execute, end: no word may follow
			if len(rest) == len(kw) && !eof {
				return "", 0
			}
			if len(rest) > len(kw) && isWordByte(rest[len(kw)]) {
				continue
			}
		}
		return kw, 2 + len(kw)
	}
	if wait {
		return "", 0
	}
	return "", -1
}
