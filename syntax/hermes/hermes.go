package hermes

import (
	"bytes"
	"fmt"

	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the hermes syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "hermes",
	Aliases:     []string{"qwen", "qwen3"},
	Description: `<tool_call>{"name": …, "arguments": {…}}</tool_call> (Hermes, Qwen2.5/Qwen3, Granite 4), <think>, <tool_response>`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"*hermes-2*", "*hermes-3*", "*hermes-4*", "hermes2*", "hermes3*", "*openhermes*", "qwen3*", "qwen2.5*", "qwen2-*", "qwq*", "granite-4*", "granite4*", "mimo-vl*", "smollm3*", "bielik*", "rnj-1*", "cogito*qwen*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_call>"}, Any: []string{"\"name\"", "\\\"name\\\"", "\"arguments\"", "\\\"arguments\\\""}, None: []string{"<arg_key>", "<function="}},
	},
}

const promptRules = `For each function call, return a JSON object with the function name and its arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>
- The object is strict JSON: quote every key and string, escape quotes as \" and newlines as \n. Text such as </tool_call> inside a JSON string is safe.
- You may call one or more functions: write one <tool_call> block per call, one after the other, then stop. The calls are run together once your message ends.
- Each result comes back, in the order of the calls, inside <tool_response></tool_response> tags.
- Text outside the tags is your answer to the user. You may think first inside <think></think>.`

// The markers, exact and lower case.
const (
	openThink  = "<think>"
	closeThink = "</think>"
	openCall   = "<tool_call>"
	closeCall  = "</tool_call>"
	openResp   = "<tool_response>"
	closeResp  = "</tool_response>"
)

// textMarkers are the markers of respond text; openMarkers those of
// reasoning whose opener was in the prompt (Options.ThinkOpen).
var (
	textMarkers = []string{openThink, openCall, openResp}
	openMarkers = []string{closeThink, openCall}
)

// The keys of a call object, as token mode streams it. Hermes calls have no
// id.
var streamKeys = jsoncall.Keys{Name: "name", Args: "arguments"}

// Events complete only at '>' (every marker) or at the '{' that opens a
// call (it ends the text run before it); right after a call's JSON, at any
// byte (see blockBytes).
var wakeSet = scan.Bytes(">{")

type state uint8

const (
	inText      state = iota
	inOpenThink       // reasoning opened by the prompt (Options.ThinkOpen)
	inThink           // inside an explicit <think>
	afterOpen         // after <tool_call>: a call only if '{' comes next
	inCall            // inside a call block
	inResponse        // inside <tool_response>
)

// Call block phases.
const (
	phaseJSON   = iota // scanning the JSON object
	phaseAfter         // the object is complete; white space, then </tool_call>
	phaseSearch        // the JSON is broken; the next literal </tool_call> ends the block
)

type parser struct {
	scan.Core
	state state
	from  state // afterOpen: the state the <tool_call> tag stood in (inText or inOpenThink)

	thought bool // the open reasoning holds text other than white space

	thinkStart syntax.Pos

	// The open block (<tool_call> or <tool_response>).
	openAt      int64
	blockStart  syntax.Pos
	openSpace   []byte // after <tool_call>, the white space before the block is decided
	blk         scan.Block
	phase       int
	jsonEnd     int
	problemAt   int64
	problemCode syntax.Code
	problem     string
	js          jsonscan.JSON
	args        jsoncall.ArgStream

	// The batch: the calls of the message, until a result or the end.
	unexecuted int      // valid calls no execute followed yet
	batch      []string // the names of the calls of the last batch
	answered   int      // results read since that batch was executed
	executed   bool     // the batch was executed: the next call starts a new one
	blocks     int      // call blocks opened since the last execute
}

// newParser returns a hermes parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.WakeOn(wakeSet)
	p.args = jsoncall.ArgStream{Depth: 0, Keys: streamKeys, Emit: p.Emit, JSON: &p.js}
	if opts.ThinkOpen {
		p.state = inOpenThink
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case inOpenThink:
		return p.openThinkText(data, eof)
	case inThink:
		n, closed := p.Inside(syntax.Think, data, eof, closeThink)
		if closed {
			p.state = inText
		} else {
			p.sawThought(data[:n])
		}
		return n
	case afterOpen:
		return p.afterOpenTag(data, eof)
	case inCall:
		return p.blockBytes(data, p.Offset(), eof)
	case inResponse:
		return p.responseBytes(data, eof)
	}
	return p.text(data, eof)
}

