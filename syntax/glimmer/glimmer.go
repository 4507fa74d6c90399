package glimmer

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the glimmer syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "glimmer",
	Aliases:     []string{"muse-glimmer", "atem"},
	Description: `Muse Glimmer: messages <|start|>assistant to=RECIPIENT<|message|>…<|eom|>; to=self reasoning, to=NAME an <atem:function_calls> block`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"muse-glimmer*", "museglimmer*", "muse_glimmer*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<atem:function_calls>", "to=self"}},
	},
}

const promptRules = `Write your output as messages. Each message is a header, <|message|>, its body and <|eom|> (<|eot|> when your turn ends); after the first, each header starts with <|start|>assistant.
- Reason in a message to yourself: <|start|>assistant to=self<|message|>...<|eom|>
- Answer the user in a message to the user: <|start|>assistant to=user<|message|>...<|eot|>
- To call a tool, address a message to it and write one call as an ATEM block, each parameter a tag of its own, its value as it is (lists and objects as JSON):
<|start|>assistant to=TOOL_NAME<|message|><atem:function_calls>
<atem:invoke name="TOOL_NAME">
<atem:parameter name="PARAMETER">value</atem:parameter>
</atem:invoke>
</atem:function_calls><|eot|>
  Write one message per call; end the last with <|eot|> and wait for the results.`

// The markers: Glimmer's special tokens, and the ATEM tags of a call.
const (
	startTag   = "<|start|>"
	messageTag = "<|message|>"
	eomTag     = "<|eom|>"
	eotTag     = "<|eot|>"
	callsOpen  = "<atem:function_calls>"
	callsClose = "</atem:function_calls>"
	outputOpen = "<tool_output"
	outputEnd  = "</tool_output>"
)

// tags are the ATEM invoke's.
var tags = invokexml.Tags{Syntax: "glimmer", Invoke: "<atem:invoke", InvokeEnd: "</atem:invoke>",
	Param: "<atem:parameter", ParamEnd: "</atem:parameter>", SectionEnd: callsClose}

// closers end a message.
var closers = []string{eomTag, eotTag}

// headerLimit bounds a message header (Options.MaxBlock, when smaller).
const headerLimit = 256

type state uint8

const (
	stStart state = iota // the start of the output: the rest of the header the prompt began, or text
	stText               // outside any message
	stText2              // a text body: reasoning or the answer
	stLead               // a call's body before its ATEM block
	stCalls              // the ATEM block (invokexml.Reader)
	stAfter              // after a call's ATEM block: white space, then the end marker
	stRaw                // a body kept whole to its end: a result, a message not the model's, a call that is no ATEM block
)

// What a message is, from its header.
type kind uint8

const (
	kindText   kind = iota // to=self (think), to=user or no recipient (respond)
	kindCall               // to=NAME: an ATEM block
	kindResult             // from a tool: its output
	kindSkip               // from the user or the system: an error
)

type parser struct {
	scan.Core
	state state

	// The message being read.
	msgStart int64
	msgPos   syntax.Pos
	hdr      []byte // its header, from <|start|> (or the output's start) through <|message|>
	kind     kind
	text     syntax.Type // kindText: think or respond
	name     string      // kindCall: the recipient; kindResult: the tool
	hasText  bool        // kindText: the body has text other than white space
	blk      scan.Block  // stRaw, stLead: the body's bytes
	problem  string      // stRaw: why the message is an error (not for a result)
	code     syntax.Code

	implicit bool  // the message is the reasoning the prompt opened (ThinkOpen)
	carry    int64 // where a text message with nothing in it started, for the next event's span; -1: none

	out  syntax.Handler // where events go
	held *syntax.Event  // a call message's last error, held until its end marker (handle)

	calls invokexml.Reader
	batch markup.Batch // calls since the last execute
}

