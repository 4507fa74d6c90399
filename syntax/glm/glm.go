package glm

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/rawbatch"
	"github.com/toolparse/toolparse/internal/rawvalue"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the glm syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "glm",
	Aliases:     []string{"glm45", "glm47"},
	Description: "GLM-4.5/4.6/4.7: <tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>",
	New:         New,
	Detect:      Detect,
	Render:      NewRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"glm-4.5*", "glm-4.6*", "glm-4.7*", "glm-5*", "glm4.5*", "glm4.6*", "glm4.7*", "laguna*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_call>", "<arg_key>"}},
	},
}

const promptRules = `For each function call, output the function name and arguments within the following XML format:
<tool_call>{function-name}
<arg_key>{arg-key-1}</arg_key>
<arg_value>{arg-value-1}</arg_value>
<arg_key>{arg-key-2}</arg_key>
<arg_value>{arg-value-2}</arg_value>
...
</tool_call>
- Values are plain text, taken exactly as written (no escaping, no trimming); write numbers, booleans, arrays and objects as JSON.
- One <tool_call> block per call; several blocks call several tools.
- Think inside <think>...</think> (optional). Text outside blocks is your answer to the user.
- Tool results come back inside <tool_response>...</tool_response>, one block per call, in the order of the calls.`

const (
	openThink     = "<think>"
	closeThink    = "</think>"
	openToolCall  = "<tool_call>"
	closeToolCall = "</tool_call>"
	openKey       = "<arg_key>"
	closeKey      = "</arg_key>"
	openValue     = "<arg_value>"
	closeValue    = "</arg_value>"
	openResponse  = "<tool_response>"
	closeResponse = "</tool_response>"
	maxName       = 256 // a longer name is not one
	maxOpener     = 512 // bytes after <tool_call> that may be looked at before it is decided
)

// format is GLM's parameter form for package rawvalue: values are kept
// exactly.
var format = rawvalue.Format{Open: openKey, Close: closeValue, Key: readKey}

// readKey reads the rest of "<arg_key>KEY</arg_key>", white space, then
// "<arg_value>". KEY is anything but empty (Ollama keeps "param<1>").
func readKey(rest []byte, final bool) (n, keyAt, keyLen int) {
	lim := rest[:min(len(rest), rawvalue.MaxKey)]
	i := bytes.Index(lim, []byte(closeKey))
	if i < 0 {
		if final || len(rest) > rawvalue.MaxKey || bytes.Contains(lim, []byte(openValue)) {
			return 0, 0, 0
		}
		return -1, 0, 0
	}
	if i == 0 || bytes.Contains(lim[:i], []byte(openValue)) {
		// An empty key, or <arg_value> before </arg_key> (the key's closer
		// left out): the same error however the bytes came.
		return 0, 0, 0
	}
	j := i + len(closeKey)
	j += skipSpace(rest[j:])
	full, partial := scan.MatchPrefix(rest[j:], openValue)
	switch {
	case full:
		return j + len(openValue), 0, i
	case (partial || j == len(rest)) && !final:
		return -1, 0, 0
	}
	return 0, 0, 0
}

var wakeSet = scan.Bytes(">") // every marker ends in '>'

type state uint8

const (
	inText      state = iota
	inThink           // an explicit <think>: only </think> ends it
	inOpenThink       // Options.ThinkOpen: </think> or a call opener ends it
	inCall            // a call's bytes, up to its </tool_call>
	inResponse        // <tool_response>…</tool_response>
)

type parser struct {
	scan.Core
	state state

	thinkStart syntax.Pos

	// The open call.
	start  syntax.Pos
	blk    scan.Block // the call's bytes, from <tool_call>
	bodyAt int        // where the body starts in blk (after the name)
	name   string
	rd     rawvalue.Reader

	batch rawbatch.Batch // the calls since the last execute or results

	names rawvalue.Names // the call names read
}

