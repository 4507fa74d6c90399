package pythonic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the pythonic syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "pythonic",
	Aliases:     []string{"llama4", "lfm2"},
	Description: "a Python list of keyword calls, [get_weather(city='LA')], bare or in <|python_start|> / <|tool_call_start|> (Llama 4, Llama 3.2, LFM2); Olmo 3's <function_calls>, one call per line",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	Variants: []syntax.Variant{
		{Name: "olmo3", Description: "Olmo 3: calls one per line in <function_calls> … </function_calls>", Render: newRendererOlmo3,
			Prompt: promptOlmo3, Models: []string{"olmo-3*", "olmo3*"}},
		{Name: "minicpm4", Description: "MiniCPM 3 and 4: <|thought_start|> reasoning, calls one per line in a ```python fence after <|tool_call_start|>", Render: newRendererMiniCPM,
			Prompt: promptMiniCPM, Models: []string{"minicpm3*", "minicpm-3*", "minicpm4*", "minicpm-4*"}},
	},
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"llama-4*", "llama4*", "lfm2*", "*toolace*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"<|python_start|>", "<|tool_call_start|>", "<|tool_list_start|>", "List of tools: ["}, None: []string{`Respond in the format {"name"`}},
	},
}

const promptRules = `To call tools, end your message with a Python list of function calls on a line of its own:
[get_weather(city='San Francisco', metric='celsius'), get_time(zone='PST')]
- Keyword arguments only, each value a Python literal: strings in quotes (escape quotes and newlines with a backslash), numbers, True, False, None, lists [...] and dicts {'key': value}.
- Calls in one list run in parallel; their results come back in the next message.
- Text before the list is your answer to the user. You may think first inside <think>...</think>.`

const promptOlmo3 = `To call functions, end your message with a <function_calls> block, one Python function call per line:
<function_calls>
get_weather(city='San Francisco', metric='celsius')
get_time(zone='PST')
</function_calls>
- Keyword arguments only, each value a Python literal: strings in quotes (escape quotes and newlines with a backslash), numbers, True, False, None, lists [...] and dicts {'key': value}.
- Calls in one block run in parallel; their results come back in the next message.
- Text before the block is your answer to the user. You may think first inside <think>...</think>.`

const promptMiniCPM = `To call functions, write your thought, then the calls, one Python function call per line in a python code block, then your answer:
<|thought_start|>
why the functions are needed, and your plan
<|thought_end|>
<|tool_call_start|>
` + "```python" + `
get_weather(city="San Francisco", metric="celsius")
get_time(zone="PST")
` + "```" + `
<|tool_call_end|>
- Keyword arguments only, each value a literal: strings in quotes (escape quotes and newlines with a backslash), numbers, true, false, null, lists [...] and dicts {"key": value}.
- The calls in one block run together; their results come back in the next message.`

// The markers.
const (
	openThink    = "<think>"
	closeThink   = "</think>"
	pythonStart  = "<|python_start|>"
	pythonEnd    = "<|python_end|>"
	toolCallOpen = "<|tool_call_start|>"
	toolCallEnd  = "<|tool_call_end|>"
	funcCalls    = "<function_calls>" // Olmo 3: calls one per line, no list brackets
	funcCallsEnd = "</function_calls>"
	thoughtOpen  = "<|thought_start|>" // MiniCPM 3 and 4
	thoughtClose = "<|thought_end|>"
	fenceOpen    = "```python" // MiniCPM 3 and 4: after <|tool_call_start|>, calls one per line in a fence
	fenceEnd     = "```"
)

// maxHead bounds the look-ahead that decides whether a '[' opens a call
// list: '[', white space, a dotted name and '(' within this many bytes.
const maxHead = 256

type state uint8

const (
	inText     state = iota
	inThink          // explicit <think>: only </think> ends it
	inOpenedTh       // reasoning opened by the prompt (ThinkOpen): </think> or a call opener ends it
	afterOpen        // after a call opener: white space, then '[' must come
	inList           // inside a list (or an Olmo 3 body), finding its end
	afterList        // a list a marker opened closed: its closer may follow
)

