package harmony

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

// Syntax describes the harmony syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "harmony",
	Aliases:     []string{"gpt-oss"},
	Description: "gpt-oss Harmony: <|channel|>analysis|commentary|final, to=functions.NAME <|message|>{JSON}<|call|>",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	CompleteAt:  completeAt,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"gpt-oss*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|channel|>", "<|call|>"}},
		{All: []string{"<|channel|>", "to=functions"}},
	},
}

const promptRules = `Write your output as Harmony messages. Each message is a header, <|message|>, its body and an end marker; after the first, each header starts with <|start|>assistant.
- Reason in the analysis channel: <|channel|>analysis<|message|>...<|end|>
- Answer the user in the final channel: <|start|>assistant<|channel|>final<|message|>...<|return|>
- To call a tool, address it in the header and write its arguments as one JSON object: <|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{"key": "value"}<|call|> and stop. A tool without arguments takes {}.
- Results come back as messages from the tool: <|start|>functions.NAME to=assistant<|channel|>commentary<|message|>...<|end|>`

type state uint8

const (
	stStart  state = iota // the start of the output: the rest of a header, or text
	stText                // outside any message
	stHeader              // in a message header, up to <|message|>
	stBody                // in a message body
)

// What a message is, from its header.
type kind uint8

const (
	kindText    kind = iota // think (analysis) or respond
	kindCall                // to=functions.NAME: JSON arguments
	kindBuiltin             // another recipient (browser.search, python): JSON object arguments, or free text as {"input": …}
	kindResult              // a message from a tool: a result
	kindSkip                // a message that is not the model's (user, system, developer), or a header over the limit: an error
)

// Phases of a body that is not text.
type phase uint8

const (
	phaseLead  phase = iota // white space before the body's first byte
	phaseJSON               // scanning a JSON value
	phaseAfter              // the value is complete: white space, then the end marker
	phaseRaw                // free text, or broken JSON: up to the next end marker
)

var wakeSet = scan.Bytes("<")

// headerLimit bounds a message header (Options.MaxBlock, when smaller).
const headerLimit = 1024

type parser struct {
	scan.Core
	state state

	// The message being read.
	msgStart int64
	msgPos   syntax.Pos
	carry    int64  // where an empty message with no end marker started, for the next one's span; -1: none
	hasText  bool   // kindText: the body has text other than white space
	hdr      []byte // the header's text, from its first byte through <|message|>
	kind     kind
	text     syntax.Type // kindText: think or respond
	name     string      // kindCall, kindBuiltin: the call's name; kindResult: the tool
	skipCode syntax.Code // kindSkip: the error
	skipMsg  string
	noRaw    bool // kindSkip: the error has no raw (the header was over the limit)

	phase       phase
	blk         scan.Block // the body's bytes
	jsonEnd     int        // the length of the JSON value in blk
	problem     string
	problemCode syntax.Code
	doneAt      int64 // phaseAfter: the offset up to which the body was read
	js          jsonscan.JSON

	// Token mode: the call's arguments stream as compact JSON.
	streaming bool               // the call was announced
	stream    bool               // its body is an object whose text streams
	args      jsoncall.ArgStream // streams it
	index     int                // the streaming call's index
	announced int                // calls announced since the last execute

	pending int // valid calls since the last execute
	// The end markers of the batch's calls, from the first one's start to
	// the last one's end: the execute's span (-1: none). A call's own span
	// ends with its body, so that a call whose <|call|> was a stop token
	// has the same span as the same call with it.
	termFrom, termTo int64
	bodyStart        int64 // the offset just after <|message|>
	implicit         bool  // the message is the analysis the prompt opened (ThinkOpen)
}

// newParser returns a harmony parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{termFrom: -1, carry: -1}
	p.Init(h, opts, p.step, p.finish)
	p.args = jsoncall.ArgStream{Emit: p.Emit, JSON: &p.js}
	// Every event completes at a marker, and every marker starts with '<':
	// in event mode a chunk without one need not be run at once.
	p.WakeOn(wakeSet)
	if opts.ThinkOpen {
		// The prompt ended with <|start|>assistant<|channel|>analysis<|message|>.
		p.state, p.kind, p.text, p.implicit = stBody, kindText, syntax.Think, true
		p.msgPos = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case stStart:
		return p.start(data, eof)
	case stHeader:
		return p.header(data, eof)
	case stBody:
		if p.kind == kindText {
			return p.textBody(data, eof)
		}
		return p.body(data, eof)
	}
	return p.outside(data, eof)
}

