package deepseek

import (
	"bytes"
	"fmt"

	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the deepseek syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "deepseek",
	Description: "DeepSeek V3/R1, V3.1 <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>, V3.2 and V4 DSML <｜DSML｜invoke>",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Variants: []syntax.Variant{
		{Name: "deepseek-v3", Description: "DeepSeek V3 / R1: function<｜tool▁sep｜>NAME and a ```json fence", Render: newRendererV3},
		{Name: "deepseek-dsml", Description: "DeepSeek V3.2 DSML: <｜DSML｜invoke> with typed parameters", Render: newRendererDSML,
			Prompt: dsmlPrompt("function_calls"), Models: []string{"*deepseek-v3.2*"}},
		{Name: "deepseek-v4", Description: "DeepSeek V4: V3.2's DSML invokes in a <｜DSML｜tool_calls> section", Render: newRendererV4,
			Prompt: dsmlPrompt("tool_calls"), Models: []string{"*deepseek-v4*"}},
	},
	Prompt: promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"deepseek-r1*", "*deepseek-v3*", "*deepseek-v2.5*", "deepseek-chat-v*", "deepseek-prover*", "deepcoder*", "*r1-distill*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"tool▁call▁begin"}},
		{All: []string{"｜DSML｜", "function_calls>"}},
		{All: []string{"｜DSML｜", "tool_calls>"}},
	},
}

const promptRules = `To call tools, write <｜tool▁calls▁begin｜>, then for each call <｜tool▁call▁begin｜>TOOL_NAME<｜tool▁sep｜>{JSON arguments}<｜tool▁call▁end｜>, then <｜tool▁calls▁end｜>:
- The arguments are one strict JSON object: quote every key and string, escape quotes as \" and newlines as \n.
- Several calls in one <｜tool▁calls▁begin｜> section run together; stop after the section and wait for their outputs.
- Each output comes back as <｜tool▁output▁begin｜>OUTPUT<｜tool▁output▁end｜>, in the order of the calls.
- Think inside <think>...</think> (optional). Text outside these markers is your answer to the user.`

// dsmlPrompt is the rules of DeepSeek's DSML form, its calls in a section
// named section (V3.2: function_calls, V4: tool_calls).
func dsmlPrompt(section string) string {
	return `To call tools, write a <｜DSML｜` + section + `> section, one invoke per call:
<｜DSML｜` + section + `>
<｜DSML｜invoke name="TOOL_NAME">
<｜DSML｜parameter name="PARAM" string="true">text, as it is</｜DSML｜parameter>
<｜DSML｜parameter name="COUNT" string="false">3</｜DSML｜parameter>
</｜DSML｜invoke>
</｜DSML｜` + section + `>
- string="true" marks a string value, written as it is; string="false" a number, true, false, null or JSON array or object.
- Several invokes in one section run together; stop after the section and wait for their results.
- Think inside <think>...</think> (optional). Text outside the section is your answer to the user.`
}

// The markers. ｜ is U+FF5C and ▁ is U+2581, three bytes each in UTF-8.
const (
	openThink      = "<think>"
	closeThink     = "</think>"
	callsBegin     = "<｜tool▁calls▁begin｜>"
	callsEnd       = "<｜tool▁calls▁end｜>"
	callBegin      = "<｜tool▁call▁begin｜>"
	callEnd        = "<｜tool▁call▁end｜>"
	toolSep        = "<｜tool▁sep｜>"
	outputsBegin   = "<｜tool▁outputs▁begin｜>"
	outputsEnd     = "<｜tool▁outputs▁end｜>"
	outputBegin    = "<｜tool▁output▁begin｜>"
	outputEnd      = "<｜tool▁output▁end｜>"
	dsmlCalls      = "<｜DSML｜function_calls>"
	dsmlCallsEnd   = "</｜DSML｜function_calls>"
	dsmlToolCalls  = "<｜DSML｜tool_calls>" // V4's section: V3.2's invokes under another name
	dsmlToolEnd    = "</｜DSML｜tool_calls>"
	fence          = "```"
	callTypeV3     = "function"
	maxFenceLabel  = 16 // letters after an opening ``` ("json")
	markerLeadByte = '<'
)

