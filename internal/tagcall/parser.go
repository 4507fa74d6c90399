package tagcall

import (
	"bytes"
	"strings"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

type pstate uint8

const (
	inText      pstate = iota
	inThink            // an explicit Think.Open: only Think.Close ends it
	inOpenThink        // Options.ThinkOpen: Think.Close or a call opener ends it
	inWrapper          // Function form, after Scope.Open: white space, then Function.Open, or it was text
	inProbe            // after a bare Function tag: white space, then Param.Open or Function.Close, or it was text
	inCall             // a call's bytes, up to its first Function.Close (or Scope.Close for a word name)
	afterCall          // Function form, after Function.Close: white space, then Scope.Close or not
	inResponse         // Result.Open … Result.Close
	inJSONOpen         // JSON form, after Scope.Open: white space, then '{' or '[', or it was text
	inJSON             // JSON form: a block's value and closer
	inHeader           // after Header (or at the start): a word a kind marker ends is the header, else text
)

type parser struct {
	scan.Core
	f     *Format
	state pstate

	textMarkers, thinkMarkers []string      // what ends a text run, reasoning the prompt opened
	openers                   []string      // what opens a call
	drops, kinds              []string      // what text drops; what ends a header (Format.Header)
	leads                     string        // the bytes markers start with
	wake                      *scan.ByteSet // the bytes markers end with

	thinkStart syntax.Pos
	thought    bool // in reasoning the prompt opened, text other than white space was read

	// A tag whose meaning the bytes after it decide (inWrapper, inProbe):
	// held until they come, as text of heldType if it is no call.
	held     []byte
	heldAt   int64
	heldPos  syntax.Pos
	heldType syntax.Type
	back     pstate // the state to go back to when the held tag is text

	// The open call.
	start   syntax.Pos
	blk     scan.Block // the call's bytes, from Scope.Open or Function.Open
	funcAt  int        // where Function.Open starts in blk
	bodyAt  int        // where the body starts in blk (after the name); 0 until the name is read
	bodyEnd int        // where Function.Close starts in blk, once found
	name    string
	nameErr string // the function tag's problem, if any
	rd      Reader
	callEnd int64 // afterCall: where Function.Close ends
	failed  bool  // afterCall: the call is not valid; its error waits for closeCall
	wrapped bool  // the call opened with Scope.Open

	batch Batch // the calls since the last execute or results

	jb jsonBlock // the open JSON block (JSON form)

	names Names // the call names read

	// A message header (Format.Header): the word read after it and its
	// start. Out of the header state a word kept was decided on as the
	// header (a kind marker follows it): the next event's span starts at it.
	hdr    []byte
	hdrAt  int64
	hdrPos syntax.Pos
}

func newParser(f *Format, h syntax.Handler, opts syntax.Options) syntax.Parser {
	d := f.derive()
	p := &parser{f: f, textMarkers: d.textMarkers, thinkMarkers: d.thinkMarkers, openers: d.openers, drops: d.drops, kinds: d.kinds, leads: d.leads, wake: d.wake}
	p.Init(h, opts, p.step, p.finish)
	p.WakeOn(p.wake)
	if f.JSON != nil {
		p.jb.args = jsoncall.ArgStream{Keys: *f.JSON, Emit: p.Emit, JSON: &p.jb.js}
	}
	p.rd.OnParam = p.onParam
	p.rd.OnDelta = p.onDelta
	if opts.ThinkOpen && f.Think.Close != "" { // a format with no reasoning tags has none to open
		p.state = inOpenThink
		p.BeginRun(syntax.Think, 0)
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
	} else if f.Header != "" {
		p.state = inHeader // the prompt wrote the first message's Header
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		n, closed := p.Inside(syntax.Think, data, eof, p.f.Think.Close)
		if closed {
			p.state = inText
		}
		return n
	case inOpenThink:
		return p.openThink(data, eof)
	case inWrapper:
		return p.wrapper(data, eof)
	case inProbe:
		return p.probe(data, eof)
	case inCall:
		return p.call(data, eof)
	case afterCall:
		return p.afterCall(data, eof)
	case inResponse:
		return p.response(data, eof)
	case inJSONOpen:
		return p.jsonOpen(data, eof)
	case inJSON:
		return p.jsonBody(data, eof)
	case inHeader:
		return p.header(data, eof)
	}
	return p.text(data, eof)
}

// text handles input outside blocks: respond text and the markers.
func (p *parser) text(data []byte, eof bool) int {
	if n := p.TextBeforeAny(syntax.Respond, data, p.leads); n > 0 {
		return n
	}
	off := p.Offset()
	for _, m := range p.drops {
		if full, partial := scan.MatchPrefix(data, m); full && m != "" {
			p.EndRun()     // the answer's markers are dropped: its text is a run of its own
			p.Evident(off) // the format's own token
			p.takeHeader(off)
			return len(m)
		} else if partial && !eof {
			return 0
		}
	}
	if full, partial := scan.MatchPrefix(data, p.f.Header); full && p.f.Header != "" {
		p.EndRun()
		p.Evident(off)
		p.state = inHeader
		return len(p.f.Header)
	} else if partial && !eof {
		return 0
	}
	if full, partial := scan.MatchPrefix(data, p.f.Think.Open); full && p.f.Think.Open != "" {
		p.thinkStart = p.Pos()
		if len(p.hdr) > 0 {
			p.thinkStart = p.hdrPos // the message's header starts the thought
		}
		p.BeginRun(syntax.Think, p.takeHeader(off))
		if p.f.Own || p.f.OwnThink {
			p.Evident(off)
		}
		p.state = inThink
		if p.f.ThinkCalls {
			p.state, p.thought = inOpenThink, false // a call opener ends it too
		}
		return len(p.f.Think.Open)
	} else if partial && !eof {
		return 0
	}
	if full, partial := scan.MatchPrefix(data, p.f.Result.Open); full && p.f.Result.Open != "" {
		p.openResponse()
		return len(p.f.Result.Open)
	} else if partial && !eof {
		return 0
	}
	if n := p.opener(data, eof, syntax.Respond, inText); n != 0 {
		return max(n, 0)
	}
	n := scan.TextUntilAny(data, p.leads, func(rest []byte) bool { return startsAny(rest, eof, p.textMarkers) })
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// startsAny reports whether rest starts with one of markers, or, unless at
// the end of the input, with a prefix of one.
func startsAny(rest []byte, eof bool, markers []string) bool {
	m, wait := scan.MatchAny(rest, eof, markers)
	return m != "" || wait
}

// openThink handles reasoning opened by the prompt (Options.ThinkOpen): it
// ends at Think.Close or at a call opener, whichever comes first.
func (p *parser) openThink(data []byte, eof bool) int {
	off := p.Offset()
	if n, wait := p.Restated(syntax.Think, data, eof, p.f.Think.Open); n > 0 || wait {
		return n // the opener restated by the model (or white space before it)
	}
	if n := p.TextBeforeAny(syntax.Think, data, p.leads); n > 0 {
		p.thought = p.thought || skipWS(data[:n]) < n
		return n
	}
	if full, partial := scan.MatchPrefix(data, p.f.Think.Close); full {
		p.EndRunAt(off + int64(len(p.f.Think.Close)))
		if p.f.Own || p.f.OwnThink {
			p.Evident(off)
		}
		p.state = inText
		return len(p.f.Think.Close)
	} else if partial && !eof {
		return 0
	}
	if n := p.opener(data, eof, syntax.Think, inOpenThink); n != 0 {
		return max(n, 0)
	}
	n := scan.TextUntilAny(data, p.leads, func(rest []byte) bool { return startsAny(rest, eof, p.thinkMarkers) })
	p.Text(syntax.Think, data[:n], off)
	p.thought = p.thought || skipWS(data[:n]) < n
	return n
}

// opener handles a possible call opener at the start of data. It returns
// the bytes taken, -1 when more input is needed, 0 when data starts with
// none. t and back say what a held tag is when it turns out to be text.
func (p *parser) opener(data []byte, eof bool, t syntax.Type, back pstate) int {
	if !p.f.hasCalls() {
		return 0
	}
	if p.f.JSON != nil && p.f.Param.Open != "" {
		// Both forms (LongCat): a word name opens a call with parameters,
		// anything else is read as the JSON form.
		if n := p.wordOpener(data, eof); n != 0 {
			return n
		}
	}
	if p.f.JSON != nil {
		o, wait := scan.MatchAny(data, eof, p.openers)
		switch {
		case o != "":
			p.jb.opener = o
			p.hold(data[:len(o)], t, back, inJSONOpen)
			p.ownScope()
			return len(o)
		case wait:
			return -1
		}
		return 0
	}
	if !p.f.named() {
		return p.wordOpener(data, eof)
	}
	if full, partial := scan.MatchPrefix(data, p.f.Scope.Open); full && p.f.Scope.Open != "" {
		p.hold(data[:len(p.f.Scope.Open)], t, back, inWrapper)
		p.ownScope()
		return len(p.f.Scope.Open)
	} else if partial && !eof {
		return -1
	}
	if !p.f.Bare {
		return 0
	}
	n, _ := p.f.functionTag(data, eof)
	if n < 0 {
		return -1
	}
	if n > 0 {
		p.hold(data[:n], t, back, inProbe)
		return n
	}
	return 0
}

func (p *parser) hold(tag []byte, t syntax.Type, back, next pstate) {
	p.heldAt, p.heldPos = p.Offset(), p.Pos()
	p.held = p.held[:0]
	if len(p.hdr) > 0 {
		// The message's header: the call's block starts at it.
		p.held = append(p.held, p.hdr...)
		p.heldAt, p.heldPos = p.takeHeader(p.heldAt), p.hdrPos
	}
	p.held = append(p.held, tag...)
	p.heldType, p.back, p.state = t, back, next
	p.Undecided(p.heldAt)
}

// unhold gives the held bytes back as text: the tag opened nothing.
func (p *parser) unhold() {
	p.state = p.back
	p.Undecided(-1)
	p.Text(p.heldType, p.held, p.heldAt)
	p.held = p.held[:0]
}

// ownScope notes the Scope.Open just held as evidence when it is the
// format's own tag (Own, OwnScope), whatever follows it, unless the call
// block is another format's too (SharedCalls).
func (p *parser) ownScope() {
	if p.f.scopeEvidence() {
		p.Evident(p.heldAt)
	}
}

// called notes a call opener decided on at off: evidence of the format,
// unless its call block is another format's too (SharedCalls).
func (p *parser) called(off int64) {
	p.Undecided(-1)
	if !p.f.SharedCalls {
		p.Evident(off)
	}
}

// functionTag matches Function.Open, NAME and '>' (NameEnd) at the start
// of data, NAME being 1 to MaxName bytes other than '>', '<', line ends and
// the first byte of NameEnd. It returns the tag's length and NAME; 0 when
// there is none; -1 when more input is needed.
func (f *Format) functionTag(data []byte, eof bool) (int, []byte) {
	open, end := f.Function.Open, f.nameEnd()
	full, partial := scan.MatchPrefix(data, open)
	if !full {
		if partial && !eof {
			return -1, nil
		}
		return 0, nil
	}
	for i := len(open); i < len(data); i++ {
		c := data[i]
		switch {
		case i-len(open) > MaxName || c == '<' || c == '\n' || c == '\r':
			return 0, nil
		case c == end[0]:
			full, partial := scan.MatchPrefix(data[i:], end)
			switch {
			case full && i > len(open):
				return i + len(end), data[len(open):i]
			case partial && !eof:
				return -1, nil
			}
			return 0, nil
		case c == '>':
			return 0, nil
		}
	}
	if eof || len(data)-len(open) > MaxName {
		return 0, nil
	}
	return -1, nil
}

// wrapper reads what follows Scope.Open: white space, then Function.Open
// opens a call; anything else makes the tag text.
func (p *parser) wrapper(data []byte, eof bool) int {
	if n, ok := p.holdSpace(data); ok {
		return n
	}
	full, partial := scan.MatchPrefix(data, p.f.Function.Open)
	switch {
	case full:
		p.openCall(true)
		return scan.Again
	case partial && !eof:
		return 0
	}
	p.unhold()
	return scan.Again
}

// holdSpace holds the white space at the start of data after the held tag.
// ok says it took some, or gave the tag back as text when it would hold more
// than the block limit.
func (p *parser) holdSpace(data []byte) (n int, ok bool) {
	i := skipWS(data)
	if i == 0 {
		return 0, false
	}
	if len(p.held)+i > p.Options().BlockLimit() {
		p.unhold()
		return scan.Again, true
	}
	p.held = append(p.held, data[:i]...)
	return i, true
}

// probe reads what follows a bare Function tag: white space, then
// Param.Open or Function.Close makes it a call; anything else makes it text.
func (p *parser) probe(data []byte, eof bool) int {
	if n, ok := p.holdSpace(data); ok {
		return n
	}
	full1, partial1 := scan.MatchPrefix(data, p.f.Param.Open)
	full2, partial2 := scan.MatchPrefix(data, p.f.Function.Close)
	switch {
	case full1 || full2:
		p.openCall(false)
		return scan.Again
	case (partial1 || partial2) && !eof:
		return 0
	}
	p.unhold()
	return scan.Again
}

// openCall starts a call whose first bytes are held: Scope.Open and white
// space (wrapped: the function tag comes next), or the function tag and
// white space.
func (p *parser) openCall(wrapped bool) {
	p.EndRun() // a call opener also ends reasoning opened by the prompt
	p.called(p.heldAt)
	p.batch.Open()
	p.state = inCall
	p.start = p.heldPos
	p.wrapped = wrapped
	p.blk.Reset()
	p.blk.Keep(p.held, p.Options().BlockLimit())
	p.held = p.held[:0]
	p.name, p.nameErr, p.bodyAt = "", "", 0
	p.funcAt = 0
	if wrapped {
		p.funcAt = len(p.blk.Bytes)
	}
	p.rd.Reset(&p.f.Param, p.Options().Mode == syntax.TokenMode)
	p.readCall(false)
}

// call keeps the call's bytes up to its first closer (Function.Close, or
// Scope.Close for a word name) and reads them as they come.
func (p *parser) call(data []byte, eof bool) int {
	closer := p.f.Function.Close
	if !p.f.named() {
		closer = p.f.Scope.Close
	}
	kept := 0 // data[:kept] is in blk
	reopens := p.f.Reopens && !p.f.Param.CDATA
	for search := 0; ; {
		j := bytes.Index(data[search:], []byte(closer))
		if reopens { // search is 0: only a CDATA value moves it on
			end := len(data)
			if j >= 0 {
				end = j
			}
			if o := bytes.Index(data[:end], []byte(p.f.Scope.Open)); o >= 0 {
				return p.reopen(data, o)
			}
		}
		if j < 0 {
			break
		}
		i := search + j
		p.Keep(&p.blk, data[kept:i])
		kept = i
		if p.f.Param.CDATA && !p.blk.Over {
			// A closer inside a CDATA value is the value's (MiniCPM5
			// wraps code that holds </function> so): read up to it, and
			// look on after it when the reader is in a section.
			p.readCall(false)
			if p.rd.InCDATA() {
				search = i + 1
				continue
			}
		}
		n := i + len(closer)
		p.bodyEnd = len(p.blk.Bytes)
		if !p.blk.Over {
			p.readCall(true)
		}
		p.Keep(&p.blk, data[i:n])
		p.callEnd = p.Offset() + int64(n)
		p.endCall()
		if !p.f.named() {
			p.closeCall(p.callEnd) // Scope.Close ended it: nothing follows that is the call's
			return n
		}
		p.state = afterCall
		return n
	}
	n := len(data)
	if !eof {
		cut := scan.PartialSuffix(data, closer)
		if reopens {
			cut = max(cut, scan.PartialSuffix(data, p.f.Scope.Open))
		}
		n -= cut
	}
	p.Keep(&p.blk, data[kept:n])
	if !p.blk.Over {
		p.readCall(false)
	}
	if n == 0 && !eof {
		return 0
	}
	return n
}

// reopen ends the open call where the next Scope.Open stands, at data[o]
// (Format.Reopens): the call is an error, its closer missing, and the
// opener is read afresh.
func (p *parser) reopen(data []byte, o int) int {
	p.Keep(&p.blk, data[:o])
	p.bodyEnd = len(p.blk.Bytes)
	if !p.blk.Over && p.bodyAt > 0 {
		p.readCall(true)
	}
	p.failed = true
	end := p.Offset() + int64(o)
	whole := !p.blk.Over && p.nameErr == ""
	if whole && p.bodyAt > 0 {
		at, _ := p.rd.Err(p.blk.Bytes[p.bodyAt:p.bodyEnd])
		whole = at < 0
	}
	if whole { // but for its closer
		p.state = inText
		p.Errorf(syntax.CodeMalformed, p.start, syntax.Span{Start: p.start.Offset, End: end}, p.blk.Bytes,
			"tool call %s: no %s before the next %s", p.name, p.f.Scope.Close, p.f.Scope.Open)
	} else {
		p.closeCall(end)
	}
	if o == 0 {
		return scan.Again
	}
	return o
}

// readCall reads the call's bytes kept so far: the function tag, then the
// body through the parameter reader. final: the body is complete (the
// bytes up to Function.Close, which is not kept yet).
func (p *parser) readCall(final bool) {
	b := p.blk.Bytes
	if p.bodyAt == 0 && p.nameErr == "" {
		if p.wrapped && len(b) < p.funcAt+len(p.f.Function.Open) {
			return // the function tag is all that may come after Scope.Open
		}
		n, name := p.f.functionTag(b[p.funcAt:], final)
		switch {
		case n < 0:
			return
		case n == 0:
			p.nameErr = "a " + p.f.Function.Open + "NAME" + p.f.nameEnd() + " tag whose name does not end with '" + p.f.nameEnd() + "' on its line"
			return
		}
		p.name = p.names.Intern(name)
		p.bodyAt = p.funcAt + n
		if p.Options().Mode == syntax.TokenMode {
			p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Span: p.span(0, p.bodyAt)})
		}
	}
	if p.bodyAt > 0 {
		p.rd.Read(b[p.bodyAt:], final)
	}
}

