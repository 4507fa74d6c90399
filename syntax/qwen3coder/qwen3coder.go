package qwen3coder

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/rawbatch"
	"github.com/toolparse/toolparse/internal/rawvalue"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the qwen3coder syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "qwen3coder",
	Aliases:     []string{"qwen3-coder", "qwen35"},
	Description: "Qwen3-Coder / Qwen3.5 XML: <tool_call><function=NAME><parameter=K>v</parameter></function></tool_call>",
	New:         New,
	Detect:      Detect,
	Render:      NewRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"qwen3-coder*", "qwen3.5*", "qwen3.6*", "mimo-v2*", "*nemotron-3-nano*", "*nemotron-3-super*", "step-3.5*", "step3.5*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_call>", "<function=", "<parameter="}},
	},
}

const promptRules = `If you choose to call a function ONLY reply in the following format with NO suffix:
<tool_call>
<function=example_function_name>
<parameter=example_parameter_1>
value_1
</parameter>
<parameter=example_parameter_2>
This is the value for the second parameter
that can span
multiple lines
</parameter>
</function>
</tool_call>
- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags.
- Required parameters MUST be specified. Values are plain text, taken verbatim (no escaping); the newline after <parameter=...> and the one before </parameter> are not part of the value.
- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after. Think inside <think>...</think> (optional).
- Tool results come back inside <tool_response>...</tool_response>, one block per call, in the order of the calls.`

const (
	openThink     = "<think>"
	closeThink    = "</think>"
	openToolCall  = "<tool_call>"
	closeToolCall = "</tool_call>"
	openFunction  = "<function="
	closeFunction = "</function>"
	openParam     = "<parameter="
	closeParam    = "</parameter>"
	openResponse  = "<tool_response>"
	closeResponse = "</tool_response>"
	maxName       = 256 // a longer "<function=…" name is not a tag
)

// format is Qwen3-Coder's parameter form for package rawvalue.
var format = rawvalue.Format{Open: openParam, Close: closeParam, Key: readKey, TrimNewline: true}

// readKey reads the rest of "<parameter=KEY>": KEY ends at '>', or at a
// newline when the model dropped the '>' (mlx-lm PR #1881), which is then the
// value's first newline. KEY is not empty and holds no '<'.
func readKey(rest []byte, final bool) (n, keyAt, keyLen int) {
	for i, c := range rest {
		switch {
		case i >= rawvalue.MaxKey || c == '<':
			return 0, 0, 0
		case c == '>' && i > 0:
			return i + 1, 0, i
		case c == '\n' && i > 0:
			return i, 0, i
		case c == '>' || c == '\n':
			return 0, 0, 0
		}
	}
	if final {
		return 0, 0, 0
	}
	return -1, 0, 0
}

var wakeSet = scan.Bytes(">") // every marker ends in '>'

type state uint8

const (
	inText      state = iota
	inThink           // an explicit <think>: only </think> ends it
	inOpenThink       // Options.ThinkOpen: </think> or a call opener ends it
	inWrapper         // after <tool_call>: white space, then <function= or it was text
	inProbe           // after a bare <function=NAME>: white space, then <parameter= or </function>, or it was text
	inCall            // a call's bytes, up to its first </function>
	afterCall         // after </function>: white space, then </tool_call> or not
	inResponse        // <tool_response>…</tool_response>
)

type parser struct {
	scan.Core
	state state

	thinkStart syntax.Pos

	// A tag whose meaning the bytes after it decide (inWrapper, inProbe):
	// held until they come, as text of heldType if it is no call.
	held     []byte
	heldAt   int64
	heldPos  syntax.Pos
	heldType syntax.Type
	back     state // the state to go back to when the held tag is text

	// The open call.
	start   syntax.Pos
	blk     scan.Block // the call's bytes, from <tool_call> or <function=
	funcAt  int        // where <function= starts in blk
	bodyAt  int        // where the body starts in blk (after <function=NAME>); 0 until the name is read
	bodyEnd int        // where </function> starts in blk, once found
	name    string
	nameErr string // the function tag's problem, if any
	rd      rawvalue.Reader
	callEnd int64 // afterCall: where </function> ends
	failed  bool  // afterCall: the call is not valid; its error waits for closeCall
	wrapped bool  // the call opened with <tool_call>

	batch rawbatch.Batch // the calls since the last execute or results

	names rawvalue.Names // the call names read
}