// textMarkers are the markers read in text. A section closer with no
// section open is text.
var (
	textMarkers = [...]string{openThink, callsBegin, callBegin, outputsBegin, outputBegin, dsmlCalls, dsmlToolCalls}
	callOpeners = [...]string{callsBegin, callBegin, dsmlCalls, dsmlToolCalls}
	dsmlTags    = invokexml.Tags{Syntax: "deepseek", Invoke: "<｜DSML｜invoke", InvokeEnd: "</｜DSML｜invoke>", Param: "<｜DSML｜parameter", ParamEnd: "</｜DSML｜parameter>", SectionEnd: dsmlCallsEnd, Typed: true}
)

type state uint8

const (
	inText    state = iota
	inThink         // reasoning: explicit (<think>) or implicit (ThinkOpen)
	inSection       // <｜tool▁calls▁begin｜>, between calls
	inCall          // <｜tool▁call▁begin｜> … <｜tool▁call▁end｜>
	inOutputs       // <｜tool▁outputs▁begin｜>, between outputs
	inOutput        // <｜tool▁output▁begin｜> … <｜tool▁output▁end｜>
	inDSML          // <｜DSML｜function_calls> section (invokexml)
)

// Call phases.
const (
	phHeader   = iota // the call type (V3) or the name (V3.1), up to <｜tool▁sep｜>
	phAfterSep        // white space after <｜tool▁sep｜>: the JSON or, in V3, the name
	phName            // V3: the name, up to the end of its line
	phFence           // V3: white space and ```json before the JSON
	phJSON            // the arguments
	phAfter           // after the JSON: white space, an optional ```, then <｜tool▁call▁end｜>
	phSearch          // the call is malformed: up to the next <｜tool▁call▁end｜>
)

type parser struct {
	scan.Core
	state state
	think markup.Think // the reasoning (see doc.go for ThinkOpen)

	// The open section (calls or outputs).
	sectionAt syntax.Pos
	sectionN  int  // calls or outputs seen in it
	inSect    bool // the open call belongs to a section

	// The open call.
	start     syntax.Pos
	spanFrom  int64 // where its error span starts (its section's opener for the first call)
	blk       scan.Block
	phase     int
	header    []byte // phHeader: the name or call type
	name      string
	sawFence  bool
	jsonAt    int // offset of the JSON in blk
	jsonEnd   int
	js        jsonscan.JSON
	problem   string
	problemAt int64
	code      syntax.Code
	streaming bool               // token mode: the args stream
	args      jsoncall.ArgStream // streams them

	// The batch: calls since the last execute.
	batch   markup.Batch
	names   []string // the names of the batch's calls
	last    []string // the names of the last executed batch, for results
	results int      // results read since it

	// The open output.
	outStart syntax.Pos
	outFrom2 int64

	// The last error (or, in an outputs section, result) of the open
	// section, held until the section's next item or its end, so that its
	// span takes in the section's closer.
	held markup.Held

	dsml invokexml.Reader
}

// emitItem emits an error or result of a section item, or holds it while
// its section is open (see held).
func (p *parser) emitItem(e syntax.Event) {
	if p.inSect {
		p.held.Keep(&p.Core, e)
		return
	}
	p.flushHeld(-1)
	p.Emit(e)
}

// flushHeld emits the held event; end >= 0 extends its span to a closer.
func (p *parser) flushHeld(end int64) { p.held.Flush(&p.Core, end) }

func (p *parser) errorEvent(code syntax.Code, pos syntax.Pos, span syntax.Span, raw []byte, format string, args ...any) syntax.Event {
	return syntax.Event{Type: syntax.Error, Code: code, Message: fmt.Sprintf(format, args...), Pos: pos, Raw: string(raw), Span: span}
}

// newParser returns a deepseek parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.args = jsoncall.ArgStream{Emit: p.Emit, JSON: &p.js, Held: true}
	p.dsml.Init(&p.Core, dsmlTags)
	p.dsml.OnCall = p.called
	p.think = markup.Think{Open: openThink, Close: closeThink, Leads: "<"}
	if p.think.Init(&p.Core, opts) {
		p.state = inThink
	}
	return p
}

var wakeSet = scan.Bytes(">")

// step runs the state's step, then tells the core which bytes can complete
// an event in the new state (see scan.Core.WakeOn): every marker ends in
// '>', but between a section's items text ends the section at once.
func (p *parser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	switch {
	case p.state == inSection, p.state == inOutputs, p.state == inDSML && p.dsml.Between():
		p.WakeOn(nil)
	default:
		p.WakeOn(wakeSet)
	}
	return n
}