// span is the source span of the call's bytes [from, to).
func (p *parser) span(from, to int) syntax.Span {
	return syntax.Span{Start: p.start.Offset + int64(from), End: p.start.Offset + int64(to)}
}

func (p *parser) onParam(key string, from, to int) {
	p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: key, Span: p.span(p.bodyAt+from, p.bodyAt+to)})
}

func (p *parser) onDelta(key string, delta []byte, from, to int) {
	p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: key, Delta: string(delta), Span: p.span(p.bodyAt+from, p.bodyAt+to)})
}

// afterCall reads what follows Function.Close: white space and Scope.Close
// belong to the call; anything else closes it where Function.Close ended.
func (p *parser) afterCall(data []byte, eof bool) int {
	if p.f.Scope.Close == "" { // no wrapper: Function.Close ended the call
		p.closeCall(p.callEnd)
		return scan.Again
	}
	i := skipWS(data)
	if i > 0 {
		return i // the call's span takes it if Scope.Close follows
	}
	full, partial := scan.MatchPrefix(data, p.f.Scope.Close)
	switch {
	case full:
		p.closeCall(p.Offset() + int64(len(p.f.Scope.Close)))
		return len(p.f.Scope.Close)
	case partial && !eof:
		return 0
	}
	p.closeCall(p.callEnd)
	return scan.Again
}

