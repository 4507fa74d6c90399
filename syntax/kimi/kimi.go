package kimi

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the kimi syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "kimi",
	Aliases:     []string{"kimi-k2"},
	Description: "Kimi K2: <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>…, <think>",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"kimi-k2*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"<|tool_calls_section_begin|>", "<|tool_call_begin|>"}},
	},
}

const promptRules = `To call tools, write one tool-call section after your text and stop:
<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{JSON arguments}<|tool_call_end|><|tool_calls_section_end|>
- NAME is the tool's name; IDX counts the calls of the conversation from 0 (functions.get_weather:0, then functions.read_file:1, …). The id functions.NAME:IDX names the call; results are given for that id.
- The arguments are one strict JSON object: quote every key and string, escape quotes as \" and newlines as \n. {} when the tool takes none.
- Several calls go one after another inside one section, each between <|tool_call_begin|> and <|tool_call_end|>; they run together once your message ends.
- You may think first inside <think></think>. Text outside the section is your answer to the user.`

// The markers, exact. The section markers also come in the singular form
// some checkpoints write.
const (
	openThink     = "<think>"
	closeThink    = "</think>"
	sectionBegin  = "<|tool_calls_section_begin|>"
	sectionBegin1 = "<|tool_call_section_begin|>"
	sectionEnd    = "<|tool_calls_section_end|>"
	sectionEnd1   = "<|tool_call_section_end|>"
	callBegin     = "<|tool_call_begin|>"
	argBegin      = "<|tool_call_argument_begin|>"
	callEnd       = "<|tool_call_end|>"
)

var (
	textMarkers    = []string{openThink, sectionBegin, sectionBegin1, sectionEnd, sectionEnd1, callBegin}
	thinkMarkers   = []string{closeThink, sectionBegin, sectionBegin1, sectionEnd, sectionEnd1, callBegin}
	sectionMarkers = []string{callBegin, sectionEnd, sectionEnd1}
	idStops        = []string{argBegin, callEnd, callBegin, sectionEnd, sectionEnd1}
	searchStops    = []string{callEnd, callBegin, sectionEnd, sectionEnd1}
)

// Events complete only at '>' (every marker ends in it) or, right after a
// call's JSON and after a failed call, at any byte (see argBytes, hold).
var wakeSet = scan.Bytes(">")

type state uint8

const (
	inText    state = iota
	inThink         // reasoning: after <think>, or from the start with Options.ThinkOpen
	inSection       // inside a tool-call section, between calls
	inID            // after <|tool_call_begin|>: the call's id
	inArgs          // after <|tool_call_argument_begin|>: the arguments
)

// Argument phases.
const (
	phaseJSON   = iota // scanning the JSON value
	phaseAfter         // the value is complete; white space, then <|tool_call_end|>
	phaseSearch        // the JSON is broken; the block ends at the next call marker
)