// text handles respond text and its markers.
func (p *parser) text(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 {
		return n
	}
	off := p.Offset()
	wait := false
	for _, m := range textMarkers {
		full, partial := scan.MatchPrefix(data, m)
		if full {
			p.openMarker(m, off)
			return len(m)
		}
		wait = wait || partial && !eof
	}
	if wait {
		return 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { return startsMarker(rest, textMarkers, eof) })
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// openThinkText handles reasoning opened by the prompt: it ends at the first
// </think>, or at a <tool_call> that opens a call. A <think> before anything
// but white space is the opener restated, and is passed over.
func (p *parser) openThinkText(data []byte, eof bool) int {
	off := p.Offset()
	if n, wait := p.Restated(syntax.Think, data, eof, openThink); n > 0 || wait {
		return n // the opener restated by the model (or white space before it)
	}
	if n := p.TextBefore(syntax.Think, data, '<'); n > 0 {
		p.sawThought(data[:n])
		return n
	}
	wait := false
	for _, m := range openMarkers {
		full, partial := scan.MatchPrefix(data, m)
		if full {
			if m == closeThink {
				p.EndRunAt(off + int64(len(closeThink)))
				p.state = inText
			} else {
				p.openMarker(m, off)
			}
			return len(m)
		}
		wait = wait || partial && !eof
	}
	if wait {
		return 0
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { return startsMarker(rest, openMarkers, eof) })
	p.Text(syntax.Think, data[:n], off)
	p.sawThought(data[:n])
	return n
}

// sawThought notes reasoning text that is not only white space.
func (p *parser) sawThought(text []byte) {
	if !p.thought && len(jsonscan.TrimSpace(text)) > 0 {
		p.thought = true
	}
}

// startsMarker reports whether data, which starts with '<', is or may
// become one of the markers.
func startsMarker(data []byte, markers []string, eof bool) bool {
	for _, m := range markers {
		if full, partial := scan.MatchPrefix(data, m); full || partial && !eof {
			return true
		}
	}
	return false
}

func (p *parser) openMarker(m string, off int64) {
	switch m {
	case openThink:
		p.BeginRun(syntax.Think, off)
		p.thinkStart, p.thought = p.Pos(), false
		p.state = inThink
	case openCall:
		p.from = p.state
		p.openAt = off
		p.blockStart = p.Pos()
		p.openSpace = p.openSpace[:0]
		p.state = afterOpen
	case openResp:
		p.EndRun()
		p.execute(off)
		p.openAt = off
		p.blockStart = p.Pos()
		p.blk.Reset()
		p.state = inResponse
	}
}

// runType is the type of the text run a <tool_call> tag that opens no call
// belongs to.
func (p *parser) runType() syntax.Type {
	if p.from == inOpenThink {
		return syntax.Think
	}
	return syntax.Respond
}

// afterOpenTag decides what a <tool_call> tag is: it opens a call when the
// first byte after it that is not white space is '{'; otherwise the tag and
// the white space after it are text. White space then the end of the input
// is a truncated call.
func (p *parser) afterOpenTag(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if len(p.openSpace)+i > p.Options().BlockLimit() {
		p.Text(p.runType(), append([]byte(openCall), p.openSpace...), p.openAt)
		p.state = p.from
		return scan.Again
	}
	p.openSpace = append(p.openSpace, data[:i]...)
	if i == len(data) {
		if eof {
			span := syntax.Span{Start: p.openAt, End: p.Offset() + int64(i)}
			p.Errorf(syntax.CodeTruncated, p.blockStart, span, []byte(openCall),
				"unterminated %s: the stream ended before the call's JSON", openCall)
			p.state = inText
		}
		return len(data)
	}
	if data[i] == '{' {
		p.openBlock()
	} else {
		// Prose that mentions the tag: the tag and the white space are text.
		p.Text(p.runType(), append([]byte(openCall), p.openSpace...), p.openAt)
		p.state = p.from
	}
	if i == 0 {
		return scan.Again
	}
	return i
}

// openBlock starts a call block, its JSON about to begin. It ends the text
// run before it (reasoning opened by the prompt ends here).
func (p *parser) openBlock() {
	p.EndRun()
	p.blk.Reset()
	p.phase = phaseJSON
	p.problem = ""
	p.js.Reset(p.Options().DepthLimit())
	p.args.Reset()
	p.args.SetIndex(p.blocks) // each block is a stream of its own to the streamer
	p.blocks++
	p.state = inCall
	p.blockBytes(p.openSpace, p.openAt+int64(len(openCall)), false)
}

// blockBytes handles the inside of a call block: data, which stands at
// offset off of the input.
func (p *parser) blockBytes(data []byte, off int64, eof bool) int {
	used := 0
	for used < len(data) {
		rest := data[used:]
		switch p.phase {
		case phaseJSON:
			var n int
			rest = p.blk.Fit(rest, p.Options().BlockLimit()) // deltas never run past the limit
			if p.Options().Mode == syntax.TokenMode {
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
				p.WakeOn(nil) // a byte other than the close tag ends the block at once
			case p.js.Err() != nil:
				p.setProblem(p.js.Err().Code(), p.blk.Len, "invalid JSON: "+p.js.Err().Msg())
				p.phase = phaseSearch
			}
		case phaseAfter:
			i := jsonscan.SkipSpace(rest, 0)
			p.Keep(&p.blk, rest[:i])
			used += i
			if i == len(rest) {
				break
			}
			full, partial := scan.MatchPrefix(rest[i:], closeCall)
			switch {
			case full:
				p.Keep(&p.blk, rest[i:i+len(closeCall)])
				used += len(closeCall)
				p.finishBlock(true)
				return used
			case partial && !eof:
				return used
			case partial: // the close tag cut off by the end of the input
				p.Keep(&p.blk, rest[i:])
				return len(data)
			}
			// Something else follows the object: the call has no close
			// tag. It is an error, and what follows is read afresh.
			p.setProblem(syntax.CodeMalformed, p.blk.Len, "the call's JSON is not followed by "+closeCall)
			p.finishBlock(true)
			if used == 0 {
				return scan.Again
			}
			return used
		case phaseSearch:
			if i := bytes.Index(rest, []byte(closeCall)); i >= 0 {
				n := i + len(closeCall)
				p.Keep(&p.blk, rest[:n])
				used += n
				p.finishBlock(true)
				return used
			}
			n := len(rest)
			if !eof {
				n -= scan.PartialSuffix(rest, closeCall)
			}
			p.Keep(&p.blk, rest[:n])
			used += n
			if n < len(rest) {
				return used
			}
		}
	}
	return used
}

func (p *parser) setProblem(code syntax.Code, at int64, msg string) {
	if p.problem == "" {
		p.problem, p.problemAt, p.problemCode = msg, at, code
	}
}

// contentPos is the position of the first byte after the open tag.
func (p *parser) contentPos(tag string) syntax.Pos { return scan.Advance(p.blockStart, []byte(tag)) }

// posIn returns the position of offset k within the block's content.
func (p *parser) posIn(k int64) syntax.Pos {
	k = min(k, int64(len(p.blk.Bytes)))
	return scan.Advance(p.contentPos(openCall), p.blk.Bytes[:k])
}

// finishBlock ends a call block: ended says whether it ended before the end
// of the input (at its close tag, or at what stood in its place).
func (p *parser) finishBlock(ended bool) {
	p.state = inText
	p.WakeOn(wakeSet)
	span := syntax.Span{Start: p.openAt, End: p.contentPos(openCall).Offset + p.blk.Len}
	raw := func() []byte {
		if p.blk.Over {
			return nil
		}
		return append([]byte(openCall), p.blk.Bytes...)
	}
	switch {
	case p.blk.Over:
		msg := fmt.Sprintf("%s block longer than the limit of %d bytes", openCall, p.Options().BlockLimit())
		if !ended {
			msg += " and unterminated"
		}
		p.Errorf(syntax.CodeOverLimit, p.blockStart, span, nil, "%s", msg)
		return
	case !ended:
		p.Errorf(syntax.CodeTruncated, p.blockStart, span, raw(), "unterminated %s: the stream ended before %s", openCall, closeCall)
		return
	case p.problem != "":
		p.Errorf(p.problemCode, p.blockStart, span, raw(), "%s block at %s: %s", openCall, p.posIn(p.problemAt), p.problem)
		return
	}
	name, args, problem := readCall(p.blk.Bytes[:p.jsonEnd], p.Options().DepthLimit())
	if problem != "" {
		at := jsonscan.SkipSpace(p.blk.Bytes, 0)
		p.Errorf(syntax.CodeMalformed, p.blockStart, span, raw(), "%s block at %s: the call %s", openCall, p.posIn(int64(at)), problem)
		return
	}
	if p.executed {
		p.batch, p.answered, p.executed = p.batch[:0], 0, false
	}
	p.batch = append(p.batch, name)
	p.unexecuted++
	p.Emit(syntax.Event{Type: syntax.Call, Name: name, Args: args, Pos: p.blockStart, Span: span})
}

// readCall reads a call object: "name" a non-empty string; "arguments" an
// object, a string holding one (decoded once), or absent, null or "" for
// {}; "parameters" in its place when it is absent. Other keys are ignored;
// a key given twice counts the first time.
func readCall(obj []byte, depth int) (name string, args []byte, problem string) {
	var haveName, nameOK bool
	var rawArgs, rawParams []byte
	jsonscan.MembersRaw(obj, func(kb, v []byte) bool {
		k := string(kb) // only compared: no allocation
		switch {
		case k == "name" && !haveName:
			haveName = true
			name, nameOK = jsonscan.Unquote(v)
		case k == "arguments" && rawArgs == nil:
			rawArgs = v
		case k == "parameters" && rawParams == nil:
			rawParams = v
		}
		return true
	})
	switch {
	case !haveName:
		return "", nil, `has no "name"`
	case !nameOK:
		return "", nil, `has a "name" that is not a string`
	case name == "":
		return "", nil, `has an empty "name"`
	}
	key := "arguments"
	if rawArgs == nil && rawParams != nil {
		rawArgs, key = rawParams, "parameters"
	}
	args, k, ok := jsoncall.Args(rawArgs, depth)
	switch {
	case ok:
		return name, args, ""
	case k == '"':
		return name, nil, fmt.Sprintf("%s has %q that is a string holding no JSON object", quoteName(name), key)
	default:
		return name, nil, fmt.Sprintf("%s has %q that is %s, not an object", quoteName(name), key, jsonscan.KindName(k))
	}
}

func quoteName(name string) string { return string(syntax.AppendQuote(nil, name)) }

// execute ends the message's batch, if it has calls no execute followed:
// at a <tool_response> (at) or at the end of the input.
func (p *parser) execute(at int64) {
	if p.unexecuted == 0 {
		return
	}
	p.unexecuted, p.blocks = 0, 0
	p.executed = true
	p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: at, End: at}})
}

