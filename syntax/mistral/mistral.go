package mistral

import (
	"bytes"
	"fmt"

	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/internal/held"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the mistral syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "mistral",
	Aliases:     []string{"magistral", "devstral", "ministral"},
	Description: "Mistral [TOOL_CALLS]: v3/v7 JSON arrays, v11 NAME[CALL_ID]ID[ARGS]{…}, v13+ NAME[ARGS]{…}, [THINK], [TOOL_RESULTS]",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	Variants: []syntax.Variant{
		{Name: "mistral-v3", Description: "Mistral v3/v7: [TOOL_CALLS][{\"name\", \"arguments\", \"id\"}, …]", Render: newRendererV3},
	},
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"mistral*", "*-mistral-*", "mixtral*", "magistral*", "devstral*", "ministral*", "codestral*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"[TOOL_CALLS]"}},
	},
}

const promptRules = `To call tools, write [TOOL_CALLS] followed by the tool's name, [ARGS] and a JSON object of its arguments: [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}
- The arguments are strict JSON: quote every key and string.
- Several calls follow each other, each with its own [TOOL_CALLS]. Stop after your calls.
- Think inside [THINK]...[/THINK] (optional).
- Results come back in [TOOL_RESULTS]...[/TOOL_RESULTS] blocks, in the order of your calls.
- Text outside these markers is your answer to the user.`

// The control tokens of the Mistral tokenizers, and Magistral v11's text
// reasoning tags.
const (
	toolCalls    = "[TOOL_CALLS]"
	argsTok      = "[ARGS]"
	callIDTok    = "[CALL_ID]"
	thinkOpen    = "[THINK]"
	thinkClose   = "[/THINK]"
	tagOpen      = "<think>"
	tagClose     = "</think>"
	toolResults  = "[TOOL_RESULTS]"
	toolResultsE = "[/TOOL_RESULTS]"
	toolContent  = "[TOOL_CONTENT]"
	eos          = "</s>"
)

// textMarkers are the markers read in text. </s> is one only in a message
// with [TOOL_CALLS] (it ends the message, and the execute, or the error of
// the call before it, covers it); elsewhere it is text.
var (
	textMarkers  = [...]string{toolCalls, thinkOpen, tagOpen, toolResults, eos}
	textMarkers0 = [...]string{toolCalls, thinkOpen, tagOpen, toolResults}
)

// markers is the list of markers read in text now.
func (p *parser) markers() []string {
	if p.started {
		return textMarkers[:]
	}
	return textMarkers0[:]
}

// Bounds on what is read before a decision.
const (
	maxName = 256 // a tool's name, up to [ARGS], [CALL_ID] or '{'
	maxID   = 64  // a call id, up to [ARGS]
)

type state uint8

const (
	stText    state = iota
	stThink         // inside [THINK] or <think> (closer), or reasoning opened by the prompt
	stCalls         // after [TOOL_CALLS]: white space, then '[' or a name
	stArray         // inside a v3/v7 array, between elements
	stElem          // inside an element of the array
	stName          // the tool's name, up to [ARGS], [CALL_ID] or '{'
	stCallID        // the call id, up to [ARGS]
	stArgsWS        // after [ARGS]: white space, then '{'
	stArgs          // the arguments object
	stSwallow       // after a broken call: to the next marker or the end
	stResults       // inside [TOOL_RESULTS]
)

