package native

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the native syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "native",
	Aliases:     []string{"json"},
	Description: "provider function-call JSON (OpenAI Chat and Responses, Anthropic, Gemini, Ollama), whole or streamed",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Quiet:       quiet,
	Streams:     true,
	Variants: []syntax.Variant{
		{Name: "anthropic", Description: "Anthropic Messages (the default form)", Render: newRenderer},
		{Name: "openai", Description: "OpenAI Chat Completions messages", Render: newOpenAIRenderer},
		{Name: "openai-responses", Description: "OpenAI Responses items", Render: newResponsesRenderer},
		{Name: "gemini", Description: "Gemini contents", Render: newGeminiRenderer},
		{Name: "ollama", Description: "Ollama /api/chat messages (reads /api/generate too)", Render: newOllamaRenderer},
	},
	Prompt: "Call tools through the API's function calling: the tools below are sent as the request's tools. " +
		"Each call's arguments must be a JSON object that fits the tool's parameters. The examples show the calls in the API's message form.",
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"gpt-[0-9]*", "gpt-4o*", "chatgpt-*", "o[1-9]", "o[1-9]-*", "claude-*", "gemini-*", "deepseek-chat", "deepseek-reasoner",
		"mistral-*-latest", "magistral-*-latest", "devstral-*-latest", "ministral-*-latest", "codestral-latest", "open-mistral-*", "open-mixtral-*", "pixtral-*"},
}

var wakeSet = scan.Bytes("}]\n\r")

type state uint8

const (
	atLine   state = iota // between documents
	inDoc                 // inside a JSON document
	skipLine              // skipping the rest of an SSE field line (event:, id:, a comment)
	badLine               // gathering a line that is not JSON
)

type parser struct {
	scan.Core
	ct        contentText // the message's text read in Options.Content (content.go)
	state     state
	began     bool // past the start of the input and its byte order mark, if any
	lineStart bool // only spaces and tabs since the last line end
	cr        bool // the last byte taken was a CR line end: an LF right after it is part of it
	inData    bool // in the value of an SSE data: line
	afterData bool // just after "data:": "[DONE]" may follow
	lines     bool // the input is JSON lines: a document was read whole on a line of its own

	// Anthropic's message_start usage, for the usage event at message_delta.
	started tokens
	startOK bool

	// The document being read.
	docStart syntax.Pos
	docEnd   int64 // the offset just past the bytes it took so far
	doc      scan.Block
	js       jsonscan.JSON
	docSSE   bool // it is the data of an SSE event: the event's next data: line may go on with it
	docLine  bool // it is a line of JSON lines: it ends with its line
	docFirst bool // it started at the start of a line
	docBreak bool // it took a line end
	held     bool // an SSE document is open at a line end, waiting for its event's next data: line

	// A line that is not JSON.
	badStart syntax.Pos
	runOpen  bool       // a run of bad lines ended, not yet reported (see badLine)
	runEnd   int64      // where its last line ends
	runLines int        // how many lines it has
	runData  bool       // it is an SSE data line's: one error of its own
	bad      scan.Block // the line, up to the limit (past it, none of it)
	badMsg   string
	badCode  syntax.Code

	// A refusal being gathered (see refuse).
	refusing    bool
	refusal     []byte
	refusalSpan syntax.Span

	slab      []member               // the members of the document's objects (see probe)
	words     map[string]string      // short strings of the documents (see word)
	skip      jsonscan.Skipper       // walks the document: a long string once, not once a level
	fd        fastDoc                // what the fast path's walk found (see fast)
	fcalls    [maxFastCalls]fastCall // the tool calls it found, each cleared as it is read
	general   bool                   // every document is read by the general reader (tests compare the fast path with it)
	fastReads int                    // documents the fast path read (for tests)

	// Where the next LF is (see lineEndAt): at the stream offset lfNext,
	// or, when lfNext is -1, at none before lfScanned.
	lfNext, lfScanned int64

	// Buffers the fast path decodes into, reused.
	sKey, sID, sName, sText []byte

	typeProblem string // the first wrong-typed member of the document being read
	typeMore    int    // how many more

	msg       message
	names     nameTable // call id → tool name, to name results
	otherSeen bool      // a choice other than the first was reported
}