func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{out: h, carry: -1}
	p.Init(p.handle, opts, p.step, p.finish)
	p.calls.Init(&p.Core, tags)
	p.calls.OnCall = func(_ string, from int64) { p.batch.Add(from) }
	p.calls.Check = p.checkName
	p.WakeOn(wake)
	if opts.ThinkOpen {
		// The prompt ended with <|start|>assistant to=self<|message|>.
		p.state, p.kind, p.text, p.implicit = stText2, kindText, syntax.Think, true
		p.msgPos = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

// wake: every event completes at a marker or a tag, each ending in '>'.
var wake = scan.Bytes(">")

// step runs the state's step, then tells the core which bytes can complete
// an event (see scan.Core.WakeOn): between an ATEM block's invokes, text
// ends the block at once.
func (p *parser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	if p.state == stCalls && p.calls.Between() {
		p.WakeOn(nil)
	} else {
		p.WakeOn(wake)
	}
	return n
}

func (p *parser) stateStep(data []byte, eof bool) int {
	switch p.state {
	case stStart:
		return p.start(data, eof)
	case stText2:
		return p.textBody(data, eof)
	case stLead:
		return p.lead(data, eof)
	case stCalls:
		n, done := p.calls.Step(data, eof)
		if done {
			p.state = stAfter
			if n == 0 {
				return scan.Again
			}
		}
		return n
	case stAfter:
		return p.after(data, eof)
	case stRaw:
		return p.raw(data, eof)
	}
	return p.outside(data, eof)
}

// handle passes events on to the syntax's handler, but for the last error
// of a call's ATEM block, held until the message's end: its span then takes
// in the end marker (ended), so that no byte of the message is outside
// every event's span. Any other event first lets it go unchanged.
func (p *parser) handle(e syntax.Event) {
	if p.held != nil {
		p.out(*p.held)
		p.held = nil
	}
	if e.Type == syntax.Error && (p.state == stCalls || p.state == stAfter) {
		p.held = &e
		return
	}
	p.out(e)
}

// ended notes the call message's end marker, ending at end: the held error
// takes it in.
func (p *parser) ended(end int64) {
	if p.held != nil {
		p.held.Span.End = end
		p.out(*p.held)
		p.held = nil
	}
}

// marker notes, for detection, the marker data starts with at off (see
// harmony's): <|start|> and <|message|> are Harmony's tokens too, and hold
// the decision from the message's start; Glimmer's own (<|eom|>, <|eot|>,
// <atem:function_calls> opening a call's body) are the evidence, from the
// first message held so.
func (p *parser) marker(off int64, data []byte) {
	if bytes.HasPrefix(data, []byte(startTag)) || bytes.HasPrefix(data, []byte(messageTag)) {
		p.Shared(off)
		return
	}
	p.Own(off)
}

// start decides whether the output begins with the rest of a header (the
// prompt ended with <|start|>assistant): white space, an optional
// "to=RECIPIENT", then <|message|>; or with text.
func (p *parser) start(data []byte, eof bool) int {
	if len(data) >= headerLimit {
		data, eof = data[:headerLimit], true
	}
	i := jsonscan.SkipSpace(data, 0)
	if full, partial := scan.MatchPrefix(data[i:], "to="); partial && !eof {
		return 0
	} else if full {
		j := i + 3
		for j < len(data) && !jsonscan.IsSpace(data[j]) && data[j] != '<' {
			j++
		}
		i = jsonscan.SkipSpace(data, j)
	}
	full, partial := scan.MatchPrefix(data[i:], messageTag)
	switch {
	case full:
		p.msgPos = p.Pos()
		p.marker(0, data[i:])
		p.hdr = append(p.hdr[:0], data[:i+len(messageTag)]...)
		p.openBody()
		return i + len(messageTag)
	case (partial || i == len(data)) && !eof:
		return 0
	}
	p.state = stText
	return scan.Again
}

// outside handles text outside any message: respond, up to a header; an
// end marker there is dropped.
func (p *parser) outside(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 || len(data) == 0 {
		return n
	}
	switch m, n, wait := ender(data, eof); {
	case n > 0:
		return p.opens(data, n)
	case m != "": // an end marker outside a message ends nothing: dropped (prose may name one: no evidence)
		p.EndRun()
		return len(m)
	case wait:
		return 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool {
		m, n, wait := ender(rest, eof)
		return m != "" || n > 0 || wait
	})
	p.Text(syntax.Respond, data[:n], p.Offset())
	p.carry = -1 // the text took it
	return n
}

// headerAt matches a header at the start of data: <|start|>, at most
// headerLimit bytes with no '<', then <|message|>. It returns its length, 0
// when data starts with none (a <|start|> not followed so is text), and
// wait when more input is needed to tell.
func headerAt(data []byte, eof bool) (n int, wait bool) {
	full, partial := scan.MatchPrefix(data, startTag)
	if !full {
		return 0, partial && !eof
	}
	rest := data[len(startTag):]
	i := bytes.IndexByte(rest[:min(len(rest), headerLimit)], '<')
	if i < 0 {
		return 0, len(rest) < headerLimit && !eof
	}
	full, partial = scan.MatchPrefix(rest[i:], messageTag)
	switch {
	case full:
		return len(startTag) + i + len(messageTag), false
	case partial && !eof:
		return 0, true
	}
	return 0, false
}

// opens reads the header data starts with, n bytes (see headerAt), at the
// core's position, and opens its message.
func (p *parser) opens(data []byte, n int) int {
	p.EndRun()
	p.implicit = false
	p.msgStart, p.msgPos = p.Offset(), p.Pos()
	if p.carry >= 0 {
		p.msgStart, p.carry = p.carry, -1
	}
	p.marker(p.msgStart, data)
	p.hdr = append(p.hdr[:0], data[:n]...)
	p.openBody()
	return n
}

// ender matches what ends a message's body at the start of data: an end
// marker (m, consumed), or the next message's header (n, its length);
// wait when more input is needed to tell.
func ender(data []byte, eof bool) (m string, n int, wait bool) {
	m, partial := scan.MatchAny(data, eof, closers)
	if m != "" || partial {
		return m, 0, partial
	}
	n, wait = headerAt(data, eof)
	return "", n, wait
}

// openBody reads the header and starts the body.
func (p *parser) openBody() {
	h := strings.TrimSuffix(strings.TrimPrefix(string(p.hdr), startTag), messageTag)
	words := strings.Fields(h)
	role, recipient := "assistant", ""
	if len(words) > 0 && !strings.HasPrefix(words[0], "to=") {
		role, words = words[0], words[1:]
	}
	for _, w := range words {
		if r, ok := strings.CutPrefix(w, "to="); ok && recipient == "" {
			recipient = r
		}
	}
	p.blk.Reset()
	p.hasText, p.problem = false, ""
	if role == "tool" || role == "assistant" && (recipient == "self" || recipient == "user") {
		p.Own(p.msgStart) // Glimmer's own roles and recipients (Harmony's are functions.NAME, assistant)
	}
	switch {
	case role == "assistant" && recipient == "self":
		p.kind, p.text, p.state = kindText, syntax.Think, stText2
		p.BeginRun(syntax.Think, p.msgStart)
	case role == "assistant" && (recipient == "" || recipient == "user"):
		p.kind, p.text, p.state = kindText, syntax.Respond, stText2
		p.BeginRun(syntax.Respond, p.msgStart)
	case role == "assistant":
		p.kind, p.name, p.state = kindCall, recipient, stLead
	case role == "tool":
		p.kind, p.state = kindResult, stRaw
		p.name = ""
		if len(words) > 0 {
			p.name = words[0]
		}
		if p.name == "" {
			p.problem, p.code = "a tool's message names no tool", syntax.CodeMalformed
		}
		p.batch.Execute(&p.Core, p.msgStart) // the results answer the pending calls
	default:
		p.kind, p.state = kindSkip, stRaw
		p.problem, p.code = "a "+role+" message is not the model's output", syntax.CodeNotAllowed
	}
}

// checkName is the reader's check of an invoke's name against the
// message's recipient: the same tool, each resolved as the template's
// recipients address tools (resolve), or the recipient as written is the
// tool's namespace (muse for muse.bash). It returns the name the call
// takes.
func (p *parser) checkName(name string) (string, string) {
	name = resolve(name)
	ns, _, _ := strings.Cut(name, ".")
	if name == resolve(p.name) || p.name == ns {
		return name, ""
	}
	return "", fmt.Sprintf("the message is addressed to %s", p.name)
}

// resolve gives the tool a name addresses: the template offers the model
// the recipients NS.* for a tool whose name starts with NS (read.* for
// read, muse.* for muse.bash), so NS.F names F when F's own namespace is
// NS (read.read is read, tools.tools.run is tools.run), as Ollama resolves
// it; any other name is itself.
func resolve(n string) string {
	if ns, f, ok := strings.Cut(n, "."); ok {
		if own, _, _ := strings.Cut(f, "."); own == ns {
			return f
		}
	}
	return n
}

// textBody handles the body of a message to self or to the user.
func (p *parser) textBody(data []byte, eof bool) int {
	if n := p.TextBefore(p.text, data, '<'); n > 0 || len(data) == 0 {
		p.noted(data[:n])
		return n
	}
	off := p.Offset()
	m, h, wait := ender(data, eof)
	switch {
	case h > 0: // the next message: this one's end marker is missing
		return p.opens(data, h)
	case m != "":
		if p.implicit {
			// The end of the reasoning the prompt opened: reasoning may
			// name another format's end marker, so this one is evidence
			// once Glimmer's next own token confirms it.
			p.Shared(off)
		} else {
			p.marker(off, data)
		}
		p.EndRunAt(off + int64(len(m)))
		if !p.hasText {
			// Nothing in it gives an event: the next event takes its bytes
			// into its span (alone, they are an unterminated message).
			p.carry = p.msgStart
			p.BeginRun(syntax.Respond, p.msgStart)
		}
		p.state = stText
		return len(m)
	case wait:
		return 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { m, h, wait := ender(rest, eof); return m != "" || h > 0 || wait })
	p.Text(p.text, data[:n], off)
	p.noted(data[:n])
	return n
}

func (p *parser) noted(b []byte) { p.hasText = p.hasText || len(jsonscan.TrimSpace(b)) > 0 }

// lead handles a call's body up to its ATEM block: white space, then
// <atem:function_calls>; anything else makes the message an error.
func (p *parser) lead(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		p.Keep(&p.blk, data[:i])
		return i
	}
	full, partial := scan.MatchPrefix(data, callsOpen)
	switch {
	case full:
		p.marker(p.msgStart, data)
		p.calls.Open(callsOpen, "", p.msgPos)
		p.state = stCalls
		return len(callsOpen)
	case partial && !eof:
		return 0
	case partial: // cut off inside the opener: finish says so
		p.Keep(&p.blk, data)
		return len(data)
	}
	p.problem, p.code = "its body is not an "+callsOpen+" block", syntax.CodeMalformed
	p.state = stRaw
	return scan.Again
}