// New returns a glm parser that sends its events to h.
func New(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.WakeOn(wakeSet)
	p.rd.OnParam = p.onParam
	p.rd.OnDelta = p.onDelta
	if opts.ThinkOpen {
		p.state = inOpenThink
		p.BeginRun(syntax.Think, 0)
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		n, closed := p.Inside(syntax.Think, data, eof, closeThink)
		if closed {
			p.state = inText
		}
		return n
	case inOpenThink:
		return p.openThink(data, eof)
	case inCall:
		return p.call(data, eof)
	case inResponse:
		return p.response(data, eof)
	}
	return p.text(data, eof)
}

// text handles input outside blocks: respond text and the markers.
func (p *parser) text(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 {
		return n
	}
	off := p.Offset()
	if full, partial := scan.MatchPrefix(data, openThink); full {
		p.BeginRun(syntax.Think, off)
		p.thinkStart = p.Pos()
		p.state = inThink
		return len(openThink)
	} else if partial && !eof {
		return 0
	}
	if full, partial := scan.MatchPrefix(data, openResponse); full {
		p.openResponse()
		return len(openResponse)
	} else if partial && !eof {
		return 0
	}
	if n := p.opener(data, eof); n != 0 {
		return max(n, 0)
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool {
		for _, m := range [...]string{openThink, openResponse, openToolCall} {
			full, partial := scan.MatchPrefix(rest, m)
			if full || partial && !eof {
				return true
			}
		}
		return false
	})
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// opener handles a possible call opener at the start of data: it returns
// the bytes taken (the call started), -1 when more input is needed, 0 when
// data starts with none.
func (p *parser) opener(data []byte, eof bool) int {
	n, nameAt, nameLen := callOpener(data, eof)
	if n == cutOff { // the end of the input, after <tool_call> and perhaps a name
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.Pos(), syntax.Span{Start: p.Offset(), End: p.Offset() + int64(len(data))}, data,
			"unterminated tool call: the stream ended after %s", bytes.TrimSpace(data))
		return len(data)
	}
	if n <= 0 {
		return n
	}
	p.openCall(data[:n], data[nameAt:nameAt+nameLen])
	return n
}

// callOpener matches a call's start at the start of data: <tool_call>,
// white space, NAME, then (after spaces or tabs) a line end, <arg_key> or
// </tool_call>. NAME is 1 to 256 bytes, none of them white space or one of
// <>{}[]"'. It returns the bytes up to NAME's end (n > 0) and where NAME
// is; 0 when data starts with no opener (the tag is text: Hermes writes
// '{' after it, Qwen3-Coder '<function='); -1 when more input is needed;
// cutOff when the input ends after the tag, in white space or a name.
func callOpener(data []byte, eof bool) (n, nameAt, nameLen int) {
	full, partial := scan.MatchPrefix(data, openToolCall)
	if !full {
		if partial && !eof {
			return -1, 0, 0
		}
		return 0, 0, 0
	}
	i := len(openToolCall) + skipSpace(data[len(openToolCall):])
	at := i
	for i < len(data) && i-at <= maxName && isNameByte(data[i]) {
		i++
	}
	end := i
	switch {
	case end-at > maxName || at-len(openToolCall) > maxOpener:
		return 0, 0, 0
	case i == len(data):
		if eof {
			return cutOff, 0, 0
		}
		return -1, 0, 0
	case end == at:
		return 0, 0, 0
	}
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	if i-end > maxOpener {
		return 0, 0, 0
	}
	if i == len(data) {
		if eof {
			return cutOff, 0, 0
		}
		return -1, 0, 0
	}
	if data[i] == '\n' {
		return end, at, end - at
	}
	for _, m := range [...]string{openKey, closeToolCall} {
		full, partial := scan.MatchPrefix(data[i:], m)
		if full {
			return end, at, end - at
		}
		if partial && !eof {
			return -1, 0, 0
		}
	}
	return 0, 0, 0
}

// cutOff is what callOpener returns for a call opener cut off by the end
// of the input.
const cutOff = -2

func isNameByte(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '<', '>', '{', '}', '[', ']', '"', '\'':
		return false
	}
	return true
}