// start decides what the output begins with: the rest of the header the
// prompt began, or text.
func (p *parser) start(data []byte, eof bool) int {
	at, v := readStart(data, eof)
	switch v {
	case startUndecided:
		return 0
	case startHeader:
		p.marker(p.Offset()+int64(at), data[at:]) // a header's marker
		p.beginMessage()
		p.state = stHeader
		return scan.Again
	}
	p.state = stText
	return scan.Again
}

// outside handles text outside any message: respond, up to an opener.
func (p *parser) outside(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 {
		return n
	}
	m, partial := scan.MatchAny(data, eof, openers)
	if m != "" {
		p.marker(p.Offset(), data)
	}
	switch {
	case m == startTag:
		p.beginMessage()
		p.hdr = append(p.hdr, startTag...)
		p.state = stHeader
		return len(startTag)
	case m == channelTag: // a message whose <|start|>assistant is missing
		p.beginMessage()
		p.state = stHeader
		return scan.Again
	case partial:
		return 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { m, part := scan.MatchAny(rest, eof, openers); return m != "" || part })
	p.Text(syntax.Respond, data[:n], p.Offset())
	return n
}

// marker notes, for detection, the marker data starts with at off:
// <|start|> and <|message|> are Glimmer's tokens too, so they hold the
// decision from the message's start (Core.Undecided); any other is
// harmony's own (no other syntax writes <|channel|>, <|constrain|>,
// <|end|>, <|call|> or <|return|>), the evidence, from the first message
// held so.
func (p *parser) marker(off int64, data []byte) {
	if bytes.HasPrefix(data, []byte(startTag)) || bytes.HasPrefix(data, []byte(messageTag)) {
		p.Shared(off)
		return
	}
	p.Own(off)
}

func (p *parser) beginMessage() {
	p.EndRun()
	p.implicit = false
	p.msgStart, p.msgPos = p.Offset(), p.Pos()
	if p.carry >= 0 {
		p.msgStart, p.carry = p.carry, -1
	}
	p.hdr = p.hdr[:0]
	p.noRaw = false
}

// header reads a message header up to <|message|>.
func (p *parser) header(data []byte, eof bool) int {
	if data[0] != '<' {
		i := bytes.IndexByte(data, '<')
		if i < 0 {
			i = len(data)
		}
		return p.keepHeader(data[:i])
	}
	m, partial := scan.MatchAny(data, eof, headerMarkers)
	if m != "" {
		p.marker(max(p.msgStart, 0), data) // held from the message's start
	}
	switch {
	case m == messageTag:
		if n := p.keepHeader(data[:len(m)]); n <= 0 {
			return n
		}
		p.openBody()
		p.bodyStart = p.Offset() + int64(len(m))
		return len(m)
	case m == channelTag || m == constrainTag:
		return p.keepHeader(data[:len(m)])
	case m == startTag:
		off := p.Offset()
		p.Errorf(syntax.CodeMalformed, p.msgPos, syntax.Span{Start: p.msgStart, End: off}, trimLead(p.hdr),
			"message header without %s: a new message starts", messageTag)
		p.state = stText
		return scan.Again
	case m != "": // an end marker
		end := p.Offset() + int64(len(m))
		p.Errorf(syntax.CodeMalformed, p.msgPos, syntax.Span{Start: p.msgStart, End: end}, append(trimLead(p.hdr), m...),
			"message header ended by %s before %s", m, messageTag)
		p.state = stText
		return len(m)
	case partial:
		return 0
	}
	n := 1 + len(data[1:])
	if i := bytes.IndexByte(data[1:], '<'); i >= 0 {
		n = 1 + i
	}
	return p.keepHeader(data[:n])
}

// keepHeader adds b to the header. A header over the limit makes the
// message an error: it is skipped up to its end marker.
func (p *parser) keepHeader(b []byte) int {
	if len(p.hdr)+len(b) > min(headerLimit, p.Options().BlockLimit()) {
		p.kind, p.noRaw = kindSkip, true
		p.skipCode = syntax.CodeOverLimit
		p.skipMsg = fmt.Sprintf("message header longer than %d bytes", min(headerLimit, p.Options().BlockLimit()))
		p.state = stBody
		p.resetBody()
		p.phase = phaseRaw
		return scan.Again
	}
	p.hdr = append(p.hdr, b...)
	return len(b)
}