type parser struct {
	scan.Core
	waker jsonscan.StringWaker // inside a JSON string, which chunks can complete an event
	state state

	thinkStart syntax.Pos
	closer     string // of the open reasoning: [/THINK] or </think>; "" when the prompt opened it (either ends it)
	thinkText  bool   // the open reasoning block has text that is not white space
	gapFrom    int64  // an empty reasoning block started here, and no event covers it yet; -1 if none

	// The message.
	calls    int
	started  bool
	execFrom int64

	// The block: [TOOL_CALLS] and what follows it, or a result.
	blk      scan.Block
	blkStart syntax.Pos
	bodyAt   syntax.Pos
	bodyOff  int
	name     string
	id       string
	inArray  bool // the block is a v3/v7 array
	elemSeen bool // an element of the array came (a ',' must come before the next)
	elems    int  // elements of the array so far
	os       objScan
	streamed int
	pendErr  *syntax.Event
	errCode  syntax.Code
	errMsg   string

	batch     held.Calls // the calls of the last message
	resultIdx int
}

// newParser returns a mistral parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{gapFrom: -1}
	p.Init(h, opts, p.step, p.finish)
	p.os.as.Emit = p.Emit
	p.os.stream = opts.Mode == syntax.TokenMode
	if opts.ThinkOpen {
		p.state = stThink
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

// textWake: in text, only a marker (or the end) completes an event.
var textWake = scan.Bytes("[<")

func (p *parser) step(data []byte, eof bool) int {
	n := p.step1(data, eof)
	switch {
	case p.state == stText && p.gapFrom < 0:
		p.WakeOn(textWake)
	case (p.state == stArgs || p.state == stElem) && p.waker.Sync(&p.os.js):
		p.WakeWith(&p.waker)
	default:
		p.WakeOn(nil)
	}
	return n
}

func (p *parser) step1(data []byte, eof bool) int {
	if p.state != stArray && p.state != stText {
		p.flushErr()
	}
	switch p.state {
	case stThink:
		return p.think(data, eof)
	case stCalls:
		return p.afterCalls(data, eof)
	case stArray:
		return p.array(data, eof)
	case stElem, stArgs:
		return p.object(data)
	case stName:
		return p.nameBytes(data, eof)
	case stCallID:
		return p.callID(data, eof)
	case stArgsWS:
		return p.argsWS(data, eof)
	case stSwallow:
		return p.swallow(data, eof)
	case stResults:
		return p.results(data, eof)
	}
	return p.text(data, eof)
}

func isMarkerStart(c byte) bool { return c == '[' || c == '<' }

// nextMarker returns the index of the first byte of data (from 1) at
// which a marker of list may start, or len(data).
func nextMarker(data []byte, eof bool, list []string) int {
	for i := 1; i < len(data); i++ {
		if isMarkerStart(data[i]) {
			if m, wait := scan.MatchAny(data[i:], eof, list); m != "" || wait {
				return i
			}
		}
	}
	return len(data)
}

// text handles respond text and the markers in it.
func (p *parser) text(data []byte, eof bool) int {
	if p.pendErr != nil && p.started {
		// </s> right after a broken call ends the message: the error covers it.
		full, partial := scan.MatchPrefix(data, eos)
		switch {
		case partial && !eof:
			return 0
		case full:
			p.pendErr.Span.End = p.Offset() + int64(len(eos))
			p.endMessage(p.Offset() + int64(len(eos)))
			return len(eos)
		}
	}
	p.flushErr()
	if p.gapFrom >= 0 && !isMarkerStart(data[0]) {
		p.BeginRun(syntax.Respond, p.gapFrom) // the empty reasoning block before is the run's
		p.gapFrom = -1
	}
	if !isMarkerStart(data[0]) {
		i := bytes.IndexAny(data, "[<")
		if i < 0 {
			i = len(data)
		}
		p.Text(syntax.Respond, data[:i], p.Offset())
		return i
	}
	m, wait := scan.MatchAny(data, eof, p.markers())
	if wait {
		return 0
	}
	if m == "" {
		if p.gapFrom >= 0 {
			p.BeginRun(syntax.Respond, p.gapFrom)
			p.gapFrom = -1
		}
		n := nextMarker(data, eof, p.markers())
		p.Text(syntax.Respond, data[:n], p.Offset())
		return n
	}
	off := p.Offset()
	if m == toolCalls || m == thinkOpen || m == toolResults {
		p.Evident(off) // Mistral's control tokens, no other syntax's
	}
	switch m {
	case toolCalls:
		p.EndRun()
		if p.gapFrom >= 0 {
			p.sectionFrom(p.gapFrom) // the empty reasoning block before is the execute's
			p.gapFrom = -1
		}
		p.sectionFrom(off)
		p.blk.Reset()
		p.blkStart = p.Pos()
		p.Keep(&p.blk, []byte(toolCalls))
		p.state = stCalls
	case thinkOpen, tagOpen:
		p.BeginRun(syntax.Think, off)
		p.thinkStart = p.Pos()
		p.thinkText = false
		p.closer = thinkClose
		if m == tagOpen {
			p.closer = tagClose
		}
		p.state = stThink
	case toolResults:
		p.endMessage(off)
		p.blk.Reset()
		p.blkStart = p.Pos()
		p.Keep(&p.blk, []byte(toolResults))
		p.bodyAt, p.bodyOff = scan.Advance(p.blkStart, []byte(toolResults)), len(p.blk.Bytes)
		p.state = stResults
	case eos:
		p.endMessage(off + int64(len(eos)))
	}
	return len(m)
}

// think handles reasoning: only its closer is a marker, or, when the prompt
// opened it, either closer or [TOOL_CALLS] (which ends it and is read next).
func (p *parser) think(data []byte, eof bool) int {
	if p.closer != "" {
		n, closed := p.Inside(syntax.Think, data, eof, p.closer)
		if closed {
			p.state = stText
			if !p.thinkText {
				p.gapFrom = p.thinkStart.Offset
			}
		} else if len(jsonscan.TrimSpace(data[:n])) > 0 {
			p.thinkText = true
		}
		return n
	}
	if n, wait := p.Restated(syntax.Think, data, eof, thinkOpen, tagOpen); n > 0 || wait {
		return n // the opener restated by the model (or white space before it)
	}
	list := []string{thinkClose, tagClose, toolCalls}
	if !isMarkerStart(data[0]) {
		i := bytes.IndexAny(data, "[<")
		if i < 0 {
			i = len(data)
		}
		p.Text(syntax.Think, data[:i], p.Offset())
		return i
	}
	m, wait := scan.MatchAny(data, eof, list)
	switch {
	case wait:
		return 0
	case m == toolCalls:
		p.EndRun()
		p.state = stText
		return scan.Again
	case m != "":
		p.EndRunAt(p.Offset() + int64(len(m)))
		if m == thinkClose {
			p.Evident(p.Offset())
		}
		p.state = stText
		return len(m)
	}
	n := nextMarker(data, eof, list)
	p.Text(syntax.Think, data[:n], p.Offset())
	return n
}

func (p *parser) sectionFrom(off int64) {
	if !p.started {
		p.started = true
		p.execFrom = off
	}
}

// endMessage ends the assistant message at end: a message with a valid
// call gets its execute.
func (p *parser) endMessage(end int64) {
	p.flushErr()
	p.EndRunAt(end)
	if p.calls > 0 {
		p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: p.execFrom, End: end}})
	}
	p.calls, p.started = 0, false
}

