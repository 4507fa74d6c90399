// The token form (Format.Token): calls written as special tokens around an
// id and JSON arguments, in tool-call sections (Kimi K2's form).

package tagcall

import (
	"fmt"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/internal/params"
	"slices"
	"strings"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Token describes the token form (Kimi K2's, Solar Open's, DeepSeek's):
//
//	section = Open[i] { text | call } Close[j] .
//	call    = Call.Open HEADER Sep [ fence ] JSON [ fence ] Call.Close .
//
// Any of Open opens a section and any of Close closes it (a format may
// spell them several ways); a section closer missing at the end of the
// input is tolerated, and one outside a section is passed over (text, with
// Strict). A Call.Open opens a call outside a section too: a special token
// is never prose. Text in a section outside calls is respond text (with
// Strict, it ends the section). The header, trimmed, is read by the format
// (Header) for the call's function and id; the arguments are one JSON
// value, its end found by a JSON-aware scan: an object, null or nothing
// for {}, or a string holding an object. A broken call ends at its closer
// or at the next marker that opens or closes something, which is read
// afresh. Reasoning the prompt opened ends at Think.Close, a section
// opener or a Call.Open; reasoning written in the output too with
// Format.ThinkCalls, else at Think.Close only. Dropped tokens (Drop) are
// passed over in text and in a section, and are thought text in reasoning.
// A message's calls are one batch, executed at the end of the input or
// before the first output (Output). Without Output, results are not model
// text in this form: the renderer reports them.
type Token struct {
	Open, Close []string // the section openers and closers; the renderer writes the first of each
	Call        Tags     // a call's opener and closer
	Sep         string   // what ends the header and starts the arguments
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
	// Strict says a section holds calls only (DeepSeek's): white space
	// between them, text after its first call ends it (its closer is
	// missing) and text before its first call makes its opener an error,
	// as does the end of the input there; a section closer outside a
	// section is text.
	Strict bool
	// Typed, when set, is the word a header is when the call's name
	// follows Sep on its line instead (DeepSeek V3's
	// function<｜tool▁sep｜>NAME): a header that is the word, with
	// anything but '{' or a marker after Sep, is the call's type.
	Typed string
	// Fence says the arguments may stand in a markdown fence: ``` and a
	// label (json) before them, and ``` after them.
	Fence bool
	// Output is a tool output: its content, verbatim, is the result of
	// the call at its place in the last batch. Outputs is a section of
	// them, strict as Strict's sections are. The first output after calls
	// executes them. A form without outputs leaves them empty.
	Output, Outputs Tags
	// Invoke, when set, gives the output sections of invoke elements
	// besides the token sections (DeepSeek V3.2's and V4's DSML): its
	// Sections and Tags are read as the invoke form reads them (of its
	// fields only those two); a section opener of them opens the section
	// whatever follows it.
	Invoke *Invoke
	// Write says what the renderer writes calls as: 0 the token form,
	// WriteTyped the Typed form (the arguments in a json fence), or
	// WriteInvoke+i invoke elements in Invoke.Sections[i].
	Write int
}

// The forms a Token renderer may write calls in (Token.Write).
const (
	WriteTyped  = 1
	WriteInvoke = 2
)

// tkDerived is what the parser derives from a Token form: its marker
// lists, the bytes markers start with and the bytes they end with.
type tkDerived struct {
	text, textOnce, think, section, idStops, searchStops, invokeOpeners []string
	callItems, outputItems                                              []string // what a strict section reads between its items
	leads                                                               string
	wake                                                                *scan.ByteSet
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
	closers := t.Close // markers outside a section too, unless Strict
	if t.Strict {
		closers = nil
	}
	d := &tkDerived{
		section:     cat([]string{t.Call.Open}, t.Close, t.Drop),
		callItems:   cat(t.Close, []string{t.Call.Open}),
		outputItems: nonEmpty([]string{t.Outputs.Close, t.Output.Open}),
	}
	if t.Invoke != nil {
		d.invokeOpeners = t.Invoke.openers()
	}
	// What ends a call's header, and broken arguments: the call's markers
	// and every marker that opens or closes a block, read afresh.
	opens := cat([]string{t.Call.Open}, t.Open, t.Close, []string{t.Output.Open, t.Outputs.Open}, d.invokeOpeners)
	d.idStops = cat([]string{t.Sep, t.Call.Close}, opens)
	d.searchStops = cat([]string{t.Call.Close}, opens)
	d.textOnce = cat(t.Open, closers, []string{t.Call.Open, t.Output.Open, t.Outputs.Open}, d.invokeOpeners, t.Drop)
	d.text = cat([]string{f.Think.Open}, d.textOnce)
	d.think = cat([]string{f.Think.Close}, t.Open, closers, []string{t.Call.Open}, d.invokeOpeners)
	all := cat(d.text, d.think, d.idStops, []string{t.Output.Close, t.Outputs.Close})
	d.leads = leadBytes(all)
	ends := ""
	for _, m := range all {
		ends += m[len(m)-1:]
	}
	if t.Invoke != nil {
		ends += t.Invoke.tagEnds()
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
	tkOutputs         // inside an outputs section (Token.Outputs), between outputs
	tkOutput          // inside an output (Token.Output)
	tkInvoke          // inside a section of invoke elements (Token.Invoke)
)

// Argument phases.
const (
	tkJSON   = iota // scanning the JSON value
	tkAfter         // the value is complete; white space, then Call.Close
	tkSearch        // the JSON is broken; the block ends at the next call marker
	tkName          // Typed: the name after Sep, to the end of its line
)

// fence is what opens and closes fenced arguments (Token.Fence); a label
// of up to maxLabel letters follows the opening one.
const (
	fence    = "```"
	maxLabel = 16
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

	thought  bool     // the reasoning holds text other than white space
	explicit bool     // the reasoning was opened by Think.Open in the output, not by the prompt
	text     []string // the markers of text: with Format.ThinkOnce and Options.ThinkOpen, Think.Open is not one

	// The open section (Strict, or outputs).
	sectionAt   syntax.Pos
	sectionOpen string
	sectionN    int // calls or outputs in it

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
	typed       bool // the header is Token.Typed: the name may follow Sep
	nameFrom    int  // tkName: where the name starts in blk
	fenced      bool // a fence opened before the arguments, not yet closed

	// Token mode: the arguments streamed as compact JSON deltas.
	started   bool               // the call's first partial event was sent
	decided   bool               // whether the arguments stream is decided (they stream when they start with '{')
	streaming bool               // they do
	args      jsoncall.ArgStream // streams them, a bare object

	held    syntax.Event // the error of a call that just failed, or a section's output (see hold)
	holding bool
	heldEnd []string // the closers that join the held event
	closeAt int64    // where the first section closer after a valid call of the message stands; -1 before

	calls  int // valid calls in the message, not yet executed
	index  int // the open call's place among the calls of the message
	opened int // call blocks opened in the message

	// Outputs: the names of the calls not yet executed, those of the last
	// batch executed, and the outputs read since.
	names, last []string
	results     int
	outFrom     int64 // where the open output's span starts: its opener, or its section's for the first

	iv invokexml.Reader // Token.Invoke's sections
}

func newTokenParser(f *Format, h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &tokenParser{f: f, t: f.Token, d: f.derive().tok, closeAt: -1}
	p.Init(h, opts, p.step, p.finish)
	p.args = jsoncall.ArgStream{Emit: p.Emit, JSON: &p.js}
	p.text = p.d.text
	if opts.ThinkOpen && f.ThinkOnce {
		p.text = p.d.textOnce
	}
	if p.t.Invoke != nil {
		p.iv.Init(&p.Core, p.t.Invoke.Tags)
		p.iv.OnCall = func(name string, from int64) {
			if p.closeAt < 0 || from < p.closeAt {
				p.closeAt = from // the execute's span takes in the section's tags
			}
			p.called(name)
		}
	}
	p.WakeOn(p.d.wake)
	if opts.ThinkOpen {
		p.state = tkThink
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

// step runs the state's step, then tells the core which bytes can complete
// an event in the new state (see scan.Core.WakeOn): markers' last bytes,
// or any byte where text ends a section or follows a call's arguments or
// a held event.
func (p *tokenParser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	switch {
	case p.holding, p.state == tkArgs && p.phase == tkAfter, p.state == tkOutputs,
		p.state == tkSection && p.t.Strict, p.state == tkInvoke && p.iv.Between():
		p.WakeOn(nil)
	default:
		p.WakeOn(p.d.wake)
	}
	return n
}

func (p *tokenParser) stateStep(data []byte, eof bool) int {
	if p.holding {
		return p.afterHeld(data, eof)
	}
	switch p.state {
	case tkThink:
		return p.thinkText(data, eof)
	case tkSection:
		if p.t.Strict {
			return p.strict(data, eof, p.t.Call.Open, p.d.callItems)
		}
		return p.section(data, eof)
	case tkID:
		return p.idBytes(data, eof)
	case tkArgs:
		return p.argBytes(data, p.Offset(), eof)
	case tkOutputs:
		return p.strict(data, eof, p.t.Output.Open, p.d.outputItems)
	case tkOutput:
		n, closed := markup.KeepUntil(&p.blk, p.Options().BlockLimit(), data, eof, p.t.Output.Close)
		if closed {
			p.closeOutput()
		}
		return n
	case tkInvoke:
		n, done := stepSection(&p.iv, data, eof)
		if done {
			p.state = tkText
		}
		return n
	}
	return p.textStep(data, eof)
}

// textRun handles a text run of type t in which markers are the markers:
// it adds the text up to the next place one may start, and returns the
// marker data starts with, if any, and the bytes taken (0 with no marker:
// more input is needed).
func (p *tokenParser) textRun(t syntax.Type, data []byte, eof bool, markers []string) (string, int) {
	if n := p.TextBeforeAny(t, data, p.d.leads); n > 0 {
		return "", n
	}
	m, wait := scan.MatchAny(data, eof, markers)
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

// textStep handles respond text: Think.Open opens reasoning, a section
// opener a section; a section closer outside a section is passed over
// (text, when Strict).
func (p *tokenParser) textStep(data []byte, eof bool) int {
	off := p.Offset()
	m, n := p.textRun(syntax.Respond, data, eof, p.text)
	switch {
	case m == "":
	case m == p.f.Think.Open:
		p.BeginRun(syntax.Think, off)
		p.thinkStart, p.thought, p.explicit = p.Pos(), false, true
		p.state = tkThink
	case slices.Contains(p.t.Close, m):
		p.closer(off, m)
	case slices.Contains(p.t.Drop, m): // the text before it is a run of its own
		p.EndRun()
		p.Evident(off)
	default:
		p.opens(m, off)
	}
	return n
}

// opens acts on m, a marker at off that opens something: a section, a
// call, an output or an invoke section.
func (p *tokenParser) opens(m string, off int64) {
	p.EndRun()
	p.Evident(off) // a special token no other format writes
	switch {
	case m == p.t.Call.Open: // a call with no section opener
		p.openCall(off, tkText)
	case m == p.t.Output.Open:
		p.executeBefore(off)
		p.openOutput(off, tkText)
	case m == p.t.Outputs.Open:
		p.executeBefore(off)
		p.openSection(m, tkOutputs)
	case slices.Contains(p.d.invokeOpeners, m):
		p.iv.Open(m, p.t.Invoke.closerOf(m), p.Pos())
		p.state = tkInvoke
	default:
		p.openSection(m, tkSection)
	}
}

// openSection notes a section opener m at the core's position.
func (p *tokenParser) openSection(m string, s tkState) {
	p.sectionAt, p.sectionOpen, p.sectionN = p.Pos(), m, 0
	p.state = s
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
	markers := p.d.think
	if p.explicit && !p.f.ThinkCalls {
		markers = markers[:1] // Think.Close: nothing else is a marker in it
	}
	m, n := p.textRun(syntax.Think, data, eof, markers)
	if m == "" && len(jsonscan.TrimSpace(data[:n])) > 0 {
		p.thought = true
	}
	switch {
	case m == "":
	case m == p.f.Think.Close:
		p.EndRunAt(off + int64(len(m)))
		p.state = tkText
	case slices.Contains(p.t.Close, m): // a section closer is passed over
	default: // a section or call opener ends the reasoning too
		p.opens(m, off)
		if m == p.t.Call.Open && !p.thought {
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

// strict handles a strict section (Token.Strict, or outputs) between its
// items: white space, then item (what opens the next) or one of closers;
// anything else ends the section, an error when no item came.
func (p *tokenParser) strict(data []byte, eof bool, item string, markers []string) int {
	if i := markup.Spaces(data); i > 0 {
		return i
	}
	off := p.Offset()
	m, wait := scan.MatchAny(data, eof, markers)
	switch {
	case m == item && p.state == tkOutputs:
		p.openOutput(off, tkOutputs)
		return len(m)
	case m == item:
		p.openCall(off, tkSection)
		return len(m)
	case m != "":
		end := off + int64(len(m))
		p.release(end)
		if p.sectionN == 0 && p.state == tkOutputs {
			p.Errorf(syntax.CodeMalformed, p.sectionAt, syntax.Span{Start: p.sectionAt.Offset, End: end}, []byte(p.sectionOpen+m),
				"empty %s section: it must hold %s blocks", p.sectionOpen, item)
		} else if p.calls > 0 && p.closeAt < 0 {
			p.closeAt = p.sectionAt.Offset // the execute takes in the section's tags (an empty section's too)
		}
		p.state = tkText
		return len(m)
	case wait:
		return 0
	}
	// Text: the section's closer is missing.
	p.release(-1)
	if p.sectionN == 0 {
		p.Errorf(syntax.CodeMalformed, p.sectionAt, syntax.Span{Start: p.sectionAt.Offset, End: off}, []byte(p.sectionOpen),
			"%s is followed by text, not %s", p.sectionOpen, item)
	}
	p.state = tkText
	return scan.Again
}

// afterHeld handles what follows a held event (a failed call's error, a
// section's output): white space and a closer of its section right after
// it belong to it.
func (p *tokenParser) afterHeld(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if i == len(data) && !eof {
		return i
	}
	m, wait := scan.MatchAny(data[i:], eof, p.heldEnd)
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

// hold keeps an event until what follows it shows where its block ends: a
// closer of its section (ends) right after it joins its span, so that no
// byte of the closer is left out of every event.
func (p *tokenParser) hold(e syntax.Event, ends []string) {
	p.held, p.holding, p.heldEnd = e, true, ends
}

// release emits the held event, its span ending at end when end is past
// it.
func (p *tokenParser) release(end int64) {
	if !p.holding {
		return
	}
	p.holding = false
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
	p.typed, p.fenced = false, false
	p.phase = tkJSON
	p.index = p.opened
	p.opened++
	p.state = tkID
	if home == tkSection && p.t.Strict {
		if p.sectionN == 0 {
			p.spanFrom = p.sectionAt.Offset // the section's opener is the first call's
		}
		p.sectionN++
	}
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
	m, wait := scan.MatchAny(data, eof, p.d.idStops)
	switch {
	case m == p.t.Sep:
		p.Keep(&p.blk, data[:len(m)])
		p.argFrom = len(p.blk.Bytes)
		p.phase = tkJSON
		p.js.Reset(p.Options().DepthLimit())
		p.state = tkArgs
		p.readID()
		return len(m)
	case m != "":
		// Another marker before the arguments: the call has none. Its
		// own close marker ends it; one that opens or closes something
		// else is read afresh, in the section.
		p.setProblem(syntax.CodeMalformed, p.blk.Len, "no "+p.t.Sep+" between the call's header and its arguments")
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
	if p.idProblem == "" {
		if p.typed = raw == p.t.Typed && raw != ""; !p.typed { // a typed header waits for what follows Sep
			p.announce(p.Offset() + int64(len(p.t.Sep)))
		}
	}
}

// announce sends, in token mode, the call's first partial event, its name
// read by at, and readies the arguments' stream.
func (p *tokenParser) announce(at int64) {
	if p.Options().Mode != syntax.TokenMode {
		return
	}
	p.started = true
	p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, ID: p.id, Index: p.index,
		Span: syntax.Span{Start: p.spanFrom, End: at}})
	p.args.Reset()
	p.args.Bare(p.name, p.index, at)
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
				if p.typed { // what follows Sep says whether the name does
					p.typed = false
					if rest[0] != '{' && strings.IndexByte(p.d.leads, rest[0]) < 0 {
						p.phase, p.nameFrom = tkName, len(p.blk.Bytes)
						continue
					}
					p.announce(off + int64(used))
				}
				if p.t.Fence && !p.fenced && rest[0] == fence[0] {
					n, wait := fenceOpener(rest, eof)
					if wait {
						return used
					}
					if n > 0 {
						p.Keep(&p.blk, rest[:n])
						used += n
						p.fenced = true
						p.argFrom = len(p.blk.Bytes)
						continue
					}
				}
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
			used += p.args.ScanBlock(&p.blk, p.Options().BlockLimit(), rest, off+int64(used), p.streaming)
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
			if p.fenced { // the fence's closer, once
				full, partial := scan.MatchPrefix(rest[i:], fence)
				if full {
					p.Keep(&p.blk, rest[i:i+len(fence)])
					used += len(fence)
					p.fenced = false
					continue
				}
				if partial && !eof {
					return used
				}
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
		case tkName:
			i := 0
			for i < len(rest) && rest[i] != '\n' && rest[i] != fence[0] && strings.IndexByte(p.d.leads, rest[i]) < 0 {
				i++
			}
			p.Keep(&p.blk, rest[:i])
			used += i
			if i == len(rest) && !eof {
				return used
			}
			p.phase = tkJSON
			if p.blk.Over {
				p.phase = tkSearch // the name was not all kept: the call is over the limit
				continue
			}
			if p.name = string(jsonscan.TrimSpace(p.blk.Bytes[p.nameFrom:])); p.name == "" {
				p.setProblem(syntax.CodeMalformed, p.blk.Len, "the call has no name after "+p.t.Typed+p.t.Sep)
				p.phase = tkSearch
				continue
			}
			p.argFrom = len(p.blk.Bytes)
			p.announce(off + int64(used))
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

// fenceOpener reads a fence's opener at the start of data: ``` and a
// label of letters. It returns its length (0: none), or wait for more
// input.
func fenceOpener(data []byte, eof bool) (n int, wait bool) {
	full, partial := scan.MatchPrefix(data, fence)
	if !full {
		return 0, partial && !eof
	}
	n = len(fence)
	for n < len(data) && n-len(fence) <= maxLabel && ('a' <= data[n] && data[n] <= 'z' || 'A' <= data[n] && data[n] <= 'Z') {
		n++
	}
	return n, n == len(data) && !eof
}

// searchStop finds in data the first marker that ends broken arguments:
// Call.Close (part of the call), or one that opens or closes a block (not
// part of it). It returns the bytes before it and the
// marker, or, with none, the bytes that cannot start one.
func (p *tokenParser) searchStop(data []byte, eof bool) (int, string) {
	stops := func(rest []byte) bool { return startsAny(rest, eof, p.d.searchStops) }
	i := 0
	if !stops(data) {
		i = scan.TextUntilAny(data, p.d.leads, stops)
	}
	m, _ := scan.MatchAny(data[i:], eof, p.d.searchStops)
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
	span := syntax.Span{Start: p.spanFrom, End: p.openAt + int64(len(callBegin)) + p.blk.Len}
	raw := func() string {
		if p.blk.Over {
			return ""
		}
		return callBegin + string(p.blk.Bytes)
	}
	fail := func(code syntax.Code, raw string, format string, args ...any) {
		e := syntax.Event{Type: syntax.Error, Code: code, Message: fmt.Sprintf(format, args...), Pos: p.blockStart, Raw: raw, Span: span}
		if p.t.Strict && p.home != tkSection {
			p.Emit(e) // no section: a closer after it is text
			return
		}
		p.hold(e, p.t.Close)
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
		name := p.name
		switch {
		case p.typed: // the header may be the call's type: no name read yet
			name = ""
		case p.phase == tkName && !p.blk.Over:
			name = string(jsonscan.TrimSpace(p.blk.Bytes[p.nameFrom:]))
		}
		if name != "" {
			name = " " + string(syntax.AppendQuote(nil, name))
		}
		fail(syntax.CodeTruncated, raw(), "unterminated tool call%s: the stream ended before %s", name, p.t.Call.Close)
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
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, ID: p.id, Args: args, Pos: p.blockStart, Span: span})
	p.called(p.name)
}

// called counts a valid call into the batch.
func (p *tokenParser) called(name string) {
	p.calls++
	if p.t.Output.Open != "" && len(p.names) < 1024 { // enough to name the outputs of any real batch; memory stays bounded
		p.names = append(p.names, name)
	}
}

// executeBefore executes the pending calls, if any, before the output at
// off: it answers them.
func (p *tokenParser) executeBefore(off int64) {
	p.release(-1)
	if p.calls > 0 {
		p.execute(off)
		p.last, p.names = p.names, p.last[:0]
		p.results = 0
	}
}

// execute emits the execute of the pending calls, the batch ending at
// end; its span runs from the first section closer after a call (no
// other event has those bytes) to end.
func (p *tokenParser) execute(end int64) {
	start := end
	if p.closeAt >= 0 {
		start = p.closeAt
	}
	p.calls, p.closeAt = 0, -1
	p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: start, End: end}})
}

// openOutput opens an output at off, home being where it stands: an
// outputs section, or text.
func (p *tokenParser) openOutput(off int64, home tkState) {
	p.home, p.outFrom = home, off
	if home == tkOutputs {
		if p.sectionN == 0 {
			p.outFrom = p.sectionAt.Offset
		}
		p.sectionN++
	}
	p.blockStart = p.Pos()
	p.blk.Reset()
	p.Keep(&p.blk, []byte(p.t.Output.Open))
	p.state = tkOutput
}

// closeOutput ends the output, its closer kept: its result is that of the
// call at its place in the last batch.
func (p *tokenParser) closeOutput() {
	p.state = p.home
	span := syntax.Span{Start: p.outFrom, End: p.blockStart.Offset + p.blk.Len}
	var e syntax.Event
	if p.blk.Over {
		e = syntax.Event{Type: syntax.Error, Code: syntax.CodeOverLimit, Pos: p.blockStart, Span: span,
			Message: fmt.Sprintf("tool output longer than the limit of %d bytes", p.Options().BlockLimit())}
	} else {
		tool := ""
		if p.results < len(p.last) {
			tool = p.last[p.results]
		}
		text := p.blk.Bytes[len(p.t.Output.Open) : len(p.blk.Bytes)-len(p.t.Output.Close)]
		e = syntax.Event{Type: syntax.Result, Tool: tool, Status: syntax.Success, Value: params.Quote(nil, text), Span: span}
	}
	p.results++
	if p.home == tkOutputs {
		p.hold(e, p.d.outputItems[:1]) // Outputs.Close
		return
	}
	p.Emit(e)
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
			by := " (opened by the prompt)"
			if p.explicit {
				by = ""
			}
			p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
				"unterminated reasoning%s: the stream ended before %s", by, p.f.Think.Close)
		}
	case tkID, tkArgs:
		p.finishCall(false)
	case tkSection, tkOutputs:
		if (p.t.Strict || p.state == tkOutputs) && p.sectionN == 0 {
			what := map[bool]string{true: "output", false: "call"}[p.state == tkOutputs]
			p.Errorf(syntax.CodeTruncated, p.sectionAt, syntax.Span{Start: p.sectionAt.Offset, End: end}, []byte(p.sectionOpen),
				"unterminated %s: the stream ended before any %s", p.sectionOpen, what)
		}
	case tkOutput:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.blockStart, syntax.Span{Start: p.outFrom, End: end}, raw,
			"unterminated tool output: the stream ended before %s", p.t.Output.Close)
	case tkInvoke:
		p.iv.Finish(end)
	}
	p.release(-1)
	p.EndRun()
	if p.calls > 0 {
		p.execute(end) // the end of the message
	}
}