func (p *parser) resetBody() {
	p.blk.Reset()
	p.problem = ""
	p.streaming, p.stream, p.hasText = false, false, false
	p.phase = phaseLead
}

// openBody reads the header and starts the body.
func (p *parser) openBody() {
	hd := parseHeader(string(p.hdr))
	p.resetBody()
	p.state = stBody
	p.js.Reset(p.Options().DepthLimit())
	switch {
	case hd.role == "user" || hd.role == "system" || hd.role == "developer":
		p.kind = kindSkip
		p.skipCode = syntax.CodeNotAllowed
		p.skipMsg = "a " + hd.role + " message is not the model's output"
	case hd.role != "" && hd.role != "assistant":
		p.kind = kindResult
		p.name = strings.TrimPrefix(hd.role, "functions.")
		p.endBatch(p.msgStart)
	case hd.recipient == "" || hd.recipient == "assistant":
		// A message of the assistant's to the assistant (a stray
		// "to=assistant" the model writes on its own message) is its text,
		// not a call of a tool named assistant.
		p.kind, p.text = kindText, syntax.Respond
		if hd.channel == "analysis" {
			p.text = syntax.Think
		}
		p.BeginRun(p.text, p.msgStart)
	case strings.HasPrefix(hd.recipient, "functions."):
		p.kind = kindCall
		p.name = strings.TrimPrefix(hd.recipient, "functions.")
		if p.Options().Mode == syntax.TokenMode && p.name != "" {
			p.streaming, p.index = true, p.announced
			p.announced++
			end := p.Offset() + int64(len(messageTag))
			p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Index: p.index,
				Span: syntax.Span{Start: p.msgStart, End: end}})
		}
	default:
		p.kind = kindBuiltin
		p.name = hd.recipient
	}
}

// endBatch emits the execute that ends the calls of the turn, if it had any.
// Its span is the end markers of the batch's calls (<|call|>: what makes
// the batch run), or none at at.
func (p *parser) endBatch(at int64) {
	if p.pending > 0 {
		span := syntax.Span{Start: at, End: at}
		if p.termFrom >= 0 {
			span = syntax.Span{Start: p.termFrom, End: p.termTo}
		}
		p.Emit(syntax.Event{Type: syntax.Execute, Span: span})
	}
	p.pending, p.announced, p.termFrom = 0, 0, -1
}

// called counts a valid call whose message ended at end with term.
func (p *parser) called(end int64, term string) {
	p.pending++
	if term != "" {
		if p.termFrom < 0 {
			p.termFrom = end - int64(len(term))
		}
		p.termTo = end
	}
}

// textBody handles the body of an analysis, commentary or final message.
func (p *parser) textBody(data []byte, eof bool) int {
	if n := p.TextBefore(p.text, data, '<'); n > 0 {
		p.noted(data[:n])
		return n
	}
	off := p.Offset()
	m, partial := scan.MatchAny(data, eof, enders)
	switch {
	case p.implicit && isOne(m, closers):
		// The end of the analysis the prompt opened: reasoning may name
		// another format's end marker, so this one is evidence once
		// harmony's next own token confirms it.
		p.Shared(off)
	case m != "":
		p.marker(off, data)
	}
	switch {
	case isOne(m, closers):
		p.EndRunAt(off + int64(len(m)))
		p.state = stText
		return len(m)
	case m != "": // the next message starts: this one's end marker is missing
		p.EndRun()
		if !p.hasText {
			// Nothing in it gives an event: the next message takes its
			// bytes into its span (alone, they are an unterminated message).
			p.carry = p.msgStart
		}
		p.state = stText
		return scan.Again
	case partial:
		return 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { m, part := scan.MatchAny(rest, eof, enders); return m != "" || part })
	p.Text(p.text, data[:n], off)
	p.noted(data[:n])
	return n
}

// noted notes text of the message's body: whether it has any but white
// space.
func (p *parser) noted(b []byte) {
	p.hasText = p.hasText || len(jsonscan.TrimSpace(b)) > 0
}