// newParser returns a native parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{lineStart: true, lfNext: -1}
	p.msg.reset()
	p.Init(h, opts, p.step, p.finish)
	// Events complete only where a document ends ('}' or ']'), or at a line
	// end (a line that is not JSON is reported there).
	p.WakeOn(wakeSet)
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case inDoc:
		return p.docBytes(data)
	case skipLine:
		return p.skipLineBytes(data)
	case badLine:
		return p.badBytes(data)
	}
	return p.between(data, eof)
}

// sseFields are the SSE field names read; only data carries a document.
var sseFields = [...]string{"data", "event", "id", "retry"}

// between handles the bytes between documents: line ends, white space, SSE
// field names and comments, "data: [DONE]", the start of a document, or a
// line that is not JSON. Lines end at LF, CR or CRLF, as SSE says.
func (p *parser) between(data []byte, eof bool) int {
	if !p.began {
		full, partial := scan.MatchPrefix(data, bom)
		if partial && !eof {
			return 0
		}
		p.began = true
		if full {
			return len(bom)
		}
	}
	switch data[0] {
	case '\n':
		if p.cr { // the LF of a CRLF
			p.cr = false
			return 1
		}
		p.lineEnd()
		return 1
	case '\r':
		p.lineEnd()
		p.cr = true
		return 1
	case ' ', '\t':
		i := 1
		for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
		p.cr = false
		return i
	}
	p.cr = false
	if p.lineStart {
		n, name := sseField(data, eof)
		switch {
		case n < 0:
			return 0
		case name == "data":
			p.flushBad()
			p.lineStart, p.inData, p.afterData = false, true, true
			if p.held { // the event's next data line: the document goes on
				p.held, p.state = false, inDoc
			}
			return n
		case name == "?":
			p.lineStart = false
			p.badLine(syntax.CodeUnsupported, fmt.Sprintf("an SSE field (%s) this parser does not read", data[:n-1]))
			return scan.Again
		case n > 0:
			p.flushBad()
			p.lineStart, p.state = false, skipLine
			return n
		}
		if p.held {
			p.endHeld("the event went on with a line that is not data")
			return scan.Again
		}
	}
	if p.afterData {
		full, partial := scan.MatchPrefix(data, "[DONE]")
		if partial && !eof {
			return 0
		}
		p.afterData = false
		if full {
			return len("[DONE]")
		}
	}
	if c := data[0]; c == '{' || c == '[' {
		p.flushBad()
		p.state = inDoc
		p.docStart, p.docEnd = p.Pos(), p.Offset()
		p.docSSE, p.docLine, p.docFirst, p.docBreak = p.inData, p.lines && !p.inData, p.lineStart, false
		p.lineStart = false
		p.doc.Reset()
		p.js.Reset(p.Options().DepthLimit())
		return scan.Again // docBytes reads it
	}
	p.lineStart = false
	p.badLine(syntax.CodeInvalidJSON, "not a JSON document or an SSE line")
	return scan.Again
}

// badLine starts a line that is an error of the given code: badBytes
// gathers it, from the byte the step is at.
//
// Consecutive lines of one error (prose, a log's text between documents;
// not an SSE data line's payload, an event of its own) are one run, reported once with a span over them all when something else
// comes (see flushBad): a gigabyte of prose is one error, not one a line.
func (p *parser) badLine(code syntax.Code, msg string) {
	p.state = badLine
	if p.runOpen && code == p.badCode && msg == p.badMsg && !p.inData && !p.runData {
		p.runLines++
		p.bad.Keep([]byte{'\n'}, p.Options().BlockLimit())
		return
	}
	p.flushBad()
	p.badStart = p.Pos()
	p.bad.Reset()
	p.badMsg, p.badCode, p.runLines, p.runData = msg, code, 1, p.inData
}