// after handles what follows a call's ATEM block: white space, then the
// end marker or the next message; other text is the answer's.
func (p *parser) after(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		return i
	}
	off := p.Offset()
	m, h, wait := ender(data, eof)
	switch {
	case h > 0:
		return p.opens(data, h)
	case m != "":
		p.marker(off, data)
		p.ended(off + int64(len(m)))
		p.state = stText
		return len(m)
	case wait:
		return 0
	}
	p.kind, p.text, p.state, p.hasText = kindText, syntax.Respond, stText2, false
	p.BeginRun(syntax.Respond, off)
	return scan.Again
}

// raw keeps a body up to its end marker (consumed) or the next message.
func (p *parser) raw(data []byte, eof bool) int {
	used := 0
	for used < len(data) {
		j := bytes.IndexByte(data[used:], '<')
		if j < 0 {
			p.Keep(&p.blk, data[used:])
			return len(data)
		}
		p.Keep(&p.blk, data[used:used+j])
		used += j
		m, h, wait := ender(data[used:], eof)
		switch {
		case h > 0:
			p.endRaw(p.Offset()+int64(used), false)
			return max(used, scan.Again)
		case m != "":
			p.marker(p.Offset()+int64(used), data[used:])
			p.Keep(&p.blk, data[used:used+len(m)])
			used += len(m)
			p.endRaw(p.Offset()+int64(used), false)
			return used
		case wait:
			return used
		}
		p.Keep(&p.blk, data[used:used+1])
		used++
	}
	return used
}

