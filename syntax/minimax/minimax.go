package minimax

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the minimax syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "minimax",
	Aliases:     []string{"invoke", "function_calls"},
	Description: `MiniMax-M2 <minimax:tool_call><invoke name="N"><parameter name="K">v</parameter></invoke>; Anthropic's legacy <function_calls>`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"minimax-m2*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"<minimax:tool_call>"}},
		{All: []string{"<function_calls>", "<invoke name="}, None: []string{":function_calls>"}},
	},
}

const promptRules = `To call tools, write <minimax:tool_call>, then for each call <invoke name="TOOL_NAME">, one <parameter name="KEY">VALUE</parameter> per parameter, </invoke>; then </minimax:tool_call>:
- Values are plain text, taken verbatim (no escaping); a newline right after the opening tag and before the closing tag is ignored. Write numbers, booleans, objects and arrays as JSON text.
- Calls in one <minimax:tool_call> block run together; stop after the block and wait for their results.
- Think inside <think>...</think> (optional). Text outside these tags is your answer to the user.`

// The markers.
const (
	openThink    = "<think>"
	closeThink   = "</think>"
	openMiniMax  = "<minimax:tool_call>"
	closeMiniMax = "</minimax:tool_call>"
	openCalls    = "<function_calls>"
	closeCalls   = "</function_calls>"
	openResults  = "<function_results>"
	closeResults = "</function_results>"
	invokeTag    = "<invoke"
	resultTag    = "<result>"
)

var (
	textMarkers = [...]string{openThink, openMiniMax, openCalls, openResults}
	callOpeners = [...]string{openMiniMax, openCalls}
	tags        = invokexml.Tags{Syntax: "minimax", Invoke: invokeTag, InvokeEnd: "</invoke>", Param: "<parameter", ParamEnd: "</parameter>", SectionEnd: closeMiniMax}
	wakeSet     = scan.Bytes(">")
)

// closerOf is each section opener's closer.
func closerOf(open string) string {
	switch open {
	case openMiniMax:
		return closeMiniMax
	case openCalls:
		return closeCalls
	}
	return closeResults
}

type state uint8

const (
	inText    state = iota
	inThink         // reasoning: explicit (<think>) or implicit (ThinkOpen)
	afterOpen       // after a section opener: a section only if its first tag comes next
	inCalls         // a calls section (invokexml)
	inResults       // <function_results> … </function_results>
)

type parser struct {
	scan.Core
	state state
	think markup.Think // the reasoning (see doc.go for ThinkOpen)

	// The opener being decided (afterOpen).
	open      string
	openAt    syntax.Pos
	openSpace []byte

	calls invokexml.Reader

	// The batch: calls since the last execute.
	batch markup.Batch

	// The open results block.
	blk scan.Block
}

// newParser returns a minimax parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.calls.Init(&p.Core, tags)
	p.calls.OnCall = p.called
	p.think = markup.Think{Open: openThink, Close: closeThink, Leads: "<"}
	if p.think.Init(&p.Core, opts) {
		p.state = inThink
	}
	p.WakeOn(wakeSet)
	return p
}

// step runs the state's step, then tells the core which bytes can complete
// an event in the new state (see scan.Core.WakeOn): every tag ends in '>',
// but between a section's invokes text ends the section at once.
func (p *parser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	if p.state == inCalls && p.calls.Between() {
		p.WakeOn(nil)
	} else {
		p.WakeOn(wakeSet)
	}
	return n
}

func (p *parser) stateStep(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		n, done := p.think.Step(&p.Core, data, eof, callOpeners[:], p.endsThought)
		if done {
			p.state = inText
		}
		return n
	case afterOpen:
		return p.afterOpenTag(data, eof)
	case inCalls:
		n, done := p.calls.Step(data, eof)
		if done {
			p.state = inText
			if n == 0 {
				return scan.Again
			}
		}
		return n
	case inResults:
		return p.results(data, eof)
	}
	return p.text(data, eof)
}

