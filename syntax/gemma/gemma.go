package gemma

import (
	"bytes"
	"fmt"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the gemma syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "gemma",
	Aliases:     []string{"gemma4"},
	Description: `Gemma 4: <|channel>thought…<channel|>, <|tool_call>call:NAME{key:<|"|>text<|"|>,n:5}<tool_call|>; FunctionGemma's <start_function_call> and <escape>`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Variants: []syntax.Variant{
		{Name: "functiongemma", Description: "FunctionGemma: <start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>", Render: newRendererFunctionGemma,
			Prompt: promptFunctionGemma, Models: []string{"*functiongemma*"}},
	},
	Prompt: promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"gemma-4*", "gemma4*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"<|tool_call>", "<tool_call|>"}},
		{Any: []string{"<start_function_call>", "<end_function_call>"}},
	},
}

const promptRules = `To call a tool, write <|tool_call>call:NAME{...}<tool_call|> and stop; several calls may follow one another.
- The arguments are an object with bare keys: {location:<|"|>Paris<|"|>,days:3,metric:true}.
- Write every string between <|"|> and <|"|>, as it is: no escapes.
- Numbers, true, false, null, nested {...} objects and [...] arrays are written as in JSON.
- A tool without arguments takes {}.
- Results come back as <|tool_response>response:NAME{value:...}<tool_response|>.
- Text outside these markers is your answer to the user.`

const promptFunctionGemma = `To call a function, write <start_function_call>call:NAME{...}<end_function_call> and stop; several calls may follow one another.
- The arguments are an object with bare keys: {location:<escape>Paris<escape>,days:3,metric:true}.
- Write every string between <escape> and <escape>, as it is: no escapes.
- Numbers, true, false, null, nested {...} objects and [...] arrays are written as in JSON.
- A function without arguments takes {}.
- Results come back as <start_function_response>response:NAME{value:...}<end_function_response>.
- Text outside these markers is your answer to the user.`

// The reasoning markers, special tokens of Gemma 4's vocabulary.
const (
	channelOpen  = "<|channel>"
	channelClose = "<channel|>"
	thoughtName  = "thought\n"
	emptyThought = "thought" + channelClose // <|channel>thought<channel|>: no thought
	nextCall     = "call:"                  // another call in the same block
)

// A dialect is the markers of one member of the family around the same
// call body: Gemma 4's special tokens, or FunctionGemma's. A block is read
// in the dialect of its opener.
type dialect struct {
	callOpen, callClose string // around a call: call:NAME{…}
	respOpen, respClose string // around a tool response: response:NAME{…}
	turnEnd             string // the end of the model's turn, which may end a call
	str                 string // opens and closes a raw string
	strBytes            []byte
	callClosers         []string // what ends a call block
	respClosers         []string // what ends a response block
}

func newDialect(callOpen, callClose, respOpen, respClose, turnEnd, str string) *dialect {
	return &dialect{callOpen: callOpen, callClose: callClose, respOpen: respOpen, respClose: respClose, turnEnd: turnEnd,
		str: str, strBytes: []byte(str), callClosers: []string{callClose, turnEnd}, respClosers: []string{respClose}}
}

var (
	// gemma4 is Gemma 4's: <|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>.
	gemma4 = newDialect("<|tool_call>", "<tool_call|>", "<|tool_response>", "<tool_response|>", "<turn|>", `<|"|>`)
	// functionGemma is FunctionGemma's (Gemma 3 270M's tool tuning):
	// <start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>.
	functionGemma = newDialect("<start_function_call>", "<end_function_call>", "<start_function_response>", "<end_function_response>", "<end_of_turn>", "<escape>")
	dialects      = [...]*dialect{gemma4, functionGemma}
)

// opened tells what a text marker m opens: a block of dialect d (a
// response when result is set), or nothing (d is nil).
func opened(m string) (d *dialect, result bool) {
	for _, d := range dialects {
		switch m {
		case d.callOpen:
			return d, false
		case d.respOpen:
			return d, true
		}
	}
	return nil, false
}