// endRaw ends a body kept whole at end; eof says the input ended in it.
func (p *parser) endRaw(end int64, eof bool) {
	p.state = stText
	span := syntax.Span{Start: p.msgStart, End: end}
	raw := p.message()
	switch {
	case p.blk.Over:
		p.Errorf(syntax.CodeOverLimit, p.msgPos, span, nil, "message body longer than the limit of %d bytes", p.Options().BlockLimit())
	case p.problem != "" && p.kind == kindSkip:
		p.Errorf(p.code, p.msgPos, span, raw, "%s", p.problem)
	case p.problem != "":
		p.Errorf(p.code, p.msgPos, span, raw, "message %s: %s", p.describe(), p.problem)
	case eof:
		p.Errorf(syntax.CodeTruncated, p.msgPos, span, raw, "unterminated message %s: the stream ended inside it", p.describe())
	default:
		body := p.blk.Bytes
		for _, m := range closers {
			body = bytes.TrimSuffix(body, []byte(m))
		}
		p.Emit(syntax.Event{Type: syntax.Result, Tool: p.name, Status: syntax.Success, Value: params.Quote(nil, output(body)), Span: span})
	}
}

// output is a tool message's text: its body, without the
// <tool_output name="…"> element the template wraps it in.
func output(body []byte) []byte {
	b := jsonscan.TrimSpace(body)
	if !bytes.HasPrefix(b, []byte(outputOpen)) || !bytes.HasSuffix(b, []byte(outputEnd)) {
		return b
	}
	i := bytes.IndexByte(b, '>')
	if i < 0 || i >= len(b)-len(outputEnd) {
		return b
	}
	b = b[i+1 : len(b)-len(outputEnd)]
	b = bytes.TrimPrefix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\n"))
}