// endCall reads the call complete at its Function.Close: a valid call is
// emitted at once, its span ending there (more input cannot change it); a
// call that is not waits for closeCall, so that its error's span takes the
// Scope.Close that follows.
func (p *parser) endCall() {
	p.failed = true
	if p.blk.Over || p.nameErr != "" {
		return
	}
	body := p.blk.Bytes[p.bodyAt:p.bodyEnd]
	if at, _ := p.rd.Err(body); at >= 0 {
		return
	}
	p.failed = false
	args := p.rd.JSON()
	span := syntax.Span{Start: p.start.Offset, End: p.callEnd}
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, Args: args, Strings: true, Pos: p.start, Span: span})
	p.batch.Add(p.name, p.start.Offset, p.callEnd)
}

// closeCall ends the call after what follows its Function.Close: end is
// where the call's bytes end (after Scope.Close, when it came). A call that
// failed is reported here, with that span; the execute's span takes the
// bytes of a valid one (the Scope.Close after its Function.Close is in no
// call's span, but in the execute's).
func (p *parser) closeCall(end int64) {
	p.state = inText
	if !p.failed {
		p.batch.Extend(end)
		return
	}
	span := syntax.Span{Start: p.start.Offset, End: end}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.start, span, nil, "a tool call longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	raw := p.blk.Bytes // up to Function.Close
	if p.nameErr != "" {
		p.Errorf(syntax.CodeMalformed, p.start, span, raw, "tool call: %s", p.nameErr)
		return
	}
	at, msg := p.rd.Err(raw[p.bodyAt:p.bodyEnd])
	p.Errorf(syntax.CodeMalformed, p.start, span, raw, "tool call %s at %s: %s", p.name, scan.Advance(p.start, raw[:p.bodyAt+at]), msg)
}