// afterCalls decides what follows [TOOL_CALLS]: white space, then a v3/v7
// JSON array, or a name.
func (p *parser) afterCalls(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		if len(p.blk.Bytes)+i > p.Options().BlockLimit() {
			p.callErr(syntax.CodeOverLimit, "%s followed by more white space than the limit", toolCalls)
			p.state = stText
			return scan.Again
		}
		p.Keep(&p.blk, data[:i])
		return i
	}
	if data[0] == '[' {
		if m, wait := scan.MatchAny(data, eof, textMarkers[:]); wait {
			return 0
		} else if m == "" {
			p.Keep(&p.blk, data[:1])
			p.inArray, p.elemSeen, p.elems = true, false, 0
			p.state = stArray
			return 1
		}
	}
	if isNameByte(data[0]) {
		p.bodyAt, p.bodyOff = p.Pos(), len(p.blk.Bytes)
		p.inArray = false
		p.state = stName
		return scan.Again
	}
	p.broken(syntax.CodeMalformed, fmt.Sprintf("%s followed by neither a JSON array nor a tool name", toolCalls))
	return scan.Again
}

func isNameByte(c byte) bool {
	return c > ' ' && c != '[' && c != '{' && c != ']' && c != '}' && c != '"' && c != '<' && c != 0x7f
}