// callOpener matches a call opener of any dialect at the start of data.
func callOpener(data []byte) (m string, partial bool) {
	for _, d := range dialects {
		full, part := scan.MatchPrefix(data, d.callOpen)
		if full {
			return d.callOpen, false
		}
		partial = partial || part
	}
	return "", partial
}

// overWindow is how much of a value over the limit is read at a time.
const overWindow = 64 << 10

// textMarkers are the markers read outside blocks. The closers there are
// strays (a second <tool_call|>, the end of turn): no event.
var textMarkers = func() []string {
	ms := []string{channelOpen}
	for _, d := range dialects {
		ms = append(ms, d.callOpen, d.respOpen, d.callClose, d.respClose, d.turnEnd)
	}
	return ms
}()

var wakeSet = scan.Bytes("<")

type state uint8

const (
	stText state = iota
	stThinkName
	stThink
	stBlock
)

type phase uint8

const (
	phName   phase = iota // the name, up to '{'
	phValue               // the argument object
	phAfter               // white space, then the closer
	phSearch              // broken: up to the next closer
)

// nameLimit bounds a call's name.
const nameLimit = 256

// startLimit bounds the white space looked at after <|tool_call> or
// <|tool_response> for call: or response:.
const startLimit = 64

type parser struct {
	scan.Core
	state     state
	thinkOpen bool // in the reasoning the prompt opened

	thinkStart syntax.Pos

	// The open block.
	d           *dialect // the dialect of its opener
	result      bool     // a tool response, not a call
	blockStart  syntax.Pos
	blk         scan.Block
	phase       phase
	name        []byte
	v           value
	problem     string
	problemCode syntax.Code

	// Token mode.
	streaming bool
	sent      int   // bytes of v.out sent as deltas
	outFrom   int64 // where the source of v.out[sent:] starts
	index     int
	announced int

	// The block's calls before its last (several call: bodies in one
	// block), each complete; emitted with the last when the block closes.
	calls     []syntax.Event
	callStart int64 // where the block's current call starts

	pending int // valid calls since the last execute
	// The markers after the batch's calls that belong to its execute, from
	// the first one's start to the last one's end (-1: none).
	termFrom, termTo int64
}

// newParser returns a gemma parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{termFrom: -1, d: gemma4}
	p.Init(h, opts, p.step, p.finish)
	p.WakeOn(wakeSet)
	if opts.ThinkOpen {
		p.state, p.thinkOpen = stThink, true
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case stThinkName:
		full, partial := scan.MatchPrefix(data, thoughtName)
		empty, emptyPartial := scan.MatchPrefix(data, emptyThought)
		switch {
		case full:
			p.state = stThink
			return len(thoughtName)
		case empty:
			// An empty thought channel: the word is the channel's name,
			// not its text.
			p.state = stThink
			return len(emptyThought) - len(channelClose)
		case (partial || emptyPartial) && !eof:
			return 0
		}
		p.state = stThink
		return scan.Again
	case stThink:
		return p.think(data, eof)
	case stBlock:
		return p.block(data, eof)
	}
	return p.text(data, eof)
}

type startVerdict uint8

const (
	startUndecided startVerdict = iota
	startBlock
	startText
)

// blockStart looks at what follows <|tool_call> (word "call:") or
// <|tool_response> (word "response:"): white space, for a call a stray ':'
// (vLLM's "<|tool_call>:call:"), then the word. It returns the bytes up to
// the end of the word.
func blockStart(rest []byte, word string, eof bool) (int, startVerdict) {
	if len(rest) > startLimit {
		rest, eof = rest[:startLimit], true
	}
	i := jsonscan.SkipSpace(rest, 0)
	if word == "call:" && i < len(rest) && rest[i] == ':' {
		i = jsonscan.SkipSpace(rest, i+1)
	}
	full, partial := scan.MatchPrefix(rest[i:], word)
	switch {
	case full:
		return i + len(word), startBlock
	case partial && !eof:
		return 0, startUndecided
	}
	return 0, startText
}