// message is the text of the message kept whole (an error's raw): its
// header and body, or nil when the body went over the limit.
func (p *parser) message() []byte {
	if p.blk.Over {
		return nil
	}
	return append(bytes.Clone(bytes.TrimLeft(p.hdr, " \t\r\n")), p.blk.Bytes...)
}

func (p *parser) describe() string {
	switch p.kind {
	case kindCall:
		return "to " + p.name
	case kindResult:
		return "from tool " + p.name
	}
	return ""
}

// finish reports what the end of the input left open.
func (p *parser) finish(end int64) {
	switch p.state {
	case stText2:
		p.EndRun()
		if p.text == syntax.Think && p.hasText {
			p.Errorf(syntax.CodeTruncated, p.msgPos, syntax.Span{Start: p.msgStart, End: end}, nil,
				"unterminated reasoning: the stream ended before %s", eomTag)
		}
	case stLead:
		p.Errorf(syntax.CodeTruncated, p.msgPos, syntax.Span{Start: p.msgStart, End: end}, p.message(),
			"unterminated message %s: the stream ended before its %s block", p.describe(), callsOpen)
	case stCalls:
		p.calls.Finish(end)
	case stRaw:
		p.endRaw(end, true)
	}
	p.batch.Execute(&p.Core, end)
}