// responseBytes handles the inside of <tool_response>: everything up to
// the literal </tool_response>.
func (p *parser) responseBytes(data []byte, eof bool) int {
	if i := bytes.Index(data, []byte(closeResp)); i >= 0 {
		n := i + len(closeResp)
		p.Keep(&p.blk, data[:n])
		p.finishResponse(true)
		return n
	}
	n := len(data)
	if !eof {
		n -= scan.PartialSuffix(data, closeResp)
	}
	p.Keep(&p.blk, data[:n])
	return n
}

// finishResponse ends a <tool_response> block: a result for the call at
// its place in the last batch, its content the JSON value the block holds,
// or else its text as a string.
func (p *parser) finishResponse(closed bool) {
	p.state = inText
	span := syntax.Span{Start: p.openAt, End: p.contentPos(openResp).Offset + p.blk.Len}
	switch {
	case p.blk.Over:
		msg := fmt.Sprintf("%s block longer than the limit of %d bytes", openResp, p.Options().BlockLimit())
		if !closed {
			msg += " and unterminated"
		}
		p.Errorf(syntax.CodeOverLimit, p.blockStart, span, nil, "%s", msg)
		return
	case !closed:
		raw := append([]byte(openResp), p.blk.Bytes...)
		p.Errorf(syntax.CodeTruncated, p.blockStart, span, raw, "unterminated %s: the stream ended before %s", openResp, closeResp)
		return
	}
	inner := jsonscan.TrimSpace(p.blk.Bytes[:len(p.blk.Bytes)-len(closeResp)])
	var value []byte
	if _, ok := jsonscan.Whole(inner, p.Options().DepthLimit()); ok {
		value = jsonscan.Compact(inner)
	} else {
		value = params.Quote(nil, inner)
	}
	tool := ""
	if p.answered < len(p.batch) {
		tool = p.batch[p.answered]
	}
	p.answered++
	p.Emit(syntax.Event{Type: syntax.Result, Tool: tool, Status: syntax.Success, Value: value, Span: span})
}

// finish reports what the end of the stream left open, then executes the
// last batch.
func (p *parser) finish(end int64) {
	switch p.state {
	case inOpenThink, inThink:
		p.EndRun()
		// An explicit <think> always says so (its bytes are in the error);
		// reasoning the prompt opened, only when it holds text.
		if p.state == inThink || p.thought {
			p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
				"unterminated reasoning: the stream ended before %s", closeThink)
		}
	case afterOpen:
		p.afterOpenTag(nil, true)
	case inCall:
		p.finishBlock(false)
	case inResponse:
		p.finishResponse(false)
	}
	p.EndRun()
	p.execute(end)
}