type parser struct {
	scan.Core
	state state
	prev  byte // the last byte of text before the data (0 after a marker or at the start)

	thinkStart syntax.Pos
	thinkAny   bool // ThinkOpen reasoning had bytes

	// The open block: a call opener (optional) and a list.
	opener     string     // the marker that opened it, "" for a bare list
	openWS     []byte     // the white space between the opener and the list
	blockStart syntax.Pos // where the block starts (its marker or its '[')
	listStart  syntax.Pos // where its '[' is
	blk        scan.Block // the list's bytes, '[' to ']'; a body's, its first call to its closer
	body       bool       // the block is a body: calls one per line, no brackets (Olmo 3's <function_calls>, MiniCPM's fence)
	fence      bool       // the body is MiniCPM's ```python fence: ``` ends it, then <|tool_call_end|>
	thinkClose string     // what ends the explicit reasoning open: </think> or <|thought_end|>
	elemAny    bool       // body: the line so far holds more than white space
	stack      []byte     // open brackets
	posList    syntax.Pos // the list posK and posAt are in (its start)
	posK       int        // the offset of the list posIn was asked last
	posAt      syntax.Pos // its position
	deep       int        // brackets open beyond MaxDepth
	tooDeep    bool       // the list went beyond MaxDepth
	quote      byte       // inside a string: its quote byte, else 0
	triple     bool       // the string is triple quoted
	quotes     int        // triple: quotes seen in a row
	escape     bool       // the string's last byte was a backslash
	mismatch   string     // a closing bracket that did not match
	mismatchAt int        // its offset in blk
	commas     []int      // offsets in blk of the commas between top-level elements (a body's line ends)
	streamed   int        // token mode: elements whose call was streamed (or could not be)
	pending    []syntax.Event
	blockEnd   int64

	calls    int   // valid calls so far
	closerAt int64 // the first closer after a list that no event covers, or -1
}

// newParser returns a pythonic parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{closerAt: -1}
	p.Init(h, opts, p.step, p.finish)
	if opts.ThinkOpen {
		p.state = inOpenedTh
		p.BeginRun(syntax.Think, 0)
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		n, closed := p.Inside(syntax.Think, data, eof, p.thinkClose)
		if closed {
			p.state, p.prev = inText, 0
		}
		return n
	case inOpenedTh:
		return p.openedThink(data, eof)
	case afterOpen:
		return p.afterOpener(data, eof)
	case inList:
		return p.list(data, eof)
	case afterList:
		return p.afterListEnd(data, eof)
	}
	return p.text(data, eof)
}

var textMarkers = [...]string{openThink, thoughtOpen, pythonStart, toolCallOpen, funcCalls}

// text handles respond text and what may open something in it: <think>,
// the call openers, and a '[' that starts a call list.
func (p *parser) text(data []byte, eof bool) int {
	i := bytes.IndexAny(data, "<[")
	if i < 0 {
		i = len(data)
	}
	if i > 0 {
		p.Text(syntax.Respond, data[:i], p.Offset())
		p.prev = data[i-1]
		return i
	}
	off := p.Offset()
	if data[0] == '[' {
		if blocksList(p.prev) {
			return p.textBytes(data[:1], off)
		}
		switch listHead(data, eof) {
		case headWait:
			return 0
		case headNo:
			return p.textBytes(data[:1], off)
		}
		p.opener = ""
		p.blockStart = p.Pos()
		p.Evident(off) // a call list: '[', a name and '('
		p.openList()
		return scan.Again
	}
	wait := false
	for _, m := range textMarkers {
		full, partial := scan.MatchPrefix(data, m)
		if full && m == funcCalls {
			switch bodyHead(data, eof) {
			case headWait:
				return 0
			case headNo:
				continue // minimax's marker, or prose naming it
			}
		}
		if full {
			p.marker(m)
			return len(m)
		}
		wait = wait || partial && !eof
	}
	if wait {
		return 0
	}
	return p.textBytes(data[:1], off)
}

func (p *parser) textBytes(b []byte, off int64) int {
	p.Text(syntax.Respond, b, off)
	p.prev = b[len(b)-1]
	return len(b)
}

// blocksList reports whether a '[' after b is an index or a link, not the
// start of a call list: after a letter, digit, '_', ')' or ']'.
func blocksList(b byte) bool {
	return b == '_' || b == ')' || b == ']' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

const (
	headNo = iota
	headYes
	headWait
)

// listHead decides whether data, which starts with '[', starts a call
// list: '[', white space, a name (dotted names too) and '('.
func listHead(data []byte, eof bool) int { return callHead(data, 1, eof) }

// bodyHead decides whether data, which starts with <function_calls>, opens
// a block of calls: white space, then a call's head (a name and '(') or the
// closer (an empty block). Anything else is another syntax's marker
// (minimax's <function_calls><invoke …>) or prose naming the tag: text.
func bodyHead(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, len(funcCalls))
	if i < len(data) && data[i] == '<' {
		full, partial := scan.MatchPrefix(data[i:], funcCallsEnd)
		switch {
		case full:
			return headYes
		case partial && !eof:
			return headWait
		}
		return headNo
	}
	return callHead(data, len(funcCalls), eof)
}

