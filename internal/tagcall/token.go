// The token form (Format.Token): calls written as special tokens around an
// id and JSON arguments, in tool-call sections (Kimi K2's form).

package tagcall

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Token describes the token form:
//
//	section = Open[i] { text | call } Close[j] .
//	call    = Call.Open HEADER Sep JSON Call.Close .
//
// Any of Open opens a section and any of Close closes it (a format may
// spell them several ways); a section closer missing at the end of the
// input is tolerated, and one outside a section is passed over. A
// Call.Open opens a call outside a section too: a special token is never
// prose. Text in a section outside calls is respond text. The header,
// trimmed, is read by the format (Header) for the call's function and id;
// the arguments are one JSON value, its end found by a JSON-aware scan: an
// object, null or nothing for {}, or a string holding an object. Reasoning
// (Format.Think) ends at its closer, at a section opener or at a
// Call.Open. Dropped tokens (Drop) are passed over in text and in a
// section, and are thought text in reasoning. A message's calls are one
// batch, executed at the end of the input. Results are not model text in
// this form: the renderer reports them.
type Token struct {
	Open, Close []string // the section openers and closers; the renderer writes the first of each
	Call        Tags     // a call's opener and closer
	Sep         string   // what ends the id and starts the arguments
	// Header reads a call's header, its text between Call.Open and Sep
	// less white space at its ends: the function it names and the call's
	// id ("" for none), or a problem ("has …", read after "the call").
	Header func(h string) (name, id, problem string)
	// WriteHeader writes the header of a call named name with the id id
	// ("" when the call has none, or the form cannot carry it), k counting
	// the calls the renderer wrote from 0 (a form whose header needs an id
	// makes one from it). IDRule says, in the renderer's report of an id it
	// cannot carry, what is wrong with it ("does not name it as
	// functions.NAME:IDX").
	WriteHeader func(name, id string, k int) string
	IDRule      string
	// Drop are tokens dropped where they stand in text, the text around
	// them kept (Solar Open's turn header and content marker). They are the
	// format's own tokens: each is evidence of it.
	Drop []string
	// Results says, in the renderer's report of results it is given, where
	// the format's results stand instead ("tool-role messages").
	Results string
}

// tkDerived is what the parser derives from a Token form: its marker
// lists, the bytes markers start with and the bytes they end with.
type tkDerived struct {
	text, think, section, idStops, searchStops, closers []string
	leads                                               string
	wake                                                *scan.ByteSet
}

// deriveToken derives the token form's values of f (Format.derive caches
// them).
func deriveToken(f *Format) *tkDerived {
	t := f.Token
	cat := func(lists ...[]string) []string {
		var out []string
		for _, l := range lists {
			out = append(out, l...)
		}
		return nonEmpty(out) // a form may have no reasoning tags
	}
	d := &tkDerived{
		text:        cat([]string{f.Think.Open}, t.Open, t.Close, []string{t.Call.Open}, t.Drop),
		think:       cat([]string{f.Think.Close}, t.Open, t.Close, []string{t.Call.Open}),
		section:     cat([]string{t.Call.Open}, t.Close, t.Drop),
		idStops:     cat([]string{t.Sep, t.Call.Close, t.Call.Open}, t.Close),
		searchStops: cat([]string{t.Call.Close, t.Call.Open}, t.Close),
		closers:     t.Close,
	}
	all := cat(d.text, d.think, d.idStops)
	d.leads = leadBytes(all)
	ends := ""
	for _, m := range all {
		ends += m[len(m)-1:]
	}
	d.wake = scan.Bytes(ends)
	return d
}

type tkState uint8

const (
	tkText    tkState = iota
	tkThink           // reasoning: after Think.Open, or from the start with Options.ThinkOpen
	tkSection         // inside a tool-call section, between calls
	tkID              // after Call.Open: the call's id
	tkArgs            // after Sep: the arguments
)

// Argument phases.
const (
	tkJSON   = iota // scanning the JSON value
	tkAfter         // the value is complete; white space, then Call.Close
	tkSearch        // the JSON is broken; the block ends at the next call marker
)