// flushBad reports the run of bad lines that is open, if one is.
func (p *parser) flushBad() {
	if !p.runOpen {
		return
	}
	p.runOpen = false
	var raw []byte
	if !p.bad.Over {
		raw = jsonscan.TrimSpace(p.bad.Bytes)
	}
	msg := p.badMsg
	if p.runLines > 1 {
		msg = fmt.Sprintf("%d lines: %s", p.runLines, msg)
	}
	p.Errorf(p.badCode, p.badStart, syntax.Span{Start: p.badStart.Offset, End: p.runEnd}, raw, "%s", msg)
}

// sseField matches an SSE field name at the start of a line: data, event,
// id or retry, followed by its colon or by the line's end (a field with no
// value), or a comment (a line starting with ':', name ":"). Any other
// name of letters, digits, '-' and '_' followed by a colon is a field this
// parser does not read (name "?"). It returns the bytes to take (-1: more
// input is needed) and the name, or 0 and "" when the line is no field.
func sseField(data []byte, eof bool) (int, string) {
	if data[0] == ':' {
		return 1, ":"
	}
	if n := otherField(data, eof); n != 0 {
		return n, "?"
	}
	for _, f := range sseFields {
		full, partial := scan.MatchPrefix(data, f)
		if partial && !eof {
			return -1, ""
		}
		if !full {
			continue
		}
		if len(data) == len(f) {
			if !eof {
				return -1, ""
			}
			return len(f), f
		}
		switch data[len(f)] {
		case ':':
			return len(f) + 1, f
		case '\n', '\r':
			return len(f), f
		}
	}
	return 0, ""
}

// maxFieldName bounds the name of a field read and ignored: a longer run of
// name bytes is not a field, so a line is never rescanned more than this.
const maxFieldName = 64

// otherField matches a field name other than those read, then its colon:
// the bytes to take, -1 when more input is needed, 0 when it is no field.
func otherField(data []byte, eof bool) int {
	for i := 0; i < len(data) && i <= maxFieldName; i++ {
		switch c := data[i]; {
		case c == ':' && i > 0:
			if knownField(data[:i]) {
				return 0
			}
			return i + 1
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return 0
		}
	}
	if len(data) <= maxFieldName && !eof {
		return -1
	}
	return 0
}

func knownField(name []byte) bool {
	for _, f := range sseFields {
		if string(name) == f {
			return true
		}
	}
	return false
}

// lineEnd notes the end of a line. A blank line ends an SSE event: a
// document still open in it is cut off.
func (p *parser) lineEnd() {
	blank := p.lineStart
	p.lineStart, p.inData, p.afterData = true, false, false
	if blank && p.held {
		p.endHeld("the event ended inside it")
	}
}

// endHeld reports the SSE document that its event left unfinished.
func (p *parser) endHeld(why string) {
	p.held = false
	var raw []byte
	if !p.doc.Over {
		raw = jsonscan.TrimSpace(p.doc.Bytes)
	}
	p.Errorf(syntax.CodeTruncated, p.docStart, syntax.Span{Start: p.docStart.Offset, End: p.docEnd}, raw, "truncated JSON document: %s", why)
}