// callHead decides whether a call's head comes at offset i of data, after
// white space: a name (dotted names too) and '('.
func callHead(data []byte, i int, eof bool) int {
	i = jsonscan.SkipSpace(data, i)
	if i >= maxHead {
		return headNo
	}
	for part := 0; ; part++ {
		if i == len(data) {
			break
		}
		if !isIdentStart(data[i]) {
			return headNo
		}
		for i < len(data) && isIdent(data[i]) {
			i++
		}
		if i >= maxHead {
			return headNo
		}
		if i == len(data) {
			break
		}
		if data[i] == '.' {
			i++
			continue
		}
		i = jsonscan.SkipSpace(data, i)
		if i >= maxHead {
			return headNo
		}
		if i == len(data) {
			break
		}
		if data[i] == '(' {
			return headYes
		}
		return headNo
	}
	if eof {
		return headNo
	}
	return headWait
}

func isIdentStart(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
func isIdent(b byte) bool      { return isIdentStart(b) || b >= '0' && b <= '9' }

// marker handles a marker of text, at the data's start.
func (p *parser) marker(m string) {
	off := p.Offset()
	if m != openThink {
		p.Evident(off) // a call opener (or MiniCPM's thought token): no other syntax's
	}
	switch m {
	case openThink, thoughtOpen:
		p.BeginRun(syntax.Think, off)
		p.thinkStart = p.Pos()
		p.state = inThink
		p.thinkClose = closeThink
		if m == thoughtOpen {
			p.thinkClose = thoughtClose
		}
	default:
		p.EndRun()
		p.opener, p.fence = m, false
		p.openWS = p.openWS[:0]
		p.blockStart = p.Pos()
		p.state = afterOpen
	}
}

// openedThink handles reasoning the prompt opened: it ends at the first
// </think>, or at a call opener, which then opens its list.
func (p *parser) openedThink(data []byte, eof bool) int {
	if n, wait := p.Restated(syntax.Think, data, eof, openThink); n > 0 || wait {
		return n // the opener restated by the model (or white space before it)
	}
	i := bytes.IndexByte(data, '<')
	if i < 0 {
		i = len(data)
	}
	if i > 0 {
		p.thinkAny = p.thinkAny || len(jsonscan.TrimSpace(data[:i])) > 0
		p.Text(syntax.Think, data[:i], p.Offset())
		return i
	}
	wait := false
	for _, m := range [...]string{closeThink, pythonStart, toolCallOpen, funcCalls} {
		full, partial := scan.MatchPrefix(data, m)
		if full && m == funcCalls {
			switch bodyHead(data, eof) {
			case headWait:
				return 0
			case headNo:
				continue
			}
		}
		if full {
			if m == closeThink {
				p.EndRunAt(p.Offset() + int64(len(m)))
				p.state, p.prev = inText, 0
				return len(m)
			}
			p.EndRun()
			p.marker(m)
			return len(m)
		}
		wait = wait || partial && !eof
	}
	if wait {
		return 0
	}
	p.thinkAny = true
	p.Text(syntax.Think, data[:1], p.Offset())
	return 1
}

// afterOpener handles what follows a call opener: white space, then the
// list. Anything else makes the opener an error.
func (p *parser) afterOpener(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if len(p.openWS)+i <= p.Options().BlockLimit() {
		p.openWS = append(p.openWS, data[:i]...)
		if i == len(data) {
			if eof {
				p.Errorf(syntax.CodeTruncated, p.blockStart, syntax.Span{Start: p.blockStart.Offset, End: p.Offset() + int64(i)}, []byte(p.openerText()),
					"unterminated %s: the stream ended before its call list", p.opener)
				p.state, p.prev = inText, 0
			}
			return len(data)
		}
		if p.opener == funcCalls {
			if i > 0 {
				return i
			}
			if data[0] != '<' {
				p.openBody()
				return scan.Again
			}
			// <function_calls></function_calls>: no calls (bodyHead saw
			// the closer), no event (Quiet).
			full, partial := scan.MatchPrefix(data, funcCallsEnd)
			if partial && !full && !eof {
				return 0
			}
			p.state, p.prev = inText, 0
			if full {
				return len(funcCallsEnd)
			}
			return scan.Again
		}
		if p.opener == toolCallOpen && !p.fence && data[i] == '`' {
			// MiniCPM 3 and 4: a ```python fence of calls, one per line;
			// the fence's opener is the opener's, as its white space is.
			full, partial := scan.MatchPrefix(data[i:], fenceOpen)
			switch {
			case full:
				p.openWS = append(p.openWS, fenceOpen...)
				p.fence = true
				return i + len(fenceOpen)
			case partial && !eof:
				return i
			}
		}
		if p.fence {
			if i > 0 {
				return i
			}
			p.openBody() // the body ends at the fence's ```
			return scan.Again
		}
		if data[i] == '[' || data[i] == '{' && p.opener == toolCallOpen {
			// A list of calls; or, after LFM2's marker, one JSON call
			// object (Ollama's first LFM2 parser reads it).
			if i > 0 {
				return i
			}
			p.openList()
			return scan.Again
		}
	}
	p.Errorf(syntax.CodeMalformed, p.blockStart, syntax.Span{Start: p.blockStart.Offset, End: p.blockStart.Offset + int64(len(p.opener))}, []byte(p.opener),
		"%s is not followed by a call list [name(...)]", p.opener)
	p.state, p.prev = inText, 0
	if i == 0 {
		return scan.Again
	}
	return i
}

// openList starts a list at the '[' the data starts with.
func (p *parser) openList() {
	p.EndRun()
	p.listStart = p.Pos()
	p.blk.Reset()
	p.stack = p.stack[:0]
	p.deep, p.tooDeep, p.quote, p.triple, p.quotes, p.escape, p.mismatch = 0, false, 0, false, 0, false, ""
	p.commas = p.commas[:0]
	p.streamed = 0
	p.body, p.elemAny = false, false
	p.state = inList
}

// bodyCloser is what ends the open body: </function_calls>, or the ``` of
// MiniCPM's fence.
func (p *parser) bodyCloser() string {
	if p.fence {
		return fenceEnd
	}
	return funcCallsEnd
}

// openBody starts the body of a <function_calls> block, or of MiniCPM's
// fence, at the call the data starts with.
func (p *parser) openBody() {
	p.openList()
	p.body = true
}

// first is the offset in blk of the block's first element.
func (p *parser) first() int {
	if p.body {
		return 0
	}
	return 1
}

// list finds where the list ends, in one pass: bracket depth, and strings
// in both quote styles, triple quoted or not, with backslash escapes.
func (p *parser) list(data []byte, eof bool) int {
	limit := p.Options().DepthLimit()
	i := 0
	for i < len(data) {
		c := data[i]
		if p.quote != 0 {
			if p.escape {
				p.escape = false
				i++
				continue
			}
			// The common case: run to the next quote or backslash.
			j := i
			for j < len(data) && data[j] != p.quote && data[j] != '\\' {
				j++
			}
			if j > i {
				i, p.quotes = j, 0
				continue
			}
			switch {
			case c == '\\':
				p.escape, p.quotes = true, 0
			case c == p.quote && !p.triple:
				closes := closesString(data[i+1:], eof)
				if closes == closeNo && p.body {
					closes = closesBody(data[i+1:], eof, p.bodyCloser())
				}
				switch closes {
				case closeWait:
					p.Keep(&p.blk, data[:i])
					p.streamElements()
					return i
				case closeYes:
					p.quote = 0
				}
			case c == p.quote:
				p.quotes++
				if p.quotes == 3 {
					p.quote = 0
				}
			default:
				p.quotes = 0
			}
			i++
			continue
		}
		if closer := p.bodyCloser(); p.body && c == closer[0] {
			// The closer, outside a string, ends the block at any depth:
			// no Python literal holds '<' or '`', so a call whose bracket
			// is still open there is cut off (an error of its own), not a
			// call that runs on over the rest of the output.
			full, partial := scan.MatchPrefix(data[i:], closer)
			if full {
				p.Keep(&p.blk, data[:i])
				p.endList()
				return i
			}
			if partial && !eof {
				p.Keep(&p.blk, data[:i])
				p.streamElements()
				return i
			}
		}
		if p.body && (len(p.stack) == 0 && p.deep == 0 || p.mismatch != "") {
			// The body's top level, or anywhere once a bracket did not
			// match: a line end ends a call.
			switch c {
			case '\n':
				if p.elemAny && p.mismatch == "" && !p.blk.Over {
					p.commas = append(p.commas, int(p.blk.Len)+i)
				}
				p.elemAny = false
				i++
				continue
			case ' ', '\t', '\r', '\f':
				i++
				continue
			}
			p.elemAny = true
		}
		switch c {
		case '\'', '"':
			if len(data)-i < 3 && !eof {
				p.Keep(&p.blk, data[:i])
				p.streamElements()
				return i
			}
			p.quote, p.quotes, p.escape = c, 0, false
			p.triple = len(data)-i >= 3 && data[i+1] == c && data[i+2] == c
			if p.triple {
				i += 3
				continue
			}
		case '(', '[', '{':
			if len(p.stack) >= limit || p.deep > 0 {
				p.deep++
				p.tooDeep = true
			} else {
				p.stack = append(p.stack, c)
			}
		case ')', ']', '}':
			if p.deep > 0 {
				p.deep--
				break
			}
			if len(p.stack) == 0 { // a body's top level
				if p.mismatch == "" {
					p.mismatch, p.mismatchAt = fmt.Sprintf("'%c' closes no bracket", c), int(p.blk.Len)+i
				}
				break
			}
			open := p.stack[len(p.stack)-1]
			p.stack = p.stack[:len(p.stack)-1]
			if want := closerOf(open); c != want && p.mismatch == "" {
				p.mismatch, p.mismatchAt = fmt.Sprintf("'%c' does not close the '%c' before it", c, open), int(p.blk.Len)+i
			}
			if p.body {
				break // a body ends at its closer
			}
			if len(p.stack) == 0 || p.mismatch != "" {
				p.Keep(&p.blk, data[:i+1])
				p.endList()
				return i + 1
			}
		case ',':
			if len(p.stack) == 1 && p.deep == 0 && !p.blk.Over && !p.body {
				p.commas = append(p.commas, int(p.blk.Len)+i)
			}
		}
		i++
	}
	p.Keep(&p.blk, data)
	p.streamElements()
	if eof {
		p.truncatedList()
	}
	return len(data)
}

// streamElements, in token mode, announces each call of the list as soon
// as its element is finished (the comma after it has come), with its whole
// arguments as one delta. The call itself comes when the list is finished,
// since a list cut off is never calls. An element that is not a valid call
// is not announced: its error comes with the list.
func (p *parser) streamElements() {
	if p.Options().Mode != syntax.TokenMode || p.blk.Over {
		return
	}
	for p.streamed < len(p.commas) && p.commas[p.streamed] < len(p.blk.Bytes) {
		k := p.streamed
		p.streamed++
		start := p.first()
		if k > 0 {
			start = p.commas[k-1] + 1
		}
		if k == 0 && !p.body && p.blk.Bytes[jsonscan.SkipSpace(p.blk.Bytes, 1)] == '{' {
			p.streamed = len(p.commas) + 1 // a JSON list: its calls come whole
			return
		}
		elem := p.blk.Bytes[start:p.commas[k]]
		c, err := callParser.ParseBytes("", elem)
		if err != nil {
			continue
		}
		if name, args, pr := callJSON(c); pr == nil {
			p.announce(k, name, args, start+c.Pos.Offset, callEnd(elem, c)-c.Pos.Offset)
		}
	}
}

// announce emits the partial events of call i, whose text is n bytes at
// offset at of the list: its name, then its whole arguments.
func (p *parser) announce(i int, name string, args []byte, at, n int) {
	from := p.listStart.Offset + int64(at)
	span := syntax.Span{Start: from, End: from + int64(n)}
	p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: i, Span: span})
	p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: i, Delta: string(args), Span: span})
}