// Events complete only at the bytes markers end with or, right after a
// call's JSON and after a failed call, at any byte (see argBytes, hold).
type tokenParser struct {
	scan.Core
	f     *Format
	t     *Token
	d     *tkDerived
	state tkState
	home  tkState // where the open call stands: tkSection, or tkText for a call with no section opener

	thought  bool // the reasoning holds text other than white space
	explicit bool // the reasoning was opened by Think.Open in the output, not by the prompt

	thinkStart syntax.Pos

	// The open call.
	openAt      int64
	spanFrom    int64 // where the call's span starts: openAt, or an empty reasoning block it ended
	blockStart  syntax.Pos
	blk         scan.Block // the bytes after Call.Open
	idLen       int        // the id's bytes in blk (before Sep)
	argFrom     int        // where the arguments start in blk
	name, id    string
	idProblem   string
	phase       int
	jsonEnd     int
	problemAt   int64
	problemCode syntax.Code
	problem     string
	js          jsonscan.JSON

	// Token mode: the arguments streamed as compact JSON deltas.
	started   bool               // the call's first partial event was sent
	decided   bool               // whether the arguments stream is decided (they stream when they start with '{')
	streaming bool               // they do
	args      jsoncall.ArgStream // streams them, a bare object

	held    syntax.Event // the error of a call that just failed (see hold)
	holding bool
	closeAt int64 // where the first section closer after a valid call of the message stands; -1 before

	calls  int // valid calls in the message, not yet executed
	index  int // the open call's place among the calls of the message
	opened int // call blocks opened in the message
}