// text handles input outside blocks: respond text and the openers.
func (p *parser) text(data []byte, eof bool) int {
	m, n := p.think.Text(&p.Core, data, eof, textMarkers[:])
	switch m {
	case openThink:
		p.state = inThink
	case "":
	default:
		p.open, p.openAt = m, p.Pos()
		p.openSpace = p.openSpace[:0]
		p.state = afterOpen
	}
	return n
}

// opens reports whether data, which follows an opener and its white space,
// starts the opener's first tag (a whole <invoke name=…> tag, or <result>)
// or its closer (an empty section): yes, no,
// or wait (more input is needed).
func opens(open string, data []byte, eof bool) (yes, wait bool) {
	full, partial := scan.MatchPrefix(data, closerOf(open))
	if full {
		return true, false
	}
	if open != openResults {
		yes, wait := invokexml.InvokeAt(tags, data, eof)
		return yes, wait || partial && !eof
	}
	tfull, tpartial := scan.MatchPrefix(data, resultTag)
	return tfull, (partial || tpartial) && !eof
}

// afterOpenTag decides what a section opener is: it opens a section when
// the first thing after it that is not white space is its first tag
// (<invoke …>, <result>) or its closer; otherwise the opener and the white
// space after it are text (docs/formats.md, rule 8).
func (p *parser) afterOpenTag(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if len(p.openSpace)+i > p.Options().BlockLimit() {
		p.openAsText()
		return scan.Again
	}
	p.openSpace = append(p.openSpace, data[:i]...)
	if i == len(data) {
		if eof {
			end := p.Offset() + int64(i)
			p.Errorf(syntax.CodeTruncated, p.openAt, syntax.Span{Start: p.openAt.Offset, End: end}, []byte(p.open),
				"unterminated %s: the stream ended before %s", p.open, closerOf(p.open))
			p.state = inText
		}
		return len(data)
	}
	yes, wait := opens(p.open, data[i:], eof)
	switch {
	case yes:
		p.EndRun()
		if p.open == openResults {
			p.batch.Execute(&p.Core, p.openAt.Offset) // the results answer the pending calls
			p.blk.Reset()
			p.Keep(&p.blk, []byte(p.open))
			p.Keep(&p.blk, p.openSpace)
			p.state = inResults
		} else {
			p.calls.Open(p.open, closerOf(p.open), p.openAt)
			p.state = inCalls
		}
	case wait:
		return i // 0 when data starts with the partial tag: wait for the rest of it
	default:
		p.openAsText()
	}
	if i == 0 {
		return scan.Again
	}
	return i
}

// openAsText makes the opener being decided, and the white space after
// it, text.
func (p *parser) openAsText() {
	p.Text(syntax.Respond, append([]byte(p.open), p.openSpace...), p.openAt.Offset)
	p.state = inText
}

// endsThought reports whether data starts a call opener that opens a
// section, which ends the reasoning the prompt opened; it decides that
// without leaving the reasoning.
func (p *parser) endsThought(data []byte, eof bool) (yes, wait bool) {
	m, wait := markup.MatchAny(data, eof, callOpeners[:])
	if m == "" {
		return false, wait
	}
	rest := data[len(m):]
	i := jsonscan.SkipSpace(rest, 0)
	if i == len(rest) && !eof {
		return false, len(rest) <= p.Options().BlockLimit()
	}
	yes, wait = opens(m, rest[i:], eof)
	return yes && !wait, wait
}

// called counts a valid call into the batch; from is where its section (or
// the call) starts.
func (p *parser) called(_ string, from int64) { p.batch.Add(from) }

// results keeps a <function_results> block up to its closer.
func (p *parser) results(data []byte, eof bool) int {
	n, closed := markup.KeepUntil(&p.blk, p.Options().BlockLimit(), data, eof, closeResults)
	if closed {
		p.closeResults()
	}
	return n
}