// text handles input outside blocks: respond text and the markers.
func (p *parser) text(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 {
		return n
	}
	off := p.Offset()
	m, partial := scan.MatchAny(data, eof, textMarkers)
	switch m {
	case channelOpen:
		p.BeginRun(syntax.Think, off)
		p.Evident(off) // Gemma's own token
		p.thinkStart = p.Pos()
		p.state = stThinkName
		return len(m)
	case "":
		if partial {
			return 0
		}
	default:
		d, result := opened(m)
		if d == nil { // a stray closer
			return p.afterCalls(data[:len(m)], off)
		}
		word := "call:"
		if result {
			word = "response:"
			p.Evident(off) // a result opener is Gemma's by itself
		}
		k, v := blockStart(data[len(m):], word, eof)
		switch {
		case v == startUndecided:
			return 0
		case v == startBlock:
			p.Evident(off)
			p.openBlock(d, result, data[:len(m)+k])
			return len(m) + k
		case result:
			return p.afterCalls(data[:len(m)], off)
		}
		p.Text(syntax.Respond, data[:len(m)], off)
		return len(m)
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool { m, part := scan.MatchAny(rest, eof, textMarkers); return m != "" || part })
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// afterCalls handles a bare <|tool_response> (the model's signal that it
// waits for the results) or a stray closer (a second <tool_call|>, <turn|>)
// at off: after calls it belongs to their execute, whose span covers it;
// elsewhere it is text.
func (p *parser) afterCalls(m []byte, off int64) int {
	if p.pending == 0 {
		p.Text(syntax.Respond, m, off)
		return len(m)
	}
	p.EndRun()
	if p.termFrom < 0 {
		p.termFrom = off
	}
	p.termTo = off + int64(len(m))
	return len(m)
}

// think handles reasoning: only <channel|> ends it, or, in the reasoning
// the prompt opened, a call.
func (p *parser) think(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Think, data, '<'); n > 0 {
		return n
	}
	off := p.Offset()
	full, partial := scan.MatchPrefix(data, channelClose)
	switch {
	case full:
		p.EndRunAt(off + int64(len(channelClose)))
		p.Evident(off) // with ThinkOpen, the reasoning's end is the first evidence
		p.state, p.thinkOpen = stText, false
		return len(channelClose)
	case partial && !eof:
		return 0
	}
	if p.thinkOpen {
		if m, partial := callOpener(data); m != "" {
			_, v := blockStart(data[len(m):], "call:", eof)
			switch v {
			case startUndecided:
				return 0
			case startBlock:
				p.EndRun()
				p.state, p.thinkOpen = stText, false
				return scan.Again
			}
		} else if partial && !eof {
			return 0
		}
	}
	n := scan.TextUntil(data, '<', func(rest []byte) bool {
		full, partial := scan.MatchPrefix(rest, channelClose)
		if full || partial && !eof {
			return true
		}
		m, partial := callOpener(rest)
		return p.thinkOpen && (m != "" || partial && !eof)
	})
	p.Text(syntax.Think, data[:n], off)
	return n
}

func (p *parser) openBlock(d *dialect, result bool, opener []byte) {
	p.EndRun()
	p.d, p.result = d, result
	p.blockStart = p.Pos()
	p.callStart, p.calls = p.blockStart.Offset, p.calls[:0]
	p.blk.Reset()
	p.Keep(&p.blk, opener)
	p.phase = phName
	p.name = p.name[:0]
	p.problem = ""
	p.streaming = false
	p.state = stBlock
	if result {
		p.endBatch(p.blockStart.Offset)
	}
}

func (p *parser) closers() []string {
	if p.result {
		return p.d.respClosers
	}
	return p.d.callClosers
}

func (p *parser) setProblem(code syntax.Code, msg string) {
	if p.problem == "" {
		p.problem, p.problemCode = msg, code
	}
	p.phase = phSearch
}