func (p *parser) stateStep(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		n, done := p.think.Step(&p.Core, data, eof, callOpeners[:], endsThought)
		if done {
			p.state = inText
		}
		return n
	case inSection:
		return p.section(data, eof)
	case inCall:
		return p.call(data, eof)
	case inOutputs:
		return p.outputs(data, eof)
	case inOutput:
		return p.output(data, eof)
	case inDSML:
		n, done := p.dsml.Step(data, eof)
		if done {
			p.state = inText
			if n == 0 {
				return scan.Again
			}
		}
		return n
	}
	return p.text(data, eof)
}

// text handles input outside blocks: respond text and the markers.
func (p *parser) text(data []byte, eof bool) int {
	off := p.Offset()
	m, n := p.think.Text(&p.Core, data, eof, textMarkers[:])
	if m != "" && m != openThink {
		p.Evident(off) // DeepSeek's own special tokens
	}
	switch m {
	case openThink:
		p.state = inThink
	case callsBegin, outputsBegin, dsmlCalls, dsmlToolCalls:
		p.EndRun()
		p.sectionAt, p.sectionN = p.Pos(), 0
		switch m {
		case callsBegin:
			p.state = inSection
		case outputsBegin:
			p.executeBefore(off)
			p.state = inOutputs
		case dsmlCalls:
			p.dsml.Open(m, dsmlCallsEnd, p.sectionAt)
			p.state = inDSML
		default:
			p.dsml.Open(m, dsmlToolEnd, p.sectionAt)
			p.state = inDSML
		}
	case callBegin:
		p.EndRun()
		p.openCall(false, len(m))
	case outputBegin:
		p.EndRun()
		p.executeBefore(off)
		p.openOutput(false)
	}
	return n
}

// endsThought reports whether data starts a call opener, which ends the
// reasoning the prompt opened.
func endsThought(data []byte, eof bool) (yes, wait bool) {
	m, wait := markup.MatchAny(data, eof, callOpeners[:])
	return m != "", wait
}

// section handles a calls section between its calls.
func (p *parser) section(data []byte, eof bool) int {
	if i := markup.Spaces(data); i > 0 {
		return i
	}
	if full, partial := scan.MatchPrefix(data, callsEnd); full {
		p.flushHeld(p.Offset() + int64(len(callsEnd)))
		p.state = inText
		return len(callsEnd)
	} else if partial && !eof {
		return 0
	}
	full, partial := scan.MatchPrefix(data, callBegin)
	switch {
	case full:
		p.openCall(true, len(callBegin))
		return len(callBegin)
	case partial && !eof:
		return 0
	}
	// Text: the section's end is missing. Before any call, the section is
	// an error; after one, the text is the answer's.
	p.flushHeld(-1)
	if p.sectionN == 0 {
		p.Errorf(syntax.CodeMalformed, p.sectionAt, syntax.Span{Start: p.sectionAt.Offset, End: p.Offset()}, []byte(callsBegin),
			"%s is followed by text, not %s", callsBegin, callBegin)
	}
	p.state = inText
	return scan.Again
}

// openCall starts a call; its opener, n bytes, is at the data's start.
func (p *parser) openCall(inSection bool, n int) {
	p.flushHeld(-1)
	p.state = inCall
	p.inSect = inSection
	p.start = p.Pos()
	p.spanFrom = p.start.Offset
	if inSection {
		p.sectionN++
		if p.sectionN == 1 {
			p.spanFrom = p.sectionAt.Offset
		}
	}
	p.blk.Reset()
	p.Keep(&p.blk, []byte(callBegin))
	p.phase = phHeader
	p.header = p.header[:0]
	p.name = ""
	p.sawFence = false
	p.problem = ""
	p.streaming = false
}

func (p *parser) setProblem(code syntax.Code, msg string) { p.setProblemAt(code, msg, p.Offset()) }

func (p *parser) setProblemAt(code syntax.Code, msg string, at int64) {
	if p.problem == "" {
		p.problem, p.code, p.problemAt = msg, code, at
	}
	p.phase = phSearch
}