func newTokenParser(f *Format, h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &tokenParser{f: f, t: f.Token, d: f.derive().tok, closeAt: -1}
	p.Init(h, opts, p.step, p.finish)
	p.args = jsoncall.ArgStream{Emit: p.Emit, JSON: &p.js}
	p.WakeOn(p.d.wake)
	if opts.ThinkOpen {
		p.state = tkThink
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

func (p *tokenParser) step(data []byte, eof bool) int {
	if p.holding {
		return p.afterFailed(data, eof)
	}
	switch p.state {
	case tkThink:
		return p.thinkText(data, eof)
	case tkSection:
		return p.section(data, eof)
	case tkID:
		return p.idBytes(data, eof)
	case tkArgs:
		return p.argBytes(data, p.Offset(), eof)
	}
	return p.text(data, eof)
}

// textRun handles a text run of type t in which markers are the markers:
// it adds the text up to the next place one may start, and returns the
// marker data starts with, if any, and the bytes taken (0 with no marker:
// more input is needed).
func (p *tokenParser) textRun(t syntax.Type, data []byte, eof bool, markers []string) (string, int) {
	if n := p.TextBeforeAny(t, data, p.d.leads); n > 0 {
		return "", n
	}
	m, wait := matchAny(data, eof, markers)
	switch {
	case m != "":
		return m, len(m)
	case wait:
		return "", 0
	}
	n := scan.TextUntilAny(data, p.d.leads, func(rest []byte) bool { return startsAny(rest, eof, markers) })
	p.Text(t, data[:n], p.Offset())
	return "", n
}

// text handles respond text: Think.Open opens reasoning, a section opener
// a section; a section closer outside a section is passed over.
func (p *tokenParser) text(data []byte, eof bool) int {
	off := p.Offset()
	m, n := p.textRun(syntax.Respond, data, eof, p.d.text)
	switch {
	case m == "":
	case m == p.f.Think.Open:
		p.BeginRun(syntax.Think, off)
		p.thinkStart, p.thought, p.explicit = p.Pos(), false, true
		p.state = tkThink
	case slices.Contains(p.t.Open, m):
		p.EndRun()
		p.Evident(off) // a special token no other format writes
		p.state = tkSection
	case slices.Contains(p.t.Close, m):
		p.closer(off, m)
	case m == p.t.Call.Open: // a call with no section opener
		p.Evident(off)
		p.openCall(off, tkText)
	default: // a dropped token: the text before it is a run of its own
		p.EndRun()
		p.Evident(off)
	}
	return n
}

// closer passes over a section closer m at off: it ends the text run
// before it, whose span covers it; after a call, the execute covers it
// (see finish).
func (p *tokenParser) closer(off int64, m string) {
	p.EndRunAt(off + int64(len(m)))
	if p.calls > 0 && p.closeAt < 0 {
		p.closeAt = off
	}
}

// thinkText handles reasoning: it ends at Think.Close or at a section
// opener, whichever comes first. A section closer is passed over, as in
// text.
func (p *tokenParser) thinkText(data []byte, eof bool) int {
	off := p.Offset()
	if n, wait := p.Restated(syntax.Think, data, eof, p.f.Think.Open); n > 0 || wait {
		return n // the opener restated by the model (or white space before it)
	}
	m, n := p.textRun(syntax.Think, data, eof, p.d.think)
	if m == "" && len(jsonscan.TrimSpace(data[:n])) > 0 {
		p.thought = true
	}
	switch {
	case m == "":
	case m == p.f.Think.Close:
		p.EndRunAt(off + int64(len(m)))
		p.state = tkText
	case slices.Contains(p.t.Open, m):
		p.EndRun()
		p.Evident(off)
		p.state = tkSection
	case m == p.t.Call.Open: // a call with no section opener ends the reasoning too
		p.EndRun()
		p.Evident(off)
		p.openCall(off, tkText)
		if !p.thought {
			// Reasoning with no text gives no event: its opener is in the
			// span of the call that ended it, so that no byte goes
			// unaccounted for (alone, the opener is unterminated reasoning).
			p.spanFrom = p.thinkStart.Offset
		}
	}
	return n
}

// section handles the inside of a tool-call section: calls, and text
// between them (respond).
func (p *tokenParser) section(data []byte, eof bool) int {
	off := p.Offset()
	m, n := p.textRun(syntax.Respond, data, eof, p.d.section)
	switch {
	case m == "":
	case m == p.t.Call.Open:
		p.openCall(off, tkSection)
	case slices.Contains(p.t.Drop, m): // dropped, as in text
		p.EndRun()
		p.Evident(off)
	default: // a closer
		p.closer(off, m)
		p.state = tkText
	}
	return n
}

// afterFailed handles what follows a failed call, whose error is held:
// white space and a section closer right after it belong to the error.
func (p *tokenParser) afterFailed(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if i == len(data) && !eof {
		return i
	}
	m, wait := matchAny(data[i:], eof, p.d.closers)
	switch {
	case m != "":
		p.release(p.Offset() + int64(i+len(m)))
		p.state = tkText
		return i + len(m)
	case wait:
		return i
	}
	p.release(-1)
	if i == 0 {
		return scan.Again
	}
	return i
}

// hold keeps the error of a failed call until the section shows what
// follows it: a section closer right after it joins its span, so that no
// byte of the closer is left out of every event.
func (p *tokenParser) hold(e syntax.Event) {
	p.held, p.holding = e, true
	p.WakeOn(nil) // any byte but white space and a closer releases it
}

// release emits the held error, its span ending at end when end is past it.
func (p *tokenParser) release(end int64) {
	if !p.holding {
		return
	}
	p.holding = false
	p.WakeOn(p.d.wake)
	e := p.held
	e.Span.End = max(e.Span.End, end)
	p.Emit(e)
}

func (p *tokenParser) openCall(off int64, home tkState) {
	p.EndRun()
	p.home = home
	p.openAt, p.spanFrom = off, off
	p.blockStart = p.Pos()
	p.blk.Reset()
	p.idLen, p.argFrom = 0, 0
	p.name, p.id, p.idProblem = "", "", ""
	p.problem = ""
	p.started, p.decided, p.streaming = false, false, false
	p.index = p.opened
	p.opened++
	p.state = tkID
}

// idBytes handles the call's id, up to Sep.
func (p *tokenParser) idBytes(data []byte, eof bool) int {
	if i := scan.IndexLead(data, p.d.leads); i != 0 {
		if i < 0 {
			i = len(data)
		}
		p.Keep(&p.blk, data[:i])
		p.idLen += i
		return i
	}
	m, wait := matchAny(data, eof, p.d.idStops)
	switch {
	case m == p.t.Sep:
		p.Keep(&p.blk, data[:len(m)])
		p.argFrom = len(p.blk.Bytes)
		p.readID()
		p.phase = tkJSON
		p.js.Reset(p.Options().DepthLimit())
		p.state = tkArgs
		if p.started {
			p.args.Reset()
			p.args.Bare(p.name, p.index, p.Offset()+int64(len(m)))
		}
		return len(m)
	case m != "":
		// Another marker before the arguments: the call has none. Its
		// own close marker ends it; one that opens or closes something
		// else is read afresh, in the section.
		p.setProblem(syntax.CodeMalformed, p.blk.Len, "no "+p.t.Sep+" after the call's id")
		if m == p.t.Call.Close {
			p.Keep(&p.blk, data[:len(m)])
			p.finishCall(true)
			return len(m)
		}
		p.finishCall(true)
		return scan.Again
	case wait:
		return 0
	}
	n := scan.TextUntilAny(data, p.d.leads, func(rest []byte) bool { return startsAny(rest, eof, p.d.idStops) })
	p.Keep(&p.blk, data[:n])
	p.idLen += n
	return n
}

// readID reads the call's id, when it was kept, and in token mode
// announces the call.
func (p *tokenParser) readID() {
	if p.blk.Over {
		return
	}
	raw := strings.TrimSpace(string(p.blk.Bytes[:p.idLen]))
	p.name, p.id, p.idProblem = p.t.Header(raw)
	if p.idProblem == "" && p.Options().Mode == syntax.TokenMode {
		p.started = true
		end := p.Offset() + int64(len(p.t.Sep))
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, ID: p.id, Index: p.index,
			Span: syntax.Span{Start: p.spanFrom, End: end}})
	}
}