// block handles the inside of a call or a tool response.
func (p *parser) block(data []byte, eof bool) int {
	off := p.Offset()
	used := 0
	for used < len(data) {
		rest := data[used:]
		switch p.phase {
		case phName:
			i := 0
			for i < len(rest) && isKeyByte(rest[i]) && rest[i] != '{' {
				i++
			}
			if len(p.name)+i > nameLimit {
				p.setProblem(syntax.CodeMalformed, fmt.Sprintf("a name longer than %d bytes", nameLimit))
				continue
			}
			p.name = append(p.name, rest[:i]...)
			p.Keep(&p.blk, rest[:i])
			used += i
			if i == len(rest) {
				break
			}
			if rest[i] != '{' || len(p.name) == 0 {
				p.setProblem(syntax.CodeMalformed, "the name must be followed by '{'")
				continue
			}
			p.v.reset(p.Options().DepthLimit(), p.closers(), p.d)
			p.phase = phValue
			p.sent, p.outFrom = 0, off+int64(used)
			if !p.result && p.Options().Mode == syntax.TokenMode {
				p.streaming, p.index = true, p.announced
				p.announced++
				p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: string(p.name), Index: p.index,
					Span: syntax.Span{Start: p.blockStart.Offset, End: off + int64(used)}})
			}
		case phValue:
			before := p.v.st
			// The value is read no further than the limit: past it the
			// block is an error, and the JSON built from it is dropped.
			// Over it, the value is read a window at a time (only to find
			// its end), so that what is built and dropped stays small. A
			// marker the window cuts is read whole by the next: the value
			// stops at its '<' (the window is longer than any marker).
			in := p.blk.Fit(rest, p.Options().BlockLimit())
			if p.blk.Over && len(in) > overWindow {
				in = in[:overWindow]
			}
			p.v.at = off + int64(used)
			n := p.v.step(in, eof && len(in) == len(rest))
			if n == 0 && len(in) < len(rest) && !p.blk.Over && p.v.st == before && p.v.problem == "" {
				// A marker cut by the limit: keeping it takes the block over.
				p.blk.Drop()
				continue
			}
			p.Keep(&p.blk, in[:n])
			used += n
			if p.blk.Over {
				// The block will be an error: its arguments are not kept
				// (the value is still read, to find where it ends).
				p.v.out, p.v.tmp, p.sent, p.streaming = p.v.out[:0], p.v.tmp[:0], 0, false
			}
			if p.streaming {
				p.flushArgs(off + int64(used))
			}
			switch {
			case p.v.problem != "":
				code := syntax.CodeMalformed
				if p.v.over {
					code = syntax.CodeOverLimit
				}
				p.setProblem(code, "the arguments: "+p.v.problem)
			case p.v.st == vsDone:
				p.phase = phAfter
			case n == 0 && p.v.st == before:
				if eof { // cannot happen: at the end every byte is read
					p.setProblem(syntax.CodeMalformed, "the arguments are cut off")
					continue
				}
				return used // more input is needed
			}
		case phAfter:
			i := jsonscan.SkipSpace(rest, 0)
			p.Keep(&p.blk, rest[:i])
			used += i
			if i == len(rest) {
				break
			}
			m, partial := scan.MatchAny(rest[i:], eof, p.closers())
			if m != "" {
				p.Keep(&p.blk, []byte(m))
				used += len(m)
				p.finishBlock(true)
				return used
			}
			if partial {
				return used
			}
			if full, part := scan.MatchPrefix(rest[i:], nextCall); full && !p.result {
				// Another call in the block: this one is complete.
				p.calls = append(p.calls, syntax.Event{Type: syntax.Call, Name: string(p.name), Args: p.v.out,
					Span: syntax.Span{Start: p.callStart, End: off + int64(used)}})
				p.v.out, p.name = nil, p.name[:0]
				p.callStart = off + int64(used)
				p.Keep(&p.blk, []byte(nextCall))
				used += len(nextCall)
				p.phase = phName
				continue
			} else if part && !eof {
				return used
			}
			p.setProblem(syntax.CodeMalformed, "text after the arguments, before "+p.closers()[0])
		case phSearch:
			j := bytes.IndexByte(rest, '<')
			if j < 0 {
				p.Keep(&p.blk, rest)
				used += len(rest)
				break
			}
			p.Keep(&p.blk, rest[:j])
			used += j
			m, partial := scan.MatchAny(rest[j:], eof, p.closers())
			if m != "" {
				p.Keep(&p.blk, []byte(m))
				used += len(m)
				p.finishBlock(true)
				return used
			}
			if full, part := scan.MatchPrefix(rest[j:], p.d.callOpen); full {
				p.finishBlock(false) // a new call starts: this one is over
				if used == 0 {
					return scan.Again
				}
				return used
			} else if partial || part && !eof {
				return used
			}
			p.Keep(&p.blk, rest[j:j+1])
			used++
		}
	}
	return used
}