// openResponse starts a Result block: the calls before it were executed.
func (p *parser) openResponse() {
	p.EndRun()
	p.batch.Execute(&p.Core)
	p.state = inResponse
	p.start = p.Pos()
	p.blk.Reset()
	p.Keep(&p.blk, []byte(p.f.Result.Open))
}

// response keeps a tool response's bytes up to Result.Close.
func (p *parser) response(data []byte, eof bool) int {
	n, closed := Response(&p.Core, &p.blk, data, eof, p.f.Result.Close)
	if closed {
		p.state = inText
		p.batch.Result(&p.Core, &p.blk, p.start, p.f.Result.Open, p.f.Result.Close, p.f.ResultJSON)
	}
	return n
}

// header reads what follows Header (or the start of the output): a word
// that a kind marker follows is the message's header, taken into the next
// event's span; anything else makes the word text.
func (p *parser) header(data []byte, eof bool) int {
	if len(p.hdr) == 0 {
		p.hdrAt, p.hdrPos = p.Offset(), p.Pos()
	}
	i := 0
	for i < len(data) && len(p.hdr)+i <= MaxName && isNameByte(data[i]) && strings.IndexByte(p.leads, data[i]) < 0 {
		i++
	}
	if i > 0 {
		p.hdr = append(p.hdr, data[:i]...)
		p.Undecided(p.hdrAt)
		return i
	}
	if len(data) > 0 && len(p.hdr) <= MaxName { // one byte more is no header
		if m, wait := scan.MatchAny(data, eof, p.kinds); m != "" {
			p.state = inText // a word kept is the header, which the marker's event takes
			p.Undecided(-1)
			return scan.Again
		} else if wait {
			return 0
		}
	}
	if len(data) == 0 && !eof {
		return 0
	}
	p.headerText()
	return scan.Again
}

