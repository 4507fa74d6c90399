package native

import (
	"bytes"
	"fmt"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the native syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "native",
	Aliases:     []string{"json"},
	Description: "provider function-call JSON (OpenAI Chat and Responses, Anthropic, Gemini, Ollama), whole or streamed",
	New:         New,
	Detect:      Detect,
	Render:      NewRenderer,
	Variants: []syntax.Variant{
		{Name: "anthropic", Description: "Anthropic Messages (the default form)", Render: NewRenderer},
		{Name: "openai", Description: "OpenAI Chat Completions messages", Render: NewOpenAIRenderer},
		{Name: "openai-responses", Description: "OpenAI Responses items (read; not written yet)"},
		{Name: "gemini", Description: "Gemini contents (read; not written yet)"},
		{Name: "ollama", Description: "Ollama /api/chat and /api/generate (read; not written yet)"},
	},
	Prompt: "Call tools through the API's function calling: the tools below are sent as the request's tools. " +
		"Each call's arguments must be a JSON object that fits the tool's parameters. The examples show the calls in the API's message form.",
}

var wakeSet = scan.Bytes("}]\n")

type state uint8

const (
	atLine   state = iota // between documents
	inDoc                 // inside a JSON document
	skipLine              // skipping the rest of an SSE field line (event:, id:, …)
	badLine               // gathering a line that is not JSON
)

type parser struct {
	scan.Core
	state     state
	lineStart bool // only white space since the last newline
	afterData bool // just after "data:": "[DONE]" may follow

	// The document being read.
	docStart syntax.Pos
	doc      scan.Block
	js       jsonscan.JSON

	// A line that is not JSON.
	badStart syntax.Pos
	bad      scan.Block // the line, up to the limit (past it, none of it)
	badMsg   string
	badCode  syntax.Code

	// A refusal being gathered (see refuse).
	refusing    bool
	refusal     []byte
	refusalSpan syntax.Span

	msg       message
	names     nameTable // call id → tool name, to name results
	otherSeen bool      // a choice other than the first was reported
}

// New returns a native parser that sends its events to h.
func New(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{lineStart: true}
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

// sseFields are the SSE field names; only data: carries a document.
var sseFields = [...]string{"data:", "event:", "id:", "retry:", ":"}

// between handles the bytes between documents: white space, SSE field
// names, "data: [DONE]", the start of a document, or a line that is not JSON.
func (p *parser) between(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		if bytes.IndexByte(data[:i], '\n') >= 0 {
			p.lineStart, p.afterData = true, false
		}
		return i
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
		p.state = inDoc
		p.docStart = p.Pos()
		p.doc.Reset()
		p.js.Reset(p.Options().DepthLimit())
		return scan.Again // docBytes reads it
	}
	if p.lineStart {
		for _, f := range sseFields {
			full, partial := scan.MatchPrefix(data, f)
			if partial && !eof {
				return 0
			}
			if !full {
				continue
			}
			if f != "data:" {
				p.state = skipLine
				return len(f)
			}
			p.lineStart, p.afterData = false, true
			return len(f)
		}
	}
	p.state = badLine
	p.badStart = p.Pos()
	p.bad.Reset()
	p.badMsg, p.badCode = "not a JSON document or an SSE line", syntax.CodeInvalidJSON
	return scan.Again // badBytes gathers the line
}

func (p *parser) skipLineBytes(data []byte) int {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return len(data)
	}
	p.state, p.lineStart = atLine, true
	return i + 1
}

// badBytes gathers the rest of a line that is not JSON, for its error.
func (p *parser) badBytes(data []byte) int {
	i := bytes.IndexByte(data, '\n')
	n := len(data)
	if i >= 0 {
		n = i + 1
	}
	p.bad.Keep(data[:n], p.Options().BlockLimit())
	if i >= 0 {
		p.endBadLine(p.Offset() + int64(n))
		p.lineStart = true
	}
	return n
}

func (p *parser) endBadLine(end int64) {
	p.state = atLine
	p.Errorf(p.badCode, p.badStart, syntax.Span{Start: p.badStart.Offset, End: end}, jsonscan.TrimSpace(p.bad.Bytes), "%s", p.badMsg)
}

// docBytes reads a JSON document, JSON-aware, to its end.
func (p *parser) docBytes(data []byte) int {
	n := p.js.Scan(data)
	p.doc.Keep(data[:n], p.Options().BlockLimit())
	span := syntax.Span{Start: p.docStart.Offset, End: p.docStart.Offset + p.doc.Len}
	switch {
	case p.js.Done():
		p.state, p.lineStart = atLine, false
		if p.doc.Over {
			p.Errorf(syntax.CodeOverLimit, p.docStart, span, nil, "JSON document longer than the limit of %d bytes", p.Options().BlockLimit())
		} else {
			p.document(p.doc.Bytes, span)
		}
	case p.js.Err() != nil:
		// The rest of the line joins the error; the next line starts afresh.
		p.state = badLine
		p.badStart = p.docStart
		p.badMsg = fmt.Sprintf("invalid JSON at %s: %s", scan.Advance(p.docStart, p.doc.Bytes), p.js.Err().Msg)
		p.badCode = p.js.Err().Code()
		p.bad.Reset()
		p.bad.Over = p.doc.Over // a line longer than the limit has no raw text, however it came in
		p.bad.Keep(p.doc.Bytes, p.Options().BlockLimit())
		if n == 0 { // the error was at the first byte: badBytes reads it
			return scan.Again
		}
	}
	return n
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
	case badLine:
		p.endBadLine(end)
	}
	p.endOfStream()
}