// argBytes handles the call's arguments: data, which stands at offset off
// of the input.
func (p *tokenParser) argBytes(data []byte, off int64, eof bool) int {
	callEnd := p.t.Call.Close
	used := 0
	for used < len(data) {
		rest := data[used:]
		switch p.phase {
		case tkJSON:
			if !p.js.Started() {
				i := jsonscan.SkipSpace(rest, 0)
				p.Keep(&p.blk, rest[:i])
				used += i
				if i == len(rest) {
					return used
				}
				rest = rest[i:]
				if rest[0] == callEnd[0] {
					full, partial := scan.MatchPrefix(rest, callEnd)
					if full { // no arguments: {}
						p.Keep(&p.blk, rest[:len(callEnd)])
						used += len(callEnd)
						p.jsonEnd = -1
						p.finishCall(true)
						return used
					}
					if partial && !eof {
						return used
					}
				}
				if !p.decided {
					p.decided = true
					p.streaming = p.started && rest[0] == '{'
				}
			}
			var n int
			rest = p.blk.Fit(rest, p.Options().BlockLimit()) // deltas never run past the limit
			if p.streaming {
				n = p.args.Scan(rest, off+int64(used))
			} else {
				n = p.js.Scan(rest)
			}
			p.Keep(&p.blk, rest[:n])
			if p.blk.Over {
				p.args.Stop()
			}
			used += n
			switch {
			case p.js.Done():
				p.phase = tkAfter
				p.jsonEnd = len(p.blk.Bytes)
				p.WakeOn(nil) // a byte other than the close marker ends the call at once
			case p.js.Err() != nil:
				p.setProblem(p.js.Err().Code(), p.blk.Len, "invalid JSON arguments: "+p.js.Err().Msg())
				p.phase = tkSearch
			}
		case tkAfter:
			i := jsonscan.SkipSpace(rest, 0)
			p.Keep(&p.blk, rest[:i])
			used += i
			if i == len(rest) {
				break
			}
			full, partial := scan.MatchPrefix(rest[i:], callEnd)
			switch {
			case full:
				p.Keep(&p.blk, rest[i:i+len(callEnd)])
				used += len(callEnd)
				p.finishCall(true)
				return used
			case partial && !eof:
				return used
			case partial: // the close marker cut off by the end of the input
				p.Keep(&p.blk, rest[i:])
				return len(data)
			}
			// Something else follows the arguments: the call has no close
			// marker. It is an error, and what follows is read afresh.
			p.setProblem(syntax.CodeMalformed, p.blk.Len, "the arguments are not followed by "+callEnd)
			p.finishCall(true)
			if used == 0 {
				return scan.Again
			}
			return used
		case tkSearch:
			n, m := p.searchStop(rest, eof)
			if m == callEnd {
				n += len(callEnd)
			}
			p.Keep(&p.blk, rest[:n])
			used += n
			if m != "" {
				p.finishCall(true) // a marker that opens something is read afresh
				if used == 0 {
					return scan.Again
				}
				return used
			}
			if used < len(data) {
				return used
			}
		}
	}
	return used
}

// searchStop finds in data the first marker that ends broken arguments:
// Call.Close (part of the call), or one that starts the next call or ends
// the section (not part of it). It returns the bytes before it and the
// marker, or, with none, the bytes that cannot start one.
func (p *tokenParser) searchStop(data []byte, eof bool) (int, string) {
	stops := func(rest []byte) bool { return startsAny(rest, eof, p.d.searchStops) }
	i := 0
	if !stops(data) {
		i = scan.TextUntilAny(data, p.d.leads, stops)
	}
	m, _ := matchAny(data[i:], eof, p.d.searchStops)
	return i, m
}