// openThink handles reasoning opened by the prompt (Options.ThinkOpen): it
// ends at </think> or at a call opener, whichever comes first.
func (p *parser) openThink(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Think, data, '<'); n > 0 {
		return n
	}
	off := p.Offset()
	if full, partial := scan.MatchPrefix(data, closeThink); full {
		p.EndRunAt(off + int64(len(closeThink)))
		p.state = inText
		return len(closeThink)
	} else if partial && !eof {
		return 0
	}
	if n := p.opener(data, eof); n != 0 {
		return max(n, 0)
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool {
		for _, m := range [...]string{closeThink, openToolCall} {
			full, partial := scan.MatchPrefix(rest, m)
			if full || partial && !eof {
				return true
			}
		}
		return false
	})
	p.Text(syntax.Think, data[:n], off)
	return n
}

// openCall starts a call: tag is <tool_call>, white space and the name.
func (p *parser) openCall(tag, name []byte) {
	p.EndRun() // a call opener also ends reasoning opened by the prompt
	p.batch.Open()
	p.state = inCall
	p.start = p.Pos()
	p.blk.Reset()
	p.keep(tag)
	p.name = p.names.Intern(name)
	p.bodyAt = len(tag)
	p.rd.Reset(&format, p.Options().Mode == syntax.TokenMode)
	if p.Options().Mode == syntax.TokenMode {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Span: p.span(0, len(tag))})
	}
}

// call keeps the call's bytes up to its first </tool_call> and reads them
// as they come.
func (p *parser) call(data []byte, eof bool) int {
	if i := bytes.Index(data, []byte(closeToolCall)); i >= 0 {
		n := i + len(closeToolCall)
		p.keep(data[:i])
		bodyEnd := len(p.blk.Bytes)
		if !p.blk.Over {
			p.rd.Read(p.blk.Bytes[p.bodyAt:], true)
		}
		p.keep(data[i:n])
		p.closeCall(bodyEnd, p.Offset()+int64(n))
		return n
	}
	n := len(data)
	if !eof {
		n -= scan.PartialSuffix(data, closeToolCall)
	}
	p.keep(data[:n])
	if !p.blk.Over {
		p.rd.Read(p.blk.Bytes[p.bodyAt:], false)
	}
	if n == 0 && !eof {
		return 0
	}
	return n
}

func (p *parser) keep(b []byte) { p.blk.Keep(b, p.Options().BlockLimit()) }

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

// closeCall emits the complete call, or its error; the body ends at
// bodyEnd in blk, the call at end in the input.
func (p *parser) closeCall(bodyEnd int, end int64) {
	p.state = inText
	span := syntax.Span{Start: p.start.Offset, End: end}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.start, span, nil, "a tool call longer than the limit of %d bytes", p.Options().BlockLimit())
		return
	}
	raw := p.blk.Bytes
	body := raw[p.bodyAt:bodyEnd]
	if at, msg := p.rd.Err(body); at >= 0 {
		p.Errorf(syntax.CodeMalformed, p.start, span, raw, "tool call %s at %s: %s", p.name, scan.Advance(p.start, raw[:p.bodyAt+at]), msg)
		return
	}
	args := p.rd.JSON()
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, Args: args, Strings: true, Pos: p.start, Span: span})
	p.batch.Add(p.name, p.start.Offset, end)
}

// openResponse starts a <tool_response> block: the calls before it were
// executed.
func (p *parser) openResponse() {
	p.EndRun()
	p.batch.Execute(&p.Core)
	p.state = inResponse
	p.start = p.Pos()
	p.blk.Reset()
	p.keep([]byte(openResponse))
}

// response keeps a tool response's bytes up to </tool_response>.
func (p *parser) response(data []byte, eof bool) int {
	n, closed := rawbatch.Response(&p.Core, &p.blk, data, eof, closeResponse)
	if closed {
		p.state = inText
		p.batch.Result(&p.Core, &p.blk, p.start, openResponse, closeResponse)
	}
	return n
}

func (p *parser) finish(end int64) {
	switch p.state {
	case inThink, inOpenThink:
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
			"unterminated reasoning: the stream ended before </think>")
	case inCall:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.start.Offset, End: end}, raw,
			"unterminated tool call %s: the stream ended before </tool_call>", p.name)
	case inResponse:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.start.Offset, End: end}, raw,
			"unterminated <tool_response>: the stream ended before </tool_response>")
	}
	p.batch.Execute(&p.Core)
}

func skipSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