type parser struct {
	scan.Core
	state state
	home  state // where the open call stands: inSection, or inText for a call with no section opener

	thought  bool // the reasoning holds text other than white space
	explicit bool // the reasoning was opened by a <think> in the output, not by the prompt

	thinkStart syntax.Pos

	// The open call.
	openAt      int64
	spanFrom    int64 // where the call's span starts: openAt, or an empty reasoning block it ended
	blockStart  syntax.Pos
	blk         scan.Block // the bytes after <|tool_call_begin|>
	idLen       int        // the id's bytes in blk (before <|tool_call_argument_begin|>)
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

// newParser returns a kimi parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{closeAt: -1}
	p.Init(h, opts, p.step, p.finish)
	p.args = jsoncall.ArgStream{Emit: p.Emit, JSON: &p.js}
	p.WakeOn(wakeSet)
	if opts.ThinkOpen {
		p.state = inThink
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	if p.holding {
		return p.afterFailed(data, eof)
	}
	switch p.state {
	case inThink:
		return p.thinkText(data, eof)
	case inSection:
		return p.section(data, eof)
	case inID:
		return p.idBytes(data, eof)
	case inArgs:
		return p.argBytes(data, p.Offset(), eof)
	}
	return p.text(data, eof)
}

// match returns the marker of markers that data starts with, or whether
// data may still become one (wait).
func match(data []byte, markers []string, eof bool) (m string, wait bool) {
	for _, m := range markers {
		full, partial := scan.MatchPrefix(data, m)
		if full {
			return m, false
		}
		wait = wait || partial && !eof
	}
	return "", wait
}

func startsMarker(data []byte, markers []string, eof bool) bool {
	m, wait := match(data, markers, eof)
	return m != "" || wait
}

// textRun handles a text run of type t in which markers are the markers:
// it adds the text up to the next place one may start, and returns the
// marker data starts with, if any, and the bytes taken (0 with no marker:
// more input is needed).
func (p *parser) textRun(t syntax.Type, data []byte, eof bool, markers []string) (string, int) {
	if n := p.TextBefore(t, data, '<'); n > 0 {
		return "", n
	}
	m, wait := match(data, markers, eof)
	switch {
	case m != "":
		return m, len(m)
	case wait:
		return "", 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { return startsMarker(rest, markers, eof) })
	p.Text(t, data[:n], p.Offset())
	return "", n
}

// text handles respond text: <think> opens reasoning, a section opener a
// section; a section closer outside a section is passed over.
func (p *parser) text(data []byte, eof bool) int {
	off := p.Offset()
	m, n := p.textRun(syntax.Respond, data, eof, textMarkers)
	switch m {
	case openThink:
		p.BeginRun(syntax.Think, off)
		p.thinkStart, p.thought, p.explicit = p.Pos(), false, true
		p.state = inThink
	case sectionBegin, sectionBegin1:
		p.EndRun()
		p.Evident(off) // a special token no other format writes
		p.state = inSection
	case sectionEnd, sectionEnd1:
		p.closer(off, m)
	case callBegin: // a call with no section opener
		p.Evident(off)
		p.openCall(off, inText)
	}
	return n
}

// closer passes over a section closer m at off: it ends the text run
// before it, whose span covers it; after a call, the execute covers it
// (see finish).
func (p *parser) closer(off int64, m string) {
	p.EndRunAt(off + int64(len(m)))
	if p.calls > 0 && p.closeAt < 0 {
		p.closeAt = off
	}
}

// thinkText handles reasoning: it ends at </think> or at a section opener,
// whichever comes first. A section closer is passed over, as in text.
func (p *parser) thinkText(data []byte, eof bool) int {
	off := p.Offset()
	if n, wait := p.Restated(syntax.Think, data, eof, openThink); n > 0 || wait {
		return n // the opener restated by the model (or white space before it)
	}
	m, n := p.textRun(syntax.Think, data, eof, thinkMarkers)
	if m == "" && len(jsonscan.TrimSpace(data[:n])) > 0 {
		p.thought = true
	}
	switch m {
	case closeThink:
		p.EndRunAt(off + int64(len(closeThink)))
		p.state = inText
	case sectionBegin, sectionBegin1:
		p.EndRun()
		p.Evident(off)
		p.state = inSection
	case callBegin: // a call with no section opener ends the reasoning too
		p.EndRun()
		p.Evident(off)
		p.openCall(off, inText)
		if !p.thought {
			// Reasoning with no text gives no event: its opener is in the
			// span of the call that ended it, so that no byte goes
			// unaccounted for (alone, "<think>" is unterminated reasoning).
			p.spanFrom = p.thinkStart.Offset
		}
	}
	return n
}

// section handles the inside of a tool-call section: calls, and text
// between them (respond).
func (p *parser) section(data []byte, eof bool) int {
	off := p.Offset()
	m, n := p.textRun(syntax.Respond, data, eof, sectionMarkers)
	switch m {
	case callBegin:
		p.openCall(off, inSection)
	case sectionEnd, sectionEnd1:
		p.closer(off, m)
		p.state = inText
	}
	return n
}

// afterFailed handles what follows a failed call, whose error is held:
// white space and a section closer right after it belong to the error.
func (p *parser) afterFailed(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if i == len(data) && !eof {
		return i
	}
	m, wait := match(data[i:], []string{sectionEnd, sectionEnd1}, eof)
	switch {
	case m != "":
		p.release(p.Offset() + int64(i+len(m)))
		p.state = inText
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
func (p *parser) hold(e syntax.Event) {
	p.held, p.holding = e, true
	p.WakeOn(nil) // any byte but white space and a closer releases it
}

// release emits the held error, its span ending at end when end is past it.
func (p *parser) release(end int64) {
	if !p.holding {
		return
	}
	p.holding = false
	p.WakeOn(wakeSet)
	e := p.held
	e.Span.End = max(e.Span.End, end)
	p.Emit(e)
}

func (p *parser) openCall(off int64, home state) {
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
	p.state = inID
}

// idBytes handles the call's id, up to <|tool_call_argument_begin|>.
func (p *parser) idBytes(data []byte, eof bool) int {
	if i := bytes.IndexByte(data, '<'); i != 0 {
		if i < 0 {
			i = len(data)
		}
		p.Keep(&p.blk, data[:i])
		p.idLen += i
		return i
	}
	m, wait := match(data, idStops, eof)
	switch {
	case m == argBegin:
		p.Keep(&p.blk, data[:len(m)])
		p.argFrom = len(p.blk.Bytes)
		p.readID()
		p.phase = phaseJSON
		p.js.Reset(p.Options().DepthLimit())
		p.state = inArgs
		if p.started {
			p.args.Reset()
			p.args.Bare(p.name, p.index, p.Offset()+int64(len(m)))
		}
		return len(m)
	case m != "":
		// Another marker before the arguments: the call has none. Its
		// own close marker ends it; one that opens or closes something
		// else is read afresh, in the section.
		p.setProblem(syntax.CodeMalformed, p.blk.Len, "no "+argBegin+" after the call's id")
		if m == callEnd {
			p.Keep(&p.blk, data[:len(m)])
			p.finishCall(true)
			return len(m)
		}
		p.finishCall(true)
		return scan.Again
	case wait:
		return 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { return startsMarker(rest, idStops, eof) })
	p.Keep(&p.blk, data[:n])
	p.idLen += n
	return n
}

// readID reads the call's id, when it was kept, and in token mode
// announces the call.
func (p *parser) readID() {
	if p.blk.Over {
		return
	}
	raw := strings.TrimSpace(string(p.blk.Bytes[:p.idLen]))
	p.id = raw
	p.name, p.idProblem = parseID(raw)
	if p.idProblem == "" && p.Options().Mode == syntax.TokenMode {
		p.started = true
		end := p.Offset() + int64(len(argBegin))
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, ID: p.id, Index: p.index,
			Span: syntax.Span{Start: p.spanFrom, End: end}})
	}
}

// parseID reads a call id: functions.NAME:IDX, or NAME:IDX, IDX being
// digits. It returns the function's name, or a problem.
func parseID(id string) (name, problem string) {
	colon := strings.LastIndexByte(id, ':')
	switch {
	case id == "":
		return "", "has an empty id"
	case colon < 0 && allDigits(id):
		return "", fmt.Sprintf("has the bare counter %q as its id, which names no function (vLLM finds one in the request's tool schemas; a text parser has none)", id)
	case colon < 0 || !allDigits(id[colon+1:]):
		return "", fmt.Sprintf("has the id %q, which does not end in :IDX (functions.NAME:IDX)", id)
	}
	name = strings.TrimPrefix(id[:colon], "functions.")
	if name == "" {
		return "", fmt.Sprintf("has the id %q, which names no function", id)
	}
	return name, ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// argBytes handles the call's arguments: data, which stands at offset off
// of the input.
func (p *parser) argBytes(data []byte, off int64, eof bool) int {
	used := 0
	for used < len(data) {
		rest := data[used:]
		switch p.phase {
		case phaseJSON:
			if !p.js.Started() {
				i := jsonscan.SkipSpace(rest, 0)
				p.Keep(&p.blk, rest[:i])
				used += i
				if i == len(rest) {
					return used
				}
				rest = rest[i:]
				if rest[0] == '<' {
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
				p.phase = phaseAfter
				p.jsonEnd = len(p.blk.Bytes)
				p.WakeOn(nil) // a byte other than the close marker ends the call at once
			case p.js.Err() != nil:
				p.setProblem(p.js.Err().Code(), p.blk.Len, "invalid JSON arguments: "+p.js.Err().Msg())
				p.phase = phaseSearch
			}
		case phaseAfter:
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
		case phaseSearch:
			n, m := searchStop(rest, eof)
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
// <|tool_call_end|> (part of the call), or one that starts the next call
// or ends the section (not part of it). It returns the bytes before it and
// the marker, or, with none, the bytes that cannot start one.
func searchStop(data []byte, eof bool) (int, string) {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			return len(data), ""
		}
		i += j
		m, wait := match(data[i:], searchStops, eof)
		if m != "" {
			return i, m
		}
		if wait {
			return i, ""
		}
		i++
	}
}

func (p *parser) setProblem(code syntax.Code, at int64, msg string) {
	if p.problem == "" {
		p.problem, p.problemAt, p.problemCode = msg, at, code
	}
}

// posIn returns the position of offset k within the call's bytes.
func (p *parser) posIn(k int64) syntax.Pos {
	k = min(k, int64(len(p.blk.Bytes)))
	return scan.Advance(scan.Advance(p.blockStart, []byte(callBegin)), p.blk.Bytes[:k])
}

// finishCall ends the open call: ended says whether it ended before the
// end of the input.
func (p *parser) finishCall(ended bool) {
	p.state = p.home
	p.WakeOn(wakeSet)
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
		fail(syntax.CodeTruncated, raw(), "unterminated tool call: the stream ended before %s", callEnd)
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
			fail(syntax.CodeMalformed, raw(), "tool call at %s: the call %s (%s) has arguments that %s",
				p.posIn(at), quoteName(p.name), p.id, problem)
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

func quoteName(name string) string { return string(syntax.AppendQuote(nil, name)) }

// finish reports what the end of the stream left open (a section left open
// is fine: its closer is often cut), then executes the message's calls.
func (p *parser) finish(end int64) {
	switch p.state {
	case inThink:
		p.EndRun()
		// An explicit <think> always says so (its bytes are in the error);
		// reasoning the prompt opened, only when it holds text.
		if p.explicit || p.thought {
			p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
				"unterminated reasoning: the stream ended before %s", closeThink)
		}
	case inID, inArgs:
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