const (
	closeNo = iota
	closeYes
	closeWait
)

// maxAfterQuote bounds the white space closesString looks through.
const maxAfterQuote = 64

// closesString decides whether a quote that could close a single-quoted
// string does, rest being what follows it: only when the next byte that is
// not white space can follow a value in a call list (',', ')', ']', '}',
// ':', a quote that starts the next string of a concatenation) or the
// input ends. Otherwise the quote is content: models write shell commands
// such as 'sed -n '360,450p' file' with the inner quotes unescaped (vLLM's
// lfm2 tests), and Python would give a syntax error. The lexer applies the
// same rule, so both agree on where every string ends.
func closesString(rest []byte, eof bool) int {
	for i := 0; i < len(rest); i++ {
		if i >= maxAfterQuote {
			return closeYes
		}
		switch b := rest[i]; b {
		case ' ', '\t', '\r', '\n', '\f':
			continue
		case ',', ')', ']', '}', ':', '\'', '"':
			return closeYes
		default:
			return closeNo
		}
	}
	if eof || len(rest) >= maxAfterQuote {
		return closeYes
	}
	return closeWait
}

// closesBody decides, in a body (see bodyCloser), whether a quote that
// closesString says is content closes its string after all: when white
// space and then the block's closer follow it (a call cut off after a
// string, its ')' missing). Otherwise the string would run on over the
// closer and the rest of the output.
func closesBody(rest []byte, eof bool, closer string) int {
	i := 0
	for i < len(rest) && i < maxAfterQuote && isSpaceByte(rest[i]) {
		i++
	}
	full, partial := scan.MatchPrefix(rest[i:], closer)
	switch {
	case full:
		return closeYes
	case partial && !eof && i < maxAfterQuote:
		return closeWait
	}
	return closeNo
}