// body handles the body of a call, a result or a skipped message.
func (p *parser) body(data []byte, eof bool) int {
	off := p.Offset()
	used := 0
	// ender looks at rest, which starts with '<': it ends the message at an
	// end marker or an opener, and says whether more input is needed.
	ender := func(rest []byte) (done, wait bool) {
		m, partial := scan.MatchAny(rest, eof, enders)
		if m != "" {
			p.marker(off+int64(used), rest)
		}
		switch {
		case isOne(m, closers):
			used += len(m)
			p.finishBody(off+int64(used), m, false)
			return true, false
		case m != "":
			p.finishBody(off+int64(used), "", false)
			return true, false
		}
		return false, partial
	}
	for used < len(data) {
		rest := data[used:]
		switch p.phase {
		case phaseLead:
			i := jsonscan.SkipSpace(rest, 0)
			p.Keep(&p.blk, rest[:i])
			used += i
			if i == len(rest) {
				return used
			}
			rest = rest[i:]
			if rest[0] == '<' {
				if done, wait := ender(rest); done || wait {
					return again(used, done)
				}
			}
			switch {
			case p.kind == kindCall || p.kind == kindBuiltin && rest[0] == '{' || p.kind == kindResult && startsJSON(rest[0]):
				p.phase = phaseJSON
				p.stream = p.streaming && rest[0] == '{'
				if p.stream {
					p.args.Bare(p.name, p.index, off+int64(used))
				}
			default:
				p.phase = phaseRaw
			}
		case phaseJSON:
			used += p.args.ScanBlock(&p.blk, p.Options().BlockLimit(), rest, off+int64(used), p.stream)
			p.stream = p.stream && !p.blk.Over
			switch {
			case p.js.Done():
				p.phase = phaseAfter
				p.jsonEnd = len(p.blk.Bytes)
				p.doneAt = off + int64(used)
			case p.js.Err() != nil:
				if p.kind == kindCall {
					p.setProblem(p.js.Err().Code(), "invalid JSON arguments: "+p.js.Err().Msg())
				}
				p.phase = phaseRaw
			}
		case phaseAfter:
			i := jsonscan.SkipSpace(rest, 0)
			p.Keep(&p.blk, rest[:i])
			used += i
			p.doneAt = off + int64(used)
			if i == len(rest) {
				return used
			}
			rest = rest[i:]
			if rest[0] == '<' {
				if done, wait := ender(rest); done || wait {
					return again(used, done)
				}
			}
			if p.kind == kindCall {
				p.setProblem(syntax.CodeMalformed, "text after the JSON arguments, before the end of the message")
			}
			p.phase = phaseRaw
		case phaseRaw:
			j := bytes.IndexByte(rest, '<')
			if j < 0 {
				p.Keep(&p.blk, rest)
				used += len(rest)
				continue
			}
			p.Keep(&p.blk, rest[:j])
			used += j
			if done, wait := ender(rest[j:]); done || wait {
				return again(used, done)
			}
			p.Keep(&p.blk, rest[j:j+1])
			used++
		}
	}
	return used
}

// again is what body returns when it ended the message (done) or waits
// for more input: the bytes it took, or, when it took none, Again (the
// state changed) or 0 (more input is needed).
func again(used int, done bool) int {
	if used == 0 && done {
		return scan.Again
	}
	return used
}

func startsJSON(c byte) bool {
	switch c {
	case '{', '[', '"', '-', 't', 'f', 'n':
		return true
	}
	return c >= '0' && c <= '9'
}

func (p *parser) setProblem(code syntax.Code, msg string) {
	if p.problem == "" {
		p.problem, p.problemCode = msg, code
	}
}

func trimLead(b []byte) []byte { return bytes.Clone(bytes.TrimLeft(b, " \t\r\n")) }

// raw is the message's text: header, body and end marker.
func (p *parser) raw(term string) []byte {
	if p.blk.Over || p.noRaw {
		return nil
	}
	r := append(trimLead(p.hdr), p.blk.Bytes...)
	return append(r, term...)
}