// flushArgs sends the arguments' JSON written so far, up to at, the offset
// just after the bytes read.
func (p *parser) flushArgs(at int64) {
	out := p.v.out[p.sent:]
	n := scan.CompleteUTF8(out)
	if n == 0 || at <= p.outFrom {
		return
	}
	p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: string(p.name), Index: p.index, Delta: string(out[:n]),
		Span: syntax.Span{Start: p.outFrom, End: at}})
	p.sent += n
	p.outFrom = at
}

func (p *parser) what() string {
	if p.result {
		return "tool response"
	}
	return "tool call"
}

// finishBlock ends the open block: closed tells whether its closer was read.
func (p *parser) finishBlock(closed bool) {
	p.state = stText
	span := syntax.Span{Start: p.blockStart.Offset, End: p.blockStart.Offset + p.blk.Len}
	raw := func() []byte {
		if p.blk.Over {
			return nil
		}
		return bytes.Clone(p.blk.Bytes)
	}
	switch {
	case p.blk.Over:
		p.Errorf(syntax.CodeOverLimit, p.blockStart, span, nil, "%s longer than the limit of %d bytes", p.what(), p.Options().BlockLimit())
		return
	case p.problem != "":
		p.Errorf(p.problemCode, p.blockStart, span, raw(), "%s %s: %s", p.what(), p.name, p.problem)
		return
	case !closed:
		p.Errorf(syntax.CodeTruncated, p.blockStart, span, raw(), "unterminated %s: the stream ended before %s", p.what(), p.closers()[0])
		return
	}
	args := p.v.out
	if p.result {
		v := args
		n := 0
		jsonscan.MembersRaw(args, func(kb, val []byte) bool {
			k := string(kb) // only compared: no allocation
			n++
			if k == "value" {
				v = val
			}
			return true
		})
		if n != 1 {
			v = args
		}
		p.Emit(syntax.Event{Type: syntax.Result, Tool: string(p.name), Status: syntax.Success, Value: bytes.Clone(v), Span: span})
		return
	}
	// The block's calls, each from where it starts to where the next one
	// does, the last to the block's end.
	p.calls = append(p.calls, syntax.Event{Type: syntax.Call, Name: string(p.name), Args: args, Span: syntax.Span{Start: p.callStart, End: span.End}})
	p.v.out = nil // the arguments are the event's now: the next block writes anew
	pos, last := p.blockStart, int64(0)
	for _, c := range p.calls {
		k := c.Span.Start - p.blockStart.Offset
		pos, last = scan.Advance(pos, p.blk.Bytes[last:k]), k
		c.Pos = pos
		p.pending++
		p.Emit(c)
	}
	p.calls = p.calls[:0]
}

// endBatch emits the execute that ends the calls of the turn, if it had any.
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

// finish reports what the end of the stream left open.
func (p *parser) finish(end int64) {
	switch p.state {
	case stThinkName, stThink:
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
			"unterminated reasoning: the stream ended before %s", channelClose)
	case stBlock:
		p.finishBlockAtEOF()
	}
	p.endBatch(end)
}

// finishBlockAtEOF reports a block the end of the stream cut off: never a
// call.
func (p *parser) finishBlockAtEOF() {
	p.state = stText
	span := syntax.Span{Start: p.blockStart.Offset, End: p.blockStart.Offset + p.blk.Len}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.blockStart, span, nil, "%s longer than the limit of %d bytes and unterminated", p.what(), p.Options().BlockLimit())
		return
	}
	p.Errorf(syntax.CodeTruncated, p.blockStart, span, bytes.Clone(p.blk.Bytes), "unterminated %s: the stream ended before %s", p.what(), p.closers()[0])
}