func closerOf(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// truncatedList reports a list the stream ended in.
func (p *parser) truncatedList() {
	span := syntax.Span{Start: p.blockStart.Offset, End: p.listStart.Offset + p.blk.Len}
	var raw []byte
	if !p.blk.Over {
		raw = append([]byte(p.openerText()), p.blk.Bytes...)
	}
	if p.body {
		p.Errorf(syntax.CodeTruncated, p.blockStart, span, raw, "unterminated %s: the stream ended before %s", p.opener, p.bodyCloser())
	} else {
		p.Errorf(syntax.CodeTruncated, p.blockStart, span, raw, "unterminated call list: the stream ended before its closing ']'")
	}
	p.state, p.prev = inText, 0
}

// openerText is the opener and the white space after it, as in the source.
func (p *parser) openerText() string {
	if p.opener == "" {
		return ""
	}
	return p.opener + string(p.openWS)
}

// endList reads the finished list. Its events wait for the closer when a
// marker opened it.
func (p *parser) endList() {
	p.pending = p.pending[:0]
	p.blockEnd = p.listStart.Offset + p.blk.Len
	p.readList()
	if p.opener != "" {
		p.state = afterList
		return
	}
	p.flush()
}

// afterListEnd takes the closer that matches the list's opener, after
// optional white space; anything else is read as text.
func (p *parser) afterListEnd(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		return i // white space between a list and its closer is no event's
	}
	closer := pythonEnd
	switch {
	case p.fence:
		closer = fenceEnd // then <|tool_call_end|>
	case p.opener == toolCallOpen:
		closer = toolCallEnd
	case p.opener == funcCalls:
		closer = funcCallsEnd
	}
	full, partial := scan.MatchPrefix(data, closer)
	switch {
	case full && p.fence:
		// The fence's end; the block's own closer may follow.
		p.fence = false
		p.takeCloser(closer)
		return len(closer)
	case full:
		p.takeCloser(closer)
		p.flush()
		return len(closer)
	case partial && !eof:
		return 0
	}
	p.flush()
	return scan.Again
}