// finishBody ends a body that is not text at end (term is the end marker,
// "" when the next message starts or the input ended).
func (p *parser) finishBody(end int64, term string, eof bool) {
	p.state = stText
	span := syntax.Span{Start: p.msgStart, End: end}
	switch {
	case p.kind == kindSkip:
		p.Errorf(p.skipCode, p.msgPos, span, p.raw(term), "%s", p.skipMsg)
		return
	case p.blk.Over:
		p.Errorf(syntax.CodeOverLimit, p.msgPos, span, nil, "message body longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	case eof && (p.kind == kindResult || p.phase != phaseAfter):
		p.Errorf(syntax.CodeTruncated, p.msgPos, span, p.raw(term), "unterminated message %s: the stream ended inside it", p.describe())
		return
	case p.problem != "":
		p.Errorf(p.problemCode, p.msgPos, span, p.raw(term), "message %s: %s", p.describe(), p.problem)
		return
	}
	body := p.blk.Bytes
	switch p.kind {
	case kindResult:
		var v []byte
		switch p.phase {
		case phaseAfter:
			v = jsonscan.Compact(body[:p.jsonEnd])
		case phaseLead:
			v = []byte(`""`)
		default:
			v = params.Quote(nil, jsonscan.TrimSpace(body))
		}
		p.Emit(syntax.Event{Type: syntax.Result, Tool: p.name, Status: syntax.Success, Value: v, Span: span})
		return
	case kindBuiltin:
		e := syntax.Event{Type: syntax.Call, Name: p.name, Args: []byte("{}"), Pos: p.msgPos, Span: p.callSpan()}
		switch p.phase {
		case phaseAfter:
			e.Args = jsonscan.Compact(body[:p.jsonEnd])
		case phaseRaw:
			e.Args = append(append([]byte(`{"input":`), params.Quote(nil, body)...), '}')
			e.Custom = true
		}
		p.called(end, term)
		p.Emit(e)
		return
	}
	if p.name == "" {
		p.Errorf(syntax.CodeMalformed, p.msgPos, span, p.raw(term), "message %s names no function", p.describe())
		return
	}
	args := []byte("{}")
	if p.phase == phaseAfter {
		var msg string
		if args, msg = callArgs(body[:p.jsonEnd]); msg != "" {
			p.Errorf(syntax.CodeMalformed, p.msgPos, span, p.raw(term), "message %s: %s", p.describe(), msg)
			return
		}
	}
	p.called(end, term)
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, Args: args, Pos: p.msgPos, Span: p.callSpan()})
}

// callSpan is a call's span: its header and body, up to the end of its JSON
// value (or of its free text), without the end marker.
func (p *parser) callSpan() syntax.Span {
	end := p.bodyStart + p.blk.Len
	if p.phase == phaseAfter {
		end = p.bodyStart + int64(p.jsonEnd)
	}
	return syntax.Span{Start: p.msgStart, End: end}
}

// callArgs reads a call's JSON body: an object; null for {}; a string
// holding an object, decoded once.
func callArgs(v []byte) ([]byte, string) {
	args, k, ok := jsoncall.Args(v, 0)
	switch {
	case ok:
		return args, ""
	case k == '"':
		return nil, "the arguments are a string, not a JSON object"
	}
	return nil, "the arguments are " + jsonscan.KindName(k) + ", not an object"
}

func (p *parser) describe() string {
	switch p.kind {
	case kindCall:
		return "to functions." + p.name
	case kindBuiltin:
		return "to " + p.name
	case kindResult:
		return "from " + p.name
	}
	return ""
}

// finish reports what the end of the stream left open.
func (p *parser) finish(end int64) {
	switch p.state {
	case stHeader:
		p.Errorf(syntax.CodeTruncated, p.msgPos, syntax.Span{Start: p.msgStart, End: end}, trimLead(p.hdr),
			"unterminated message header: the stream ended before %s", messageTag)
	case stBody:
		if p.kind != kindText {
			p.finishBody(end, "", true)
			break
		}
		p.EndRun()
		if p.text == syntax.Think {
			p.Errorf(syntax.CodeTruncated, p.msgPos, syntax.Span{Start: p.msgStart, End: end}, nil,
				"unterminated analysis message: the stream ended before %s", endTag)
		}
	}
	p.endBatch(end)
}

// completeAt reports whether input ends inside a call whose JSON arguments
// are complete: <|call|> is a stop token, which servers do not pass on, so
// such a call is complete (the conformance kit's truncation check skips
// these cut points).
func completeAt(input []byte) bool {
	p := &parser{}
	p.Init(func(syntax.Event) {}, syntax.Options{}, p.step, p.finish)
	p.args.JSON = &p.js
	p.Write(input)
	return p.state == stBody && (p.kind == kindCall || p.kind == kindBuiltin) && p.phase == phaseAfter &&
		p.doneAt == int64(len(input))
}