func (p *tokenParser) setProblem(code syntax.Code, at int64, msg string) {
	if p.problem == "" {
		p.problem, p.problemAt, p.problemCode = msg, at, code
	}
}

// posIn returns the position of offset k within the call's bytes.
func (p *tokenParser) posIn(k int64) syntax.Pos {
	k = min(k, int64(len(p.blk.Bytes)))
	return scan.Advance(scan.Advance(p.blockStart, []byte(p.t.Call.Open)), p.blk.Bytes[:k])
}

// finishCall ends the open call: ended says whether it ended before the
// end of the input.
func (p *tokenParser) finishCall(ended bool) {
	callBegin := p.t.Call.Open
	p.state = p.home
	p.WakeOn(p.d.wake)
	span := syntax.Span{Start: p.spanFrom, End: p.openAt + int64(len(callBegin)) + p.blk.Len}
	raw := func() string {
		if p.blk.Over {
			return ""
		}
		return callBegin + string(p.blk.Bytes)
	}
	fail := func(code syntax.Code, raw string, format string, args ...any) {
		p.hold(syntax.Event{Type: syntax.Error, Code: code, Message: fmt.Sprintf(format, args...), Pos: p.blockStart, Raw: raw, Span: span})
	}
	switch {
	case p.blk.Over:
		msg := fmt.Sprintf("tool call longer than the limit of %d bytes", p.Options().BlockLimit())
		if !ended {
			msg += " and unterminated"
		}
		fail(syntax.CodeOverLimit, "", "%s", msg)
		return
	case !ended:
		fail(syntax.CodeTruncated, raw(), "unterminated tool call: the stream ended before %s", p.t.Call.Close)
		return
	case p.problem != "":
		fail(p.problemCode, raw(), "tool call at %s: %s", p.posIn(p.problemAt), p.problem)
		return
	case p.idProblem != "":
		fail(syntax.CodeMalformed, raw(), "tool call at %s: the call %s", p.blockStart, p.idProblem)
		return
	}
	args := []byte("{}")
	if p.jsonEnd >= 0 {
		var problem string
		args, problem = readArgs(p.blk.Bytes[p.argFrom:p.jsonEnd], p.Options().DepthLimit())
		if problem != "" {
			at := int64(p.argFrom + jsonscan.SkipSpace(p.blk.Bytes[p.argFrom:], 0))
			id := ""
			if p.id != "" {
				id = " (" + p.id + ")"
			}
			fail(syntax.CodeMalformed, raw(), "tool call at %s: the call %s%s has arguments that %s",
				p.posIn(at), syntax.AppendQuote(nil, p.name), id, problem)
			return
		}
	}
	p.calls++
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, ID: p.id, Args: args, Pos: p.blockStart, Span: span})
}

// readArgs reads a call's arguments: an object; null for {}; or a JSON
// string holding an object (or nothing, for {}), decoded once.
func readArgs(v []byte, depth int) ([]byte, string) {
	args, k, ok := jsoncall.Args(v, depth)
	switch {
	case ok:
		return args, ""
	case k == '"':
		return nil, "are a string holding no JSON object"
	default:
		return nil, "are " + jsonscan.KindName(k) + ", not an object"
	}
}

// finish reports what the end of the stream left open (a section left open
// is fine: its closer is often cut), then executes the message's calls.
func (p *tokenParser) finish(end int64) {
	switch p.state {
	case tkThink:
		p.EndRun()
		// An explicit opener always says so (its bytes are in the error);
		// reasoning the prompt opened, only when it holds text.
		if p.explicit || p.thought {
			p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
				"unterminated reasoning: the stream ended before %s", p.f.Think.Close)
		}
	case tkID, tkArgs:
		p.finishCall(false)
	}
	p.release(-1)
	p.EndRun()
	if p.calls > 0 {
		// The execute stands for the end of the message; its span runs from
		// the first section closer after a call (no other event has those
		// bytes) to the end.
		start := end
		if p.closeAt >= 0 {
			start = p.closeAt
		}
		p.calls, p.closeAt = 0, -1
		p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: start, End: end}})
	}
}