// lineEndAt returns the index of the first line end (CR or LF) in data, or
// -1. data starts at the stream offset p.Offset(), which only grows: where
// the next LF is (or that there is none up to an offset) is remembered, so
// that however many documents lie before the next LF, the bytes up to it
// are searched for it once. Only the bytes before that LF are searched for
// a CR.
func (p *parser) lineEndAt(data []byte) int {
	o := p.Offset()
	switch {
	case p.lfNext >= o: // known
	case p.lfNext < 0 && p.lfScanned >= o+int64(len(data)): // known: none in data
	default:
		from := o
		if p.lfNext < 0 && p.lfScanned > o {
			from = p.lfScanned
		}
		if i := bytes.IndexByte(data[from-o:], '\n'); i >= 0 {
			p.lfNext = from + int64(i)
		} else {
			p.lfNext, p.lfScanned = -1, o+int64(len(data))
		}
	}
	lf := -1
	if p.lfNext >= o && p.lfNext-o < int64(len(data)) {
		lf = int(p.lfNext - o)
		data = data[:lf]
	}
	if cr := bytes.IndexByte(data, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

func (p *parser) skipLineBytes(data []byte) int {
	i := p.lineEndAt(data)
	if i < 0 {
		return len(data)
	}
	p.state = atLine
	if i == 0 {
		return scan.Again
	}
	return i
}

// badBytes gathers the rest of a line that is not JSON, for its error.
func (p *parser) badBytes(data []byte) int {
	i := p.lineEndAt(data)
	n := len(data)
	if i >= 0 {
		n = i
	}
	p.bad.Keep(data[:n], p.Options().BlockLimit())
	if i < 0 {
		return n
	}
	p.endBadLine(p.Offset() + int64(n))
	if n == 0 {
		return scan.Again
	}
	return n
}

func (p *parser) endBadLine(end int64) {
	p.state = atLine
	p.runOpen, p.runEnd = true, end // reported when the run ends
}

// docBytes reads a JSON document, JSON-aware, to its end. A document of an
// SSE event or of JSON lines never runs past its line: at the line's end, a
// line of JSON lines is cut off, and an SSE document waits for its event's
// next data: line (the data lines of an event are joined with LF).
func (p *parser) docBytes(data []byte) int {
	lim, brk := len(data), false
	if p.docSSE || p.docLine {
		if i := p.lineEndAt(data); i >= 0 {
			lim, brk = i, true
		}
	}
	n := p.js.Scan(data[:lim])
	doc := data[:n]
	direct := p.doc.Len == 0 && p.js.Done() && n >= directDoc && n <= p.Options().BlockLimit()
	if direct {
		// A long document that began and ended in the bytes at hand is
		// read where it is, not copied into doc first (a whole response
		// is one Write in one piece). What the reading leaves pointing
		// into those bytes is cleared after it: a Write must not keep
		// its caller's buffer.
		p.doc.Len = int64(n)
	} else {
		p.doc.Keep(doc, p.Options().BlockLimit())
		doc = p.doc.Bytes
	}
	p.docEnd = p.Offset() + int64(n)
	if !brk && !p.docBreak && p.lineEndAt(data[:n]) >= 0 {
		p.docBreak = true
	}
	span := syntax.Span{Start: p.docStart.Offset, End: p.docEnd}
	switch {
	case p.js.Done():
		p.state = atLine
		if p.docFirst && !p.docSSE && !p.docBreak {
			p.lines = true // a document on a line of its own: JSON lines
		}
		if p.doc.Over {
			p.Errorf(syntax.CodeOverLimit, p.docStart, span, nil, "JSON document longer than the limit of %d bytes", p.Options().BlockLimit())
		} else {
			if cap(p.slab) > 4096 {
				p.slab = nil // a large document's slab is not kept
			}
			p.slab = p.slab[:0]
			p.skip.Reset() // the document's buffer is reused
			p.document(doc, span)
			p.reportTypes(span)
			if direct {
				clear(p.slab[:cap(p.slab)]) // what a block gave back points into the bytes too
				p.skip.Reset()
				p.fd, p.fcalls = fastDoc{}, [maxFastCalls]fastCall{}
			}
		}
	case p.js.Err() != nil:
		at := scan.Advance(p.Pos(), data[:n])
		if !p.docSSE && n < len(data) && (data[n] == '{' || data[n] == '[') && p.brokenAtLineStart() {
			// A line cut off before a line that starts another
			// document (JSON lines not yet known as such): the cut
			// line is one error, and the next one is read afresh.
			p.state, p.lineStart = atLine, true
			p.Errorf(syntax.CodeTruncated, p.docStart, span, jsonscan.TrimSpace(p.doc.Bytes), "truncated JSON document: the next line, at %s, starts another document", at)
			break
		}
		// The rest of the line joins the error; the next line starts afresh.
		p.state = badLine
		p.badStart = p.docStart
		p.badMsg = fmt.Sprintf("invalid JSON at %s: %s", at, p.js.Err().Msg())
		p.badCode = p.js.Err().Code()
		p.bad.Reset()
		p.bad.Over = p.doc.Over // a line longer than the limit has no raw text, however it came in
		p.bad.Keep(p.doc.Bytes, p.Options().BlockLimit())
	case brk && p.docLine:
		p.state = atLine
		var raw []byte
		if !p.doc.Over {
			raw = p.doc.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.docStart, span, raw, "truncated JSON document: its line ended inside it")
	case brk: // an SSE document: it may go on in the event's next data line
		p.state = atLine
		if p.js.Scan(newline); p.js.Err() != nil { // the line ended inside a string
			var raw []byte
			if !p.doc.Over {
				raw = p.doc.Bytes
			}
			p.Errorf(syntax.CodeTruncated, p.docStart, span, raw, "truncated JSON document: its line ended inside a string")
			break
		}
		p.doc.Keep(newline, p.Options().BlockLimit())
		p.held = true
	}
	if n == 0 && p.state != inDoc {
		return scan.Again
	}
	return n
}

var newline = []byte{'\n'}

// directDoc is the shortest document read where it is (see docBytes): a
// shorter one is copied, which costs less than clearing what its reading
// leaves behind.
const directDoc = 4 << 10

// brokenAtLineStart reports whether the document read so far ends with a
// line end and white space: the byte that broke it starts a line.
func (p *parser) brokenAtLineStart() bool {
	if p.doc.Over {
		return false
	}
	b := bytes.TrimRight(p.doc.Bytes, " \t")
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}

func (p *parser) finish(end int64) {
	switch p.state {
	case inDoc:
		var raw []byte
		if !p.doc.Over {
			raw = p.doc.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.docStart, syntax.Span{Start: p.docStart.Offset, End: end}, raw,
			"truncated JSON document: the stream ended inside it")
	case atLine:
		if p.held {
			p.endHeld("the stream ended inside it")
		}
	case badLine:
		p.endBadLine(end)
	}
	p.flushBad()
	p.endOfStream()
}

// wrongType notes a member of the document being read whose value has kind
// got ('.' for a number that is no integer) where the parser reads kind
// want.
func (p *parser) wrongType(key string, got, want byte) {
	p.wrongValue(strconv.Quote(key), got, want)
}

// wrongValue notes a value, what, of kind got where the parser reads kind
// want.
func (p *parser) wrongValue(what string, got, want byte) {
	if p == nil {
		return
	}
	if p.typeProblem != "" {
		p.typeMore++
		return
	}
	gotName := jsonscan.KindName(got)
	if got == '.' {
		gotName = "a number that is not an integer"
	}
	p.typeProblem = fmt.Sprintf("%s is %s, not %s", what, gotName, kindName(want))
}

func kindName(k byte) string {
	switch k {
	case '0':
		return "an integer"
	case 't':
		return "a boolean"
	}
	return jsonscan.KindName(k)
}

// reportTypes reports the wrong-typed members noted while the document
// was read: what they held was read as absent.
func (p *parser) reportTypes(span syntax.Span) {
	if p.typeProblem == "" {
		return
	}
	more := ""
	if p.typeMore > 0 {
		more = fmt.Sprintf(" (and %d more member(s) of the wrong type)", p.typeMore)
	}
	p.Errorf(syntax.CodeMalformed, p.docStart, span, nil, "document: %s, so it was read as absent%s", p.typeProblem, more)
	p.typeProblem, p.typeMore = "", 0
}