// New returns a qwen3coder parser that sends its events to h.
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
	if n := p.opener(data, eof, syntax.Respond, inText); n != 0 {
		return max(n, 0)
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { return mayStartMarker(rest, eof) })
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// mayStartMarker reports whether rest, which starts with '<', may start a
// marker of the text state.
func mayStartMarker(rest []byte, eof bool) bool {
	for _, m := range [...]string{openThink, openResponse, openToolCall, openFunction} {
		full, partial := scan.MatchPrefix(rest, m)
		if full || partial && !eof {
			return true
		}
	}
	return false
}

// opener handles a possible call opener at the start of data: <tool_call>
// or a bare <function=NAME>. It returns the bytes taken (the tag, now held
// in inWrapper or inProbe), -1 when more input is needed, 0 when data
// starts with neither. t and back say what the tag is when it turns out to
// be text.
func (p *parser) opener(data []byte, eof bool, t syntax.Type, back state) int {
	if full, partial := scan.MatchPrefix(data, openToolCall); full {
		p.hold(data[:len(openToolCall)], t, back, inWrapper)
		return len(openToolCall)
	} else if partial && !eof {
		return -1
	}
	n, _ := functionTag(data, eof)
	if n < 0 {
		return -1
	}
	if n > 0 {
		p.hold(data[:n], t, back, inProbe)
		return n
	}
	return 0
}

func (p *parser) hold(tag []byte, t syntax.Type, back, next state) {
	p.heldAt, p.heldPos = p.Offset(), p.Pos()
	p.held = append(p.held[:0], tag...)
	p.heldType, p.back, p.state = t, back, next
}

// unhold gives the held bytes back as text: the tag opened nothing.
func (p *parser) unhold() {
	p.state = p.back
	p.Text(p.heldType, p.held, p.heldAt)
	p.held = p.held[:0]
}