// call handles the inside of a call.
func (p *parser) call(data []byte, eof bool) int {
	switch p.phase {
	case phHeader:
		// The header runs to <｜tool▁sep｜>, or to <｜tool▁call▁end｜> (no separator).
		i := bytes.IndexByte(data, markerLeadByte)
		if i < 0 {
			i = len(data)
		}
		if i > 0 {
			p.Keep(&p.blk, data[:i])
			p.header = append(p.header, data[:i]...)
			if len(p.header) > p.Options().BlockLimit() {
				p.header = p.header[:0]
			}
			return i
		}
		m, wait := markup.MatchAny(data, eof, []string{toolSep, callEnd})
		switch {
		case m == toolSep:
			p.Keep(&p.blk, data[:len(m)])
			p.phase = phAfterSep
			return len(m)
		case m == callEnd:
			p.setProblem(syntax.CodeMalformed, "no "+toolSep+" between the call's name and its arguments")
			return scan.Again
		case wait:
			return 0
		}
		p.Keep(&p.blk, data[:1])
		p.header = append(p.header, data[0])
		return 1
	case phAfterSep:
		if i := markup.Spaces(data); i > 0 {
			p.Keep(&p.blk, data[:i])
			return i
		}
		head := string(jsonscan.TrimSpace(p.header))
		if p.blk.Over {
			head = "" // the call is over the limit: its header was not all kept
		}
		if head == callTypeV3 && data[0] != '{' && data[0] != '<' {
			p.phase = phName // V3: function<｜tool▁sep｜>NAME
			return scan.Again
		}
		if head == "" {
			if !p.blk.Over {
				p.setProblem(syntax.CodeMalformed, "the call has no name before "+toolSep)
			}
			p.phase = phSearch
			return scan.Again
		}
		p.name = head
		p.phase = phFence // V3.1: NAME<｜tool▁sep｜>{…}; a fence is tolerated
		return scan.Again
	case phName:
		i := bytes.IndexAny(data, "\n`<")
		if i < 0 {
			i = len(data)
		}
		if i > 0 {
			p.Keep(&p.blk, data[:i])
			p.header = append(p.header, data[:i]...) // header is "function" then the name
			if len(p.header) > p.Options().BlockLimit() {
				p.header = p.header[:0]
			}
			return i
		}
		p.name = string(jsonscan.TrimSpace(p.header[min(len(callTypeV3), len(p.header)):]))
		if p.blk.Over {
			p.name = "" // the call is over the limit: its name was not all kept
			p.phase = phSearch
			return scan.Again
		}
		if p.name == "" {
			p.setProblem(syntax.CodeMalformed, "the call has no name after "+callTypeV3+toolSep)
			return scan.Again
		}
		p.phase = phFence
		return scan.Again
	case phFence:
		if i := markup.Spaces(data); i > 0 {
			p.Keep(&p.blk, data[:i])
			return i
		}
		if !p.sawFence {
			full, partial := scan.MatchPrefix(data, fence)
			if partial && !eof {
				return 0
			}
			if full {
				// ``` and a label (json), up to the end of the line.
				j := len(fence)
				for j < len(data) && j-len(fence) <= maxFenceLabel && isLetter(data[j]) {
					j++
				}
				if j == len(data) && !eof {
					return 0
				}
				p.Keep(&p.blk, data[:j])
				p.sawFence = true
				return j
			}
		}
		if m, wait := markup.MatchAny(data, eof, []string{callEnd}); m != "" || wait {
			if wait {
				return 0
			}
			p.jsonAt, p.jsonEnd = len(p.blk.Bytes), len(p.blk.Bytes) // no arguments: {}
			p.phase = phAfter
			p.announce()
			return scan.Again
		}
		p.startJSON()
		return scan.Again
	case phJSON:
		return p.jsonBytes(data)
	case phAfter:
		if i := markup.Spaces(data); i > 0 {
			p.Keep(&p.blk, data[:i])
			return i
		}
		if m, wait := markup.MatchAny(data, eof, []string{callEnd, fence}); m == callEnd {
			p.Keep(&p.blk, data[:len(m)])
			p.closeCall()
			return len(m)
		} else if m == fence && p.sawFence {
			p.Keep(&p.blk, data[:len(m)])
			p.sawFence = false // one closing fence
			return len(m)
		} else if wait {
			return 0
		}
		p.setProblem(syntax.CodeMalformed, "unexpected text after the arguments (only white space and ``` may come before "+callEnd+")")
		return scan.Again
	}
	// phSearch: the call ends at the next <｜tool▁call▁end｜>.
	n, closed := markup.KeepUntil(&p.blk, p.Options().BlockLimit(), data, eof, callEnd)
	if closed {
		p.closeCall()
	}
	return n
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// announce sends, in token mode, the call's first partial event.
func (p *parser) announce() {
	if p.Options().Mode == syntax.TokenMode {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Span: syntax.Span{Start: p.start.Offset, End: p.Offset()}})
	}
}