// nameBytes reads the tool's name, up to [ARGS], [CALL_ID] or '{' (the
// form with [ARGS] and [CALL_ID] stripped).
func (p *parser) nameBytes(data []byte, eof bool) int {
	i := 0
	have := len(p.blk.Bytes) - p.bodyOff
	for i < len(data) && isNameByte(data[i]) && have+i < maxName {
		i++
	}
	if i > 0 {
		p.Keep(&p.blk, data[:i])
		return i
	}
	if p.blk.Over { // the name went past the limit: its bytes are not kept
		p.broken(syntax.CodeOverLimit, fmt.Sprintf("a call longer than the limit of %d bytes", p.Options().BlockLimit()))
		return scan.Again
	}
	name := string(p.blk.Bytes[p.bodyOff:])
	if have >= maxName {
		p.broken(syntax.CodeMalformed, fmt.Sprintf("a tool name longer than %d bytes", maxName))
		return scan.Again
	}
	switch data[0] {
	case '{':
		p.name, p.id = name, ""
		p.beginArgs()
		return scan.Again
	case '[':
		m, wait := scan.MatchAny(data, eof, []string{argsTok, callIDTok})
		switch {
		case wait:
			return 0
		case m == argsTok:
			p.name, p.id = name, ""
			p.Keep(&p.blk, []byte(argsTok))
			p.state = stArgsWS
			return len(m)
		case m == callIDTok:
			p.name = name
			p.Keep(&p.blk, []byte(callIDTok))
			p.bodyOff = len(p.blk.Bytes) // the id starts here
			p.state = stCallID
			return len(m)
		}
	}
	p.broken(syntax.CodeMalformed, fmt.Sprintf("the tool name %q is followed by neither %s, %s nor a JSON object", name, argsTok, callIDTok))
	return scan.Again
}

// callID reads the id of [CALL_ID]ID[ARGS].
func (p *parser) callID(data []byte, eof bool) int {
	i := 0
	have := len(p.blk.Bytes) - p.bodyOff
	for i < len(data) && isNameByte(data[i]) && have+i < maxID {
		i++
	}
	if i > 0 {
		p.Keep(&p.blk, data[:i])
		return i
	}
	if p.blk.Over { // the id went past the limit: its bytes are not kept
		p.broken(syntax.CodeOverLimit, fmt.Sprintf("a call longer than the limit of %d bytes", p.Options().BlockLimit()))
		return scan.Again
	}
	id := string(p.blk.Bytes[p.bodyOff:])
	if m, wait := scan.MatchAny(data, eof, []string{argsTok}); wait {
		return 0
	} else if m != "" && id != "" {
		p.id = id
		p.Keep(&p.blk, []byte(argsTok))
		p.state = stArgsWS
		return len(m)
	}
	p.broken(syntax.CodeMalformed, fmt.Sprintf("the call id of %s is not followed by %s", p.name, argsTok))
	return scan.Again
}

// argsWS takes the white space after [ARGS]; the arguments object follows.
func (p *parser) argsWS(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		p.Keep(&p.blk, data[:i])
		return i
	}
	if data[0] != '{' {
		p.broken(syntax.CodeMalformed, fmt.Sprintf("the arguments of %s are not a JSON object", p.name))
		return scan.Again
	}
	p.beginArgs()
	return scan.Again
}