// closeResults reads a complete <function_results> block: <result>
// elements, each with a <tool_name> and a <stdout> (success) or <error>
// (failure).
func (p *parser) closeResults() {
	p.state = inText
	span := syntax.Span{Start: p.openAt.Offset, End: p.openAt.Offset + p.blk.Len}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.openAt, span, nil, "%s block longer than the limit of %d bytes", openResults, p.Options().BlockLimit())
		return
	}
	body := p.blk.Bytes[len(openResults) : len(p.blk.Bytes)-len(closeResults)]
	base := span.Start + int64(len(openResults))
	var evs []syntax.Event
	for i := 0; ; {
		i += markup.Spaces(body[i:])
		if i == len(body) {
			break
		}
		e, n, msg := readResult(body[i:])
		if msg != "" {
			at := scan.Advance(p.openAt, p.blk.Bytes[:len(openResults)+i])
			p.Errorf(syntax.CodeMalformed, p.openAt, span, p.blk.Bytes, "%s block at %s: %s", openResults, at, msg)
			return
		}
		e.Span = syntax.Span{Start: base + int64(i), End: base + int64(i+n)}
		evs = append(evs, e)
		i += n
	}
	if len(evs) == 0 {
		p.Errorf(syntax.CodeMalformed, p.openAt, span, p.blk.Bytes, "empty %s block: it must hold <result> elements", openResults)
		return
	}
	evs[0].Span.Start = span.Start
	evs[len(evs)-1].Span.End = span.End
	for _, e := range evs {
		p.Emit(e)
	}
}

// readResult reads one <result> element at the start of b: its event, its
// length, or a problem.
func readResult(b []byte) (syntax.Event, int, string) {
	if !bytes.HasPrefix(b, []byte(resultTag)) {
		return syntax.Event{}, 0, "text other than <result> elements"
	}
	end := bytes.Index(b, []byte("</result>"))
	if end < 0 {
		return syntax.Event{}, 0, "<result> with no </result>"
	}
	inner := b[len(resultTag):end]
	n := end + len("</result>")
	e := syntax.Event{Type: syntax.Result, Status: syntax.Success}
	haveTool, haveOut := false, false
	for i := 0; ; {
		i += markup.Spaces(inner[i:])
		if i == len(inner) {
			break
		}
		var name string
		for _, t := range []string{"tool_name", "stdout", "error"} {
			if bytes.HasPrefix(inner[i:], []byte("<"+t+">")) {
				name = t
			}
		}
		if name == "" {
			return e, 0, "text other than <tool_name>, <stdout> and <error> in <result>"
		}
		open, closeTag := "<"+name+">", "</"+name+">"
		j := bytes.Index(inner[i+len(open):], []byte(closeTag))
		if j < 0 {
			return e, 0, open + " with no " + closeTag
		}
		v := inner[i+len(open) : i+len(open)+j]
		switch {
		case name == "tool_name" && !haveTool:
			haveTool = true
			e.Tool = string(jsonscan.TrimSpace(v))
		case name != "tool_name" && !haveOut:
			haveOut = true
			if name == "error" {
				e.Status = syntax.Failure
			}
			e.Value = params.Quote(nil, invokexml.TrimLine(v))
		default:
			return e, 0, "a second " + open + " in <result>"
		}
		i += len(open) + j + len(closeTag)
	}
	switch {
	case !haveTool:
		return e, 0, "<result> with no <tool_name>"
	case !haveOut:
		e.Value = []byte(`""`)
	}
	return e, n, ""
}

// finish reports what the end of the stream left open, then executes the
// pending batch.
func (p *parser) finish(end int64) {
	switch p.state {
	case inThink:
		p.think.Finish(&p.Core, end)
	case afterOpen:
		p.afterOpenTag(nil, true)
	case inCalls:
		p.calls.Finish(end)
	case inResults:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.openAt, syntax.Span{Start: p.openAt.Offset, End: end}, raw,
			"unterminated %s: the stream ended before %s", openResults, closeResults)
	}
	p.batch.Execute(&p.Core, end)
}