func (p *parser) startJSON() {
	p.js.Reset(p.Options().DepthLimit())
	p.jsonAt = len(p.blk.Bytes)
	p.phase = phJSON
	p.announce()
	p.streaming = false
}

// jsonBytes scans the arguments, streaming them in token mode when they are
// an object.
func (p *parser) jsonBytes(data []byte) int {
	token := p.Options().Mode == syntax.TokenMode
	if token && !p.js.Started() {
		if i := markup.Spaces(data); i > 0 {
			p.Keep(&p.blk, data[:i])
			p.jsonAt += i
			return i
		}
		p.streaming = data[0] == '{'
		if p.streaming {
			p.args.Bare(p.name, 0, p.Offset())
		}
	}
	var n int
	data = p.blk.Fit(data, p.Options().BlockLimit()) // deltas never run past the limit
	if p.streaming {
		n = p.args.Scan(data, p.Offset())
	} else {
		n = p.js.Scan(data)
	}
	p.Keep(&p.blk, data[:n])
	switch {
	case p.blk.Over:
		p.args.Stop() // nothing of a scan that took the call over the limit is sent
		p.streaming = false
	case p.streaming:
		p.args.Flush()
	}
	switch {
	case p.js.Done():
		p.jsonEnd = len(p.blk.Bytes)
		p.phase = phAfter
	case p.js.Err() != nil:
		p.setProblemAt(p.js.Err().Code(), "invalid JSON arguments: "+p.js.Err().Msg(), p.Offset()+int64(n))
		if n == 0 {
			return scan.Again
		}
	}
	if n == 0 {
		return scan.Again // the scanner stopped at the byte after a number
	}
	return n
}

// closeCall ends the call at its <｜tool▁call▁end｜>: a call, or an error.
func (p *parser) closeCall() {
	p.state = inText
	if p.inSect {
		p.state = inSection
	}
	span := syntax.Span{Start: p.start.Offset, End: p.start.Offset + p.blk.Len}
	errSpan := syntax.Span{Start: p.spanFrom, End: span.End}
	if p.blk.Over {
		p.emitItem(p.errorEvent(syntax.CodeOverLimit, p.start, errSpan, nil, "call longer than the limit of %d bytes", p.Options().BlockLimit()))
		return
	}
	if p.problem != "" {
		at := scan.Advance(p.start, p.blk.Bytes[:min(int(p.problemAt-p.start.Offset), len(p.blk.Bytes))])
		p.emitItem(p.errorEvent(p.code, p.start, errSpan, p.blk.Bytes, "call %s at %s: %s", quoteName(p.name), at, p.problem))
		return
	}
	args, msg := arguments(p.blk.Bytes[p.jsonAt:p.jsonEnd])
	if msg != "" {
		p.emitItem(p.errorEvent(syntax.CodeMalformed, p.start, errSpan, p.blk.Bytes, "call %s: %s", quoteName(p.name), msg))
		return
	}
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, Args: args, Pos: p.start, Span: span})
	p.called(p.name, p.spanFrom)
}

func quoteName(name string) string {
	if name == "" {
		return "(no name read)"
	}
	return string(syntax.AppendQuote(nil, name))
}

// arguments reads a call's JSON arguments (validated): an object; a string
// holding an object, decoded once; empty or null for {}.
func arguments(raw []byte) ([]byte, string) {
	args, k, ok := jsoncall.Args(raw, 0)
	if !ok {
		return nil, "the arguments are " + jsonscan.KindName(k) + ", not an object"
	}
	return args, ""
}

// called counts a valid call into the batch; from is where its section (or
// the call) starts.
func (p *parser) called(name string, from int64) {
	if p.batch.Add(from) {
		p.names = p.names[:0]
	}
	if len(p.names) < 1024 { // enough to name the results of any real batch; memory stays bounded
		p.names = append(p.names, name)
	}
}