// beginArgs starts the arguments object of a call whose name is known: in
// token mode the call is announced.
func (p *parser) beginArgs() {
	p.bodyOff = len(p.blk.Bytes)
	p.bodyAt = p.Pos()
	p.os.reset(p.Options().DepthLimit(), false, p.streamed, p.name)
	if p.os.stream {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, ID: p.id, Index: p.streamed,
			Span: syntax.Span{Start: p.blkStart.Offset, End: p.Offset()}})
		p.streamed++
	}
	p.state = stArgs
}

// object scans a JSON object: the arguments of a call, or an element of a
// v3/v7 array.
func (p *parser) object(data []byte) int {
	limit := p.Options().BlockLimit()
	in := data
	if !p.blk.Over && len(p.blk.Bytes) < limit && len(in) > limit-len(p.blk.Bytes) {
		in = in[:limit-len(p.blk.Bytes)]
	}
	if !p.blk.Over && len(p.blk.Bytes) >= limit {
		p.os.as.Stop() // these bytes take the block over: no more deltas
	}
	n := p.os.scan(in, p.Offset())
	p.Keep(&p.blk, in[:n])
	if p.os.keyed && p.os.as.Started() && p.os.as.Index() == p.streamed {
		p.streamed++
	}
	switch {
	case p.os.js.Done():
		p.objectDone()
	case p.os.js.Err() != nil:
		msg := "invalid JSON at " + scan.Advance(p.bodyAt, p.blk.Bytes[min(p.bodyOff, len(p.blk.Bytes)):]).String() + ": " + p.os.js.Err().Msg()
		if p.blk.Over {
			msg = "invalid JSON in a call longer than the limit"
		}
		p.broken(p.os.js.Err().Code(), msg)
	}
	if n == 0 {
		return scan.Again
	}
	return n
}