// takeCloser accounts for a closer after the list, at the step's offset:
// its bytes go to the list's last error, if it ended in one; a call's span
// ends at its ']' whether or not the closer follows, so that a cut before
// the closer gives the same call. Otherwise the execute covers it (see
// finish).
func (p *parser) takeCloser(closer string) {
	if n := len(p.pending); n > 0 && p.pending[n-1].Type == syntax.Error {
		p.pending[n-1].Span.End = p.Offset() + int64(len(closer))
	} else if p.closerAt < 0 {
		p.closerAt = p.Offset()
	}
}

// flush emits the events of the list just read.
func (p *parser) flush() {
	for _, e := range p.pending {
		if e.Type == syntax.Call && !e.Partial {
			p.calls++
		}
		p.Emit(e)
	}
	p.pending = p.pending[:0]
	p.state, p.prev = inText, 0
}

// readList parses the finished list and queues its events.
func (p *parser) readList() {
	span := syntax.Span{Start: p.blockStart.Offset, End: p.blockEnd}
	raw := append([]byte(p.openerText()), p.blk.Bytes...)
	what := "call list"
	if p.body {
		what = p.opener + " block"
	}
	switch {
	case p.blk.Over:
		p.queueError(syntax.CodeOverLimit, p.blockStart, span, nil, fmt.Sprintf("%s longer than the limit of %d bytes", what, p.Options().BlockLimit()))
		return
	case p.tooDeep:
		p.queueError(syntax.CodeOverLimit, p.blockStart, span, raw, fmt.Sprintf("%s nested deeper than the limit of %d", what, p.Options().DepthLimit()))
		return
	case p.mismatch != "":
		p.queueError(syntax.CodeMalformed, p.posIn(p.mismatchAt), span, raw, what+": "+p.mismatch)
		return
	}
	list := p.blk.Bytes
	if limit := tokenLimit(p.Options()); p.body && moreTokens(list, limit) {
		p.queueError(syntax.CodeOverLimit, p.blockStart, span, raw, fmt.Sprintf("%s of more than %d tokens (the limit is MaxBlock/128, at least 1024)", what, limit))
		return
	}
	if p.body {
		p.readBody()
		return
	}
	if list[0] == '{' {
		p.readJSONList(span, raw)
		return
	}
	if p.opener != "" && list[jsonscan.SkipSpace(list, 1)] == '{' {
		p.readJSONList(span, raw)
		return
	}
	if limit := tokenLimit(p.Options()); moreTokens(list, limit) { // what participle's parse below takes is bounded
		p.queueError(syntax.CodeOverLimit, p.blockStart, span, raw, fmt.Sprintf("call list of more than %d tokens (the limit is MaxBlock/128, at least 1024)", limit))
		return
	}
	if l, err := listParser.ParseBytes("", list); err == nil {
		if len(l.Calls) == 0 {
			return
		}
		// Element i's span runs from the end of the one before it (the
		// block's start for the first) to its own end (the list's end for
		// the last).
		from := p.blockStart.Offset
		for i, c := range l.Calls {
			e := callEnd(list, c)
			end := p.listStart.Offset + int64(e)
			p.queueCall(i, c, syntax.Span{Start: from, End: end}, c.Pos.Offset, list[c.Pos.Offset:e])
			from = end
		}
		p.pending[len(p.pending)-1].Span.End = p.blockEnd
		return
	}
	// Not a list of calls as a whole: read each top-level element on its
	// own, so that one broken call does not take its siblings with it.
	from := p.blockStart.Offset
	start := 1
	bounds := append(p.commas, len(list)-1)
	for i, b := range bounds {
		elem := list[start:b]
		lead := jsonscan.SkipSpace(elem, 0)
		end := p.listStart.Offset + int64(b)
		if i == len(bounds)-1 && len(jsonscan.TrimSpace(elem)) == 0 && i > 0 {
			break // a trailing comma: the element before takes the list's end
		}
		sp := syntax.Span{Start: from, End: end}
		if len(jsonscan.TrimSpace(elem)) == 0 {
			p.queueError(syntax.CodeMalformed, p.posIn(start+lead), sp, elem, fmt.Sprintf("call list element %d is empty", i+1))
		} else if c, err := callParser.ParseBytes("", elem); err != nil {
			pr := syntaxProblem(err)
			p.queueError(syntax.CodeMalformed, p.posIn(start+pr.off), sp, jsonscan.TrimSpace(elem), fmt.Sprintf("call list element %d is not a call: %s", i+1, strings.TrimPrefix(pr.msg, "not a Python call list: ")))
		} else {
			p.queueCall(i, c, sp, start+c.Pos.Offset, elem[c.Pos.Offset:callEnd(elem, c)])
		}
		from = end
		start = b + 1
	}
	p.pending[len(p.pending)-1].Span.End = p.blockEnd
}