// executeBefore closes the batch, if calls are pending, before the output
// that starts at off: its outputs answer them.
func (p *parser) executeBefore(off int64) {
	if !p.batch.Execute(&p.Core, off) {
		return
	}
	p.last, p.names = p.names, p.last[:0]
	p.results = 0
}

// outputs handles an outputs section between its outputs.
func (p *parser) outputs(data []byte, eof bool) int {
	if i := markup.Spaces(data); i > 0 {
		return i
	}
	if full, partial := scan.MatchPrefix(data, outputsEnd); full {
		end := p.Offset() + int64(len(outputsEnd))
		p.flushHeld(end)
		if p.sectionN == 0 {
			p.Errorf(syntax.CodeMalformed, p.sectionAt, syntax.Span{Start: p.sectionAt.Offset, End: end}, []byte(outputsBegin+outputsEnd),
				"empty %s section: it must hold %s blocks", outputsBegin, outputBegin)
		}
		p.state = inText
		return len(outputsEnd)
	} else if partial && !eof {
		return 0
	}
	full, partial := scan.MatchPrefix(data, outputBegin)
	switch {
	case full:
		p.openOutput(true)
		return len(outputBegin)
	case partial && !eof:
		return 0
	}
	p.flushHeld(-1)
	if p.sectionN == 0 {
		p.Errorf(syntax.CodeMalformed, p.sectionAt, syntax.Span{Start: p.sectionAt.Offset, End: p.Offset()}, []byte(outputsBegin),
			"%s is followed by text, not %s", outputsBegin, outputBegin)
	}
	p.state = inText
	return scan.Again
}

func (p *parser) openOutput(inSection bool) {
	p.flushHeld(-1)
	p.state = inOutput
	p.inSect = inSection
	p.outStart = p.Pos()
	p.outFrom2 = p.outStart.Offset
	if inSection {
		p.sectionN++
		if p.sectionN == 1 {
			p.outFrom2 = p.sectionAt.Offset
		}
	}
	p.blk.Reset()
	p.Keep(&p.blk, []byte(outputBegin))
}

// output keeps an output's text up to its <｜tool▁output▁end｜>.
func (p *parser) output(data []byte, eof bool) int {
	n, closed := markup.KeepUntil(&p.blk, p.Options().BlockLimit(), data, eof, outputEnd)
	if closed {
		p.closeOutput()
	}
	return n
}

func (p *parser) closeOutput() {
	p.state = inText
	if p.inSect {
		p.state = inOutputs
	}
	span := syntax.Span{Start: p.outFrom2, End: p.outStart.Offset + p.blk.Len}
	if p.blk.Over {
		p.emitItem(p.errorEvent(syntax.CodeOverLimit, p.outStart, span, nil, "tool output longer than the limit of %d bytes", p.Options().BlockLimit()))
		return
	}
	text := p.blk.Bytes[len(outputBegin) : len(p.blk.Bytes)-len(outputEnd)]
	tool := ""
	if p.results < len(p.last) {
		tool = p.last[p.results]
	}
	p.results++
	p.emitItem(syntax.Event{Type: syntax.Result, Tool: tool, Status: syntax.Success, Value: params.Quote(nil, text), Span: span})
}

// finish reports what the end of the stream left open, then executes the
// pending batch.
func (p *parser) finish(end int64) {
	p.flushHeld(-1)
	switch p.state {
	case inThink:
		p.think.Finish(&p.Core, end)
	case inSection, inOutputs:
		if p.sectionN == 0 {
			opener := callsBegin
			if p.state == inOutputs {
				opener = outputsBegin
			}
			p.Errorf(syntax.CodeTruncated, p.sectionAt, syntax.Span{Start: p.sectionAt.Offset, End: end}, []byte(opener),
				"unterminated %s: the stream ended before any %s", opener, map[bool]string{true: "output", false: "call"}[p.state == inOutputs])
		}
	case inCall:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.spanFrom, End: end}, raw,
			"unterminated call %s: the stream ended before %s", quoteName(p.name), callEnd)
	case inOutput:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.outStart, syntax.Span{Start: p.outFrom2, End: end}, raw,
			"unterminated tool output: the stream ended before %s", outputEnd)
	case inDSML:
		p.dsml.Finish(end)
	}
	p.batch.Execute(&p.Core, end)
}