// objectDone handles a complete object.
func (p *parser) objectDone() {
	bodySpan := syntax.Span{Start: p.bodyAt.Offset, End: p.blkStart.Offset + p.blk.Len}
	if p.state == stElem {
		p.state = stArray
		if p.blk.Over {
			p.callErr(syntax.CodeOverLimit, "a call longer than the limit of %d bytes", p.Options().BlockLimit())
			return
		}
		name, id, args, problem := readCall(p.blk.Bytes[p.bodyOff:])
		if problem != "" {
			p.callErr(syntax.CodeMalformed, "%s", problem)
			return
		}
		p.call(name, id, args, bodySpan)
		return
	}
	p.state = stText
	if p.blk.Over {
		p.callErr(syntax.CodeOverLimit, "a call longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	p.call(p.name, p.id, jsonscan.Compact(p.blk.Bytes[p.bodyOff:]), syntax.Span{Start: p.blkStart.Offset, End: bodySpan.End})
}

func (p *parser) call(name, id string, args []byte, span syntax.Span) {
	if p.calls == 0 {
		p.batch.Reset()
		p.resultIdx = 0
	}
	if !p.batch.Add(name, id, p.Options().BlockLimit()) {
		// The error covers the whole block, the array's opening included
		// when this is its first element: no execute follows a message
		// whose calls were all refused, to cover it instead.
		p.callErr(syntax.CodeOverLimit,
			"the message holds more calls (%d so far) than the limit of %d bytes allows; this call is not delivered", p.batch.Len(), p.Options().BlockLimit())
		return
	}
	p.calls++
	p.Emit(syntax.Event{Type: syntax.Call, Name: name, ID: id, Args: args, Pos: p.callPos(span.Start), Span: span})
	// The next element of an array, or the next call, is a block of its own.
	p.blk.Reset()
	p.blkStart = p.posAfter(span.End)
}

// posAfter marks the block's start as not yet known: the next block
// starts at the next thing read (bytes before it are the execute's, or a
// held error's).
func (p *parser) posAfter(end int64) syntax.Pos {
	return syntax.Pos{Offset: end, Line: -1}
}

// callPos is the position of a call starting at off: its block's start or
// its body's.
func (p *parser) callPos(off int64) syntax.Pos {
	if p.blkStart.Offset == off && p.blkStart.Line > 0 {
		return p.blkStart
	}
	return p.bodyAt
}

// array handles a v3/v7 array between its elements: white space, ',', ']'
// and the '{' of the next element.
func (p *parser) array(data []byte, eof bool) int {
	i := 0
	for i < len(data) && jsonscan.IsSpace(data[i]) {
		i++
	}
	if i == 0 && data[0] == ',' && p.elemSeen {
		i, p.elemSeen = 1, false
	}
	if i > 0 {
		p.absorb(data[:i])
		return i
	}
	switch {
	case data[0] == ']':
		p.absorb(data[:1])
		if p.elems == 0 {
			if p.blkStart.Line < 0 {
				p.blkStart = p.Pos()
			}
			p.callErr(syntax.CodeMalformed, "an empty list of calls")
		}
		p.inArray = false
		p.state = stText
		return 1
	case data[0] == '{' && !p.elemSeen:
		p.flushErr()
		if p.blkStart.Line < 0 {
			p.blkStart = p.Pos()
		}
		p.bodyAt, p.bodyOff = p.Pos(), len(p.blk.Bytes)
		p.elemSeen = true
		p.elems++
		p.os.reset(p.Options().DepthLimit(), true, p.streamed, "")
		p.state = stElem
		return scan.Again
	}
	p.flushErr()
	if p.blkStart.Line < 0 {
		p.blkStart = p.Pos()
	}
	p.broken(syntax.CodeMalformed, "the array of calls holds something other than call objects")
	return scan.Again
}

// absorb takes bytes between calls: a held error covers them; else they
// are the execute's (the message has a valid call) or the next block's.
func (p *parser) absorb(b []byte) {
	if p.pendErr != nil {
		p.pendErr.Span.End = p.Offset() + int64(len(b))
		return
	}
	if p.blkStart.Line >= 0 {
		p.Keep(&p.blk, b)
	}
}

// broken reports a call that cannot be read: it and the rest of the
// message up to the next marker are an error.
func (p *parser) broken(code syntax.Code, msg string) {
	if p.blkStart.Line < 0 {
		p.blkStart = p.Pos()
	}
	p.errCode, p.errMsg = code, msg
	p.state = stSwallow
}

// swallow takes the rest of a broken call, to the next [TOOL_CALLS],
// [TOOL_RESULTS] or </s>, or the end of the input.
func (p *parser) swallow(data []byte, eof bool) int {
	list := []string{toolCalls, toolResults}
	if p.started {
		list = append(list, eos)
	}
	if isMarkerStart(data[0]) {
		m, wait := scan.MatchAny(data, eof, list)
		if wait {
			return 0
		}
		if m != "" {
			p.swallowEnd()
			return scan.Again
		}
	}
	n := nextMarker(data, eof, list)
	p.Keep(&p.blk, data[:n])
	return n
}

func (p *parser) swallowEnd() {
	p.inArray = false
	p.callErr(p.errCode, "%s; the rest of the call is the error's", p.errMsg)
	p.state = stText
}

// callErr reports the block so far as a call that is no call. The error
// is held while white space after it is read, and covers it.
func (p *parser) callErr(code syntax.Code, format string, args ...any) {
	p.flushErr()
	if p.blkStart.Line < 0 {
		p.blkStart = p.Pos()
	}
	span := syntax.Span{Start: p.blkStart.Offset, End: p.blkStart.Offset + p.blk.Len}
	e := syntax.Event{Type: syntax.Error, Code: code, Message: fmt.Sprintf(format, args...), Pos: p.blkStart, Span: span}
	if !p.blk.Over {
		e.Raw = string(p.blk.Bytes)
	}
	p.pendErr = &e
	p.blk.Reset()
	p.blkStart = p.posAfter(span.End)
}

func (p *parser) flushErr() {
	if p.pendErr != nil {
		e := *p.pendErr
		p.pendErr = nil
		p.Emit(e)
	}
}

// results reads a [TOOL_RESULTS] block up to [/TOOL_RESULTS].
func (p *parser) results(data []byte, eof bool) int {
	i := bytes.Index(data, []byte(toolResultsE))
	if i >= 0 {
		p.Keep(&p.blk, data[:i+len(toolResultsE)])
		p.result(true)
		p.state = stText
		return i + len(toolResultsE)
	}
	n := len(data)
	if !eof {
		n -= scan.PartialSuffix(data, toolResultsE)
	}
	p.Keep(&p.blk, data[:n])
	return n
}

// result emits the result a block holds: ID[TOOL_CONTENT]CONTENT (v7+),
// {"call_id", "content"} (v3), or the content alone; the content is the
// JSON value it holds, or its text as a string.
func (p *parser) result(closed bool) {
	span := syntax.Span{Start: p.blkStart.Offset, End: p.blkStart.Offset + p.blk.Len}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.blkStart, span, nil, "a tool result longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	if !closed {
		p.Errorf(syntax.CodeTruncated, p.blkStart, span, p.blk.Bytes, "unterminated %s: the stream ended before %s", toolResults, toolResultsE)
		return
	}
	body := p.blk.Bytes[p.bodyOff : len(p.blk.Bytes)-len(toolResultsE)]
	id := ""
	if k := bytes.Index(body, []byte(toolContent)); k >= 0 {
		id = string(jsonscan.TrimSpace(body[:k]))
		body = body[k+len(toolContent):]
	}
	content := jsonscan.TrimSpace(body)
	value, ok := jsonscan.Whole(content, 0)
	if ok {
		value = jsonscan.Compact(value)
		if id == "" && jsonscan.Kind(value) == '{' {
			var v3ID string
			var v3Content []byte
			jsonscan.MembersRaw(value, func(kb, v []byte) bool {
				k := string(kb) // only compared: no allocation
				switch {
				case k == "call_id" && v3ID == "":
					v3ID, _ = jsonscan.Unquote(v)
				case k == "content" && v3Content == nil:
					v3Content = v
				}
				return true
			})
			if v3ID != "" && v3Content != nil {
				id, value = v3ID, v3Content
			}
		}
	} else {
		value = params.Quote(nil, content)
	}
	tool := ""
	if id != "" {
		tool = p.batch.Find(id, p.resultIdx).Name
	} else {
		tool = p.batch.At(p.resultIdx).Name
	}
	p.resultIdx++
	p.Emit(syntax.Event{Type: syntax.Result, Tool: tool, ID: id, Status: syntax.Success, Value: value, Span: span})
}

// finish reports what the end of the input left open.
func (p *parser) finish(end int64) {
	switch p.state {
	case stThink:
		p.EndRun()
		if p.closer != "" {
			p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
				"unterminated reasoning: the stream ended before %s", p.closer)
		}
	case stCalls:
		p.callErr(syntax.CodeTruncated, "%s at the end of the stream, with no call after it", toolCalls)
	case stArray:
		if p.inArray {
			p.callErr(syntax.CodeTruncated, "truncated array of calls: the stream ended before its ']'")
		}
	case stElem, stArgs:
		p.os.js.End()
		if p.os.js.Done() {
			p.objectDone()
		} else {
			p.callErr(syntax.CodeTruncated, "truncated call: the stream ended inside its JSON")
		}
	case stName, stCallID, stArgsWS:
		p.callErr(syntax.CodeTruncated, "truncated call: the stream ended before its arguments")
	case stSwallow:
		p.swallowEnd()
	case stResults:
		p.result(false)
	}
	p.endMessage(end)
}