// readBody reads the body of a <function_calls> block: one call per line,
// each read on its own, so that one broken call does not take its siblings
// with it. A call's span runs from the end of the one before it (the
// block's start for the first) to its line end (the body's end for the
// last).
func (p *parser) readBody() {
	body := p.blk.Bytes
	from := p.blockStart.Offset
	start := 0
	for i, b := range append(p.commas, len(body)) {
		elem := body[start:b]
		if len(jsonscan.TrimSpace(elem)) == 0 {
			break // white space after the last call
		}
		end := p.listStart.Offset + int64(b)
		sp := syntax.Span{Start: from, End: end}
		if c, err := callParser.ParseBytes("", elem); err != nil {
			pr := syntaxProblem(err)
			p.queueError(syntax.CodeMalformed, p.posIn(start+pr.off), sp, jsonscan.TrimSpace(elem), fmt.Sprintf("%s block element %d is not a call: %s", p.opener, i+1, strings.TrimPrefix(pr.msg, "not a Python call list: ")))
		} else {
			p.queueCall(i, c, sp, start+c.Pos.Offset, elem[c.Pos.Offset:callEnd(elem, c)])
		}
		from = end
		start = b + 1
	}
	if n := len(p.pending); n > 0 {
		p.pending[n-1].Span.End = p.blockEnd
	}
}

// jsonKeys are the members of a JSON call in a marked list.
var jsonKeys = jsoncall.Keys{Name: "name", Args: "arguments", ID: "id"}