// functionTag matches "<function=NAME>" at the start of data, NAME being
// 1 to maxName bytes other than '>', '<' and newlines. It returns the tag's
// length and NAME; 0 when there is none; -1 when more input is needed.
func functionTag(data []byte, eof bool) (int, []byte) {
	full, partial := scan.MatchPrefix(data, openFunction)
	if !full {
		if partial && !eof {
			return -1, nil
		}
		return 0, nil
	}
	for i := len(openFunction); i < len(data); i++ {
		c := data[i]
		switch {
		case i-len(openFunction) > maxName || c == '<' || c == '\n' || c == '\r':
			return 0, nil
		case c == '>':
			if i == len(openFunction) {
				return 0, nil
			}
			return i + 1, data[len(openFunction):i]
		}
	}
	if eof || len(data)-len(openFunction) > maxName {
		return 0, nil
	}
	return -1, nil
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
	if n := p.opener(data, eof, syntax.Think, inOpenThink); n != 0 {
		return max(n, 0)
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool {
		full, partial := scan.MatchPrefix(rest, closeThink)
		if full || partial && !eof {
			return true
		}
		for _, m := range [...]string{openToolCall, openFunction} {
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

// wrapper reads what follows <tool_call>: white space, then <function=
// opens a call; anything else makes the tag text.
func (p *parser) wrapper(data []byte, eof bool) int {
	i := skipSpace(data)
	if i > 0 {
		if len(p.held)+i > p.Options().BlockLimit() {
			p.unhold()
			return Again
		}
		p.held = append(p.held, data[:i]...)
		return i
	}
	full, partial := scan.MatchPrefix(data, openFunction)
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

// Again is scan.Again, for short.
const Again = scan.Again

// probe reads what follows a bare <function=NAME>: white space, then
// <parameter= or </function> makes it a call; anything else makes it text
// (Llama 3.1 writes <function=NAME>{JSON}</function>).
func (p *parser) probe(data []byte, eof bool) int {
	i := skipSpace(data)
	if i > 0 {
		if len(p.held)+i > p.Options().BlockLimit() {
			p.unhold()
			return Again
		}
		p.held = append(p.held, data[:i]...)
		return i
	}
	full1, partial1 := scan.MatchPrefix(data, openParam)
	full2, partial2 := scan.MatchPrefix(data, closeFunction)
	switch {
	case full1 || full2:
		p.openCall(false)
		return Again
	case (partial1 || partial2) && !eof:
		return 0
	}
	p.unhold()
	return Again
}

// openCall starts a call whose first bytes are held: "<tool_call>" and white
// space (wrapped: the function tag comes next), or the function tag and
// white space.
func (p *parser) openCall(wrapped bool) {
	p.EndRun() // a call opener also ends reasoning opened by the prompt
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
	p.rd.Reset(&format, p.Options().Mode == syntax.TokenMode)
	p.readCall(false)
}

// call keeps the call's bytes up to its first </function> and reads them as
// they come.
func (p *parser) call(data []byte, eof bool) int {
	if i := bytes.Index(data, []byte(closeFunction)); i >= 0 {
		n := i + len(closeFunction)
		p.keep(data[:i])
		p.bodyEnd = len(p.blk.Bytes)
		if !p.blk.Over {
			p.readCall(true)
		}
		p.keep(data[i:n])
		p.state = afterCall
		p.callEnd = p.Offset() + int64(n)
		p.endCall()
		return n
	}
	n := len(data)
	if !eof {
		n -= scan.PartialSuffix(data, closeFunction)
	}
	p.keep(data[:n])
	if !p.blk.Over {
		p.readCall(false)
	}
	if n == 0 && !eof {
		return 0
	}
	return n
}

func (p *parser) keep(b []byte) { p.blk.Keep(b, p.Options().BlockLimit()) }

// readCall reads the call's bytes kept so far: the function tag, then the
// body through the rawvalue reader. final: the body is complete (the bytes
// up to </function>, which is not kept yet).
func (p *parser) readCall(final bool) {
	b := p.blk.Bytes
	if p.bodyAt == 0 && p.nameErr == "" {
		if p.wrapped && len(b) < p.funcAt+len(openFunction) {
			return // the function tag is all that may come after <tool_call>
		}
		n, name := functionTag(b[p.funcAt:], final)
		switch {
		case n < 0:
			return
		case n == 0:
			p.nameErr = "a <function=NAME> tag whose name does not end with '>' on its line"
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

// afterCall reads what follows </function>: white space and </tool_call>
// belong to the call; anything else closes it where </function> ended.
func (p *parser) afterCall(data []byte, eof bool) int {
	i := skipSpace(data)
	if i > 0 {
		return i // the call's span takes it if </tool_call> follows
	}
	full, partial := scan.MatchPrefix(data, closeToolCall)
	switch {
	case full:
		p.closeCall(p.Offset() + int64(len(closeToolCall)))
		return len(closeToolCall)
	case partial && !eof:
		return 0
	}
	p.closeCall(p.callEnd)
	return Again
}

// endCall reads the call complete at its </function>: a valid call is
// emitted at once, its span ending there (more input cannot change it); a
// call that is not waits for closeCall, so that its error's span takes the
// </tool_call> that follows.
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

// closeCall ends the call after what follows its </function>: end is
// where the call's bytes end (after </tool_call>, when it came). A call that
// failed is reported here, with that span; the execute's span takes the
// bytes of a valid one (the </tool_call> after its </function> is in no
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
	raw := p.blk.Bytes // up to </function>
	if p.nameErr != "" {
		p.Errorf(syntax.CodeMalformed, p.start, span, raw, "tool call: %s", p.nameErr)
		return
	}
	at, msg := p.rd.Err(raw[p.bodyAt:p.bodyEnd])
	p.Errorf(syntax.CodeMalformed, p.start, span, raw, "tool call %s at %s: %s", p.name, scan.Advance(p.start, raw[:p.bodyAt+at]), msg)
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
	case afterCall: // </function> and white space, then the end: the call is complete
		p.closeCall(p.callEnd)
	case inWrapper, inProbe:
		if p.heldType == syntax.Think {
			p.EndRun()
		}
		p.Errorf(syntax.CodeTruncated, p.heldPos, syntax.Span{Start: p.heldAt, End: end}, p.held,
			"unterminated tool call: the stream ended after %s", bytes.TrimSpace(p.held))
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
			"unterminated tool call: the stream ended before </function>")
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