// headerText gives the word read after Header back as text.
func (p *parser) headerText() {
	p.state = inText
	p.Undecided(-1)
	if len(p.hdr) > 0 {
		p.Text(syntax.Respond, p.hdr, p.hdrAt)
		p.hdr = p.hdr[:0]
	}
}

// takeHeader returns where the next event starts: at the message's header
// when one was decided on, else at off.
func (p *parser) takeHeader(off int64) int64 {
	if len(p.hdr) == 0 {
		return off
	}
	p.hdr = p.hdr[:0]
	return p.hdrAt
}

func (p *parser) finish(end int64) {
	f := p.f
	switch p.state {
	case inHeader:
		p.headerText()
		p.EndRun()
	case afterCall: // Function.Close and white space, then the end: the call is complete
		p.closeCall(p.callEnd)
	case inJSON:
		p.closeJSON(end, f.EndCloses && p.jb.phase == phaseAfter)
	case inJSONOpen:
		if isWord(p.jb.opener) {
			// A word (functools): at the end of the input it opened
			// nothing, and is text.
			p.unhold()
			p.EndRun()
			break
		}
		if p.heldType == syntax.Think {
			p.EndRun()
		}
		p.Errorf(syntax.CodeTruncated, p.heldPos, syntax.Span{Start: p.heldAt, End: end}, bytes.TrimRight(p.held, " \t\r\n"),
			"unterminated %s: the stream ended before the call's JSON", p.jb.opener)
	case inWrapper, inProbe:
		if p.heldType == syntax.Think {
			p.EndRun()
		}
		p.Errorf(syntax.CodeTruncated, p.heldPos, syntax.Span{Start: p.heldAt, End: end}, p.held,
			"unterminated tool call: the stream ended after %s", bytes.TrimSpace(p.held))
	case inOpenThink:
		if !p.thought {
			// Nothing written in the reasoning the prompt opened (white
			// space, or the opener restated): nothing was cut off.
			p.EndRun()
			break
		}
		fallthrough
	case inThink:
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
			"unterminated reasoning: the stream ended before %s", f.Think.Close)
	case inCall:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		if f.named() {
			p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.start.Offset, End: end}, raw,
				"unterminated tool call: the stream ended before %s", f.Function.Close)
		} else {
			name := " " + p.name
			if p.name == "" {
				name = "" // an opener with no name (Reopens)
			}
			p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.start.Offset, End: end}, raw,
				"unterminated tool call%s: the stream ended before %s", name, f.Scope.Close)
		}
	case inResponse:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.start.Offset, End: end}, raw,
			"unterminated %s: the stream ended before %s", f.Result.Open, f.Result.Close)
	}
	p.batch.Execute(&p.Core)
}

// isWord reports whether s is a word (letters, digits, '_'): an opener that
// prose may hold (functools), which the end of the input leaves text.
func isWord(s string) bool {
	for _, c := range s {
		if !(c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return s != ""
}