// readJSONList reads a marked list of JSON calls,
// [{"name": …, "arguments": {…}}, …], which LFM2 also writes (SGLang's
// lfm2 detector reads it), or one call object after LFM2's marker. An element that is not such an object is an
// error of its own; JSON that does not parse is one error for the list.
func (p *parser) readJSONList(span syntax.Span, raw []byte) {
	list := p.blk.Bytes
	if !json.Valid(list) {
		p.queueError(syntax.CodeInvalidJSON, p.blockStart, span, raw, "call list: a JSON list of calls that is not valid JSON")
		return
	}
	from := p.blockStart.Offset
	i := 0
	each := jsonscan.Elements
	if list[0] == '{' {
		// One call object, not in a list.
		each = func(v []byte, f func(elem []byte, start int) bool) { f(v, 0) }
	}
	each(list, func(elem []byte, start int) bool {
		end := p.listStart.Offset + int64(start+len(elem))
		sp := syntax.Span{Start: from, End: end}
		from = end
		i++
		if jsonscan.Kind(elem) != '{' {
			p.queueError(syntax.CodeMalformed, p.posIn(start), sp, elem, fmt.Sprintf("call list element %d is %s, not a call object", i, jsonscan.KindName(jsonscan.Kind(elem))))
			return true
		}
		name, id, args, problem := jsoncall.ReadCall(elem, jsonKeys)
		if problem != "" {
			p.queueError(syntax.CodeMalformed, p.posIn(start), sp, elem, fmt.Sprintf("call list element %d %s", i, problem))
			return true
		}
		if p.Options().Mode == syntax.TokenMode {
			csp := syntax.Span{Start: p.listStart.Offset + int64(start), End: end}
			p.pending = append(p.pending,
				syntax.Event{Type: syntax.Call, Partial: true, Name: name, ID: id, Index: i - 1, Span: csp},
				syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: i - 1, Delta: string(args), Span: csp})
		}
		p.pending = append(p.pending, syntax.Event{Type: syntax.Call, Name: name, ID: id, Args: args, Span: sp, Pos: p.posIn(start)})
		return true
	})
	if n := len(p.pending); n > 0 {
		p.pending[n-1].Span.End = p.blockEnd
	}
}

// queueCall queues the events of call c, element i of the list, whose text
// starts at offset at of the list.
func (p *parser) queueCall(i int, c *pyCall, span syntax.Span, at int, text []byte) {
	name, args, pr := callJSON(c)
	if pr != nil {
		p.queueError(syntax.CodeMalformed, p.posIn(at+pr.off-c.Pos.Offset), span, text, fmt.Sprintf("call %d (%s): %s", i+1, name, pr.msg))
		return
	}
	if p.Options().Mode == syntax.TokenMode && i >= p.streamed {
		// The last element: announced now that the list is finished.
		p.announce(i, name, args, at, len(text))
	}
	p.pending = append(p.pending, syntax.Event{Type: syntax.Call, Name: name, Args: args, Span: span, Pos: p.posIn(at)})
}

func (p *parser) queueError(code syntax.Code, pos syntax.Pos, span syntax.Span, raw []byte, msg string) {
	p.pending = append(p.pending, syntax.Event{Type: syntax.Error, Code: code, Message: msg, Pos: pos, Raw: string(raw), Span: span})
}

// posIn is the position of offset k of the list. It counts on from the
// offset asked before when k is past it (a list's calls are asked for in
// order), so that a list of n calls costs one pass, not n.
func (p *parser) posIn(k int) syntax.Pos {
	k = min(max(k, 0), len(p.blk.Bytes))
	if p.posList != p.listStart || k < p.posK || p.posK > len(p.blk.Bytes) {
		p.posList, p.posK, p.posAt = p.listStart, 0, p.listStart
	}
	p.posAt = scan.Advance(p.posAt, p.blk.Bytes[p.posK:k])
	p.posK = k
	return p.posAt
}

// finish reports what the end of the stream left open, then the execute
// of a message that made calls.
func (p *parser) finish(end int64) {
	switch p.state {
	case inThink:
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
			"unterminated <think>: the stream ended before </think>")
	case inOpenedTh:
		p.EndRun()
		if p.thinkAny {
			p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: 0, End: end}, nil,
				"unterminated reasoning: the stream ended before </think> or a call")
		}
	case afterOpen:
		p.afterOpener(nil, true)
	case inList:
		p.truncatedList()
	case afterList:
		p.flush()
	}
	if p.calls > 0 {
		// The execute is implicit, at the end of the message; its span
		// covers the first closer no other event took, if any.
		from := end
		if p.closerAt >= 0 {
			from = p.closerAt
		}
		p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: from, End: end}})
	}
}
