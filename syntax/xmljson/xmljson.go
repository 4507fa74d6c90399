package xmljson

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/trail"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the xmljson syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "xmljson",
	Aliases:     []string{"xml", "cogency"},
	Description: "<think>, <execute>[JSON array]</execute>, <results>, <end>",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
}

const promptRules = `Think inside <think>...</think> (optional). To call tools, write one <execute> block holding a JSON array of calls, each {"name": TOOL, "args": {...}}:
- The array is strict JSON: quote every key and string, escape quotes as \" and newlines as \n. Text such as </execute> inside a JSON string is safe.
- Calls in one array run in parallel; their results come back in the same order. Put calls that depend on each other in separate <execute> blocks.
- Results come back in a <results> block: a JSON array of {"tool", "status": "success" or "failure", "content"}.
- Text outside blocks is your answer to the user. Write <end> when the task is complete.`

// The markers, exact and lower case.
const (
	openThink    = "<think>"
	closeThink   = "</think>"
	openExecute  = "<execute>"
	closeExecute = "</execute>"
	openResults  = "<results>"
	closeResults = "</results>"
	endTag       = "<end>"
)

var textMarkers = [...]string{openThink, openExecute, openResults, endTag}

var wakeSet = scan.Bytes(">")

type state uint8

const (
	inText state = iota
	inThink
	afterOpen // after <execute> or <results>: a block only if '[', '{' or the close tag comes next
	inBlock
	afterEnd
)

// Block phases.
const (
	phaseJSON   = iota // scanning the JSON value
	phaseAfter         // the value is complete; only white space may come before the close tag
	phaseSearch        // the JSON is broken; the next literal close tag ends the block
)

type parser struct {
	scan.Core
	state state

	thinkStart syntax.Pos

	// The open <execute> or <results> block.
	open, close string
	openAt      int64  // offset of the open tag
	openSpace   []byte // the white space after the open tag, before the block is decided
	blockStart  syntax.Pos
	blk         scan.Block // the bytes after the open tag
	phase       int
	jsonEnd     int   // length of the JSON value within block
	problemAt   int64 // offset within the block of the first problem
	problemCode syntax.Code
	problem     string
	js          jsonscan.JSON
	args        jsoncall.ArgStream // token mode: streams the calls' arguments

	// After <end>.
	endSpan syntax.Span
	trail   trail.Trail
}

// newParser returns an xmljson parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.WakeOn(wakeSet) // every marker ends in '>': no event completes without one
	p.args = jsoncall.ArgStream{Depth: 1, Emit: p.Emit, JSON: &p.js}
	if opts.ThinkOpen { // the prompt opened <think>: the output starts inside it
		p.thinkStart = syntax.Pos{Line: 1, Column: 1}
		p.BeginRun(syntax.Think, 0)
		p.state = inThink
	}
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		return p.thinkText(data, eof)
	case afterOpen:
		return p.afterOpenTag(data, eof)
	case inBlock:
		return p.blockBytes(data, p.Offset(), eof)
	case afterEnd:
		return p.trail.Add(&p.Core, data)
	}
	return p.text(data, eof)
}

// text handles input outside any block: respond text and the opening markers.
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
	// This '<' starts no marker: text goes on to the next '<' that may.
	n := scan.TextUntil(data, '<', func(rest []byte) bool { return startsMarker(rest, eof) })
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// startsMarker reports whether data, which starts with '<', is or may
// become one of the markers of text.
func startsMarker(data []byte, eof bool) bool {
	if len(data) > 1 && data[1] != 't' && data[1] != 'e' && data[1] != 'r' {
		return false // the second byte of every marker
	}
	for _, m := range textMarkers {
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
		p.thinkStart = p.Pos()
		p.state = inThink
	case openExecute, openResults:
		p.open, p.close = m, closeExecute
		if m == openResults {
			p.close = closeResults
		}
		p.openAt = off
		p.blockStart = p.Pos()
		p.openSpace = p.openSpace[:0]
		p.state = afterOpen
		p.Undecided(off) // a block, or prose that mentions the tag: what follows tells
	case endTag:
		p.EndRun()
		p.Evident(off)
		p.endSpan = syntax.Span{Start: off, End: off + int64(len(endTag))}
		p.state = afterEnd
	}
}

// afterOpenTag decides what an <execute> or <results> tag is: it opens a
// block when the first byte after it that is not white space is '[' or '{',
// or starts its close tag (an empty block: an error); otherwise the tag and
// the white space after it are text.
func (p *parser) afterOpenTag(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if len(p.openSpace)+i > p.Options().BlockLimit() {
		// A block would be over the limit before its JSON starts: text.
		p.Undecided(-1)
		p.Text(syntax.Respond, append([]byte(p.open), p.openSpace...), p.openAt)
		p.state = inText
		return scan.Again
	}
	p.openSpace = append(p.openSpace, data[:i]...)
	if i == len(data) {
		if eof {
			span := syntax.Span{Start: p.openAt, End: p.Offset() + int64(i)}
			p.Errorf(syntax.CodeTruncated, p.blockStart, span, []byte(p.open), "unterminated %s: the stream ended before %s", p.open, p.close)
			p.state = inText
		}
		return len(data)
	}
	rest := data[i:]
	full, partial := scan.MatchPrefix(rest, p.close)
	switch {
	case rest[0] == '[' || rest[0] == '{':
		p.opened()
		p.openBlock()
		if i == 0 {
			return scan.Again
		}
		return i
	case full:
		p.opened() // an empty block: xmljson's error, and its evidence
		end := p.Offset() + int64(i+len(p.close))
		raw := append(append([]byte(p.open), p.openSpace...), p.close...)
		p.Errorf(syntax.CodeMalformed, p.blockStart, syntax.Span{Start: p.openAt, End: end}, raw,
			"empty %s block: it must hold a JSON array", p.open)
		p.state = inText
		return i + len(p.close)
	case partial && !eof:
		return i // 0 when data starts with the partial tag: wait for the rest of it
	}
	// Prose that mentions the tag: the tag and the white space are text.
	p.Undecided(-1)
	p.Text(syntax.Respond, append([]byte(p.open), p.openSpace...), p.openAt)
	p.state = inText
	if i == 0 {
		return scan.Again
	}
	return i
}

// opened notes the open tag decided as a block's: the detector's evidence.
func (p *parser) opened() {
	p.Undecided(-1)
	p.Evident(p.openAt)
}

// openBlock starts the block of the open tag, its JSON about to begin.
func (p *parser) openBlock() {
	p.EndRun()
	p.blk.Reset()
	p.phase = phaseJSON
	p.problem = ""
	p.js.Reset(p.Options().DepthLimit())
	p.args.Reset()
	p.state = inBlock
	p.blockBytes(p.openSpace, p.openAt+int64(len(p.open)), false) // the white space before the JSON is the block's
}

// thinkText handles the inside of <think>: nothing but </think> is a marker.
func (p *parser) thinkText(data []byte, eof bool) int {
	if n, wait := p.Restated(syntax.Think, data, eof, openThink); n > 0 || wait {
		return n // the opener restated by the model (or white space before it)
	}
	n, closed := p.Inside(syntax.Think, data, eof, closeThink)
	if closed {
		p.state = inText
	}
	return n
}

// blockBytes handles the inside of <execute> and <results>: data, which
// stands at offset off of the input.
func (p *parser) blockBytes(data []byte, off int64, eof bool) int {
	used := 0
	for used < len(data) {
		rest := data[used:]
		switch p.phase {
		case phaseJSON:
			stream := p.Options().Mode == syntax.TokenMode && p.open == openExecute
			used += p.args.ScanBlock(&p.blk, p.Options().BlockLimit(), rest, off+int64(used), stream)
			switch {
			case p.js.Done():
				p.phase = phaseAfter
				p.jsonEnd = len(p.blk.Bytes)
			case p.js.Err() != nil:
				p.setProblem(p.js.Err().Code(), p.blk.Len, "invalid JSON: "+p.js.Err().Msg())
				p.phase = phaseSearch
			}
		case phaseAfter:
			i := jsonscan.SkipSpace(rest, 0)
			p.keepBytes(rest[:i])
			used += i
			if i == len(rest) {
				break
			}
			full, partial := scan.MatchPrefix(rest[i:], p.close)
			if full {
				p.keepBytes(rest[i : i+len(p.close)])
				used += len(p.close)
				p.finishBlock(true)
				return used
			}
			if partial && !eof {
				return used
			}
			p.setProblem(syntax.CodeMalformed, p.blk.Len, "unexpected text after the JSON value (only white space may come before "+p.close+")")
			p.phase = phaseSearch
		case phaseSearch:
			if i := bytes.Index(rest, []byte(p.close)); i >= 0 {
				n := i + len(p.close)
				p.keepBytes(rest[:n])
				used += n
				p.finishBlock(true)
				return used
			}
			n := len(rest)
			if !eof {
				n -= scan.PartialSuffix(rest, p.close)
			}
			p.keepBytes(rest[:n])
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
func (p *parser) contentPos() syntax.Pos {
	return scan.Advance(p.blockStart, []byte(p.open))
}

// posIn returns the position of offset k within the block's content.
func (p *parser) posIn(k int64) syntax.Pos {
	if k > int64(len(p.blk.Bytes)) {
		k = int64(len(p.blk.Bytes))
	}
	return scan.Advance(p.contentPos(), p.blk.Bytes[:k])
}

// finishBlock ends the block: closed tells whether its close tag was found.
func (p *parser) finishBlock(closed bool) {
	p.state = inText
	start := p.blockStart.Offset
	span := syntax.Span{Start: start, End: p.contentPos().Offset + p.blk.Len}
	name := p.open[1 : len(p.open)-1]
	raw := func() []byte {
		if p.blk.Over {
			return nil
		}
		return append([]byte(p.open), p.blk.Bytes...)
	}
	switch {
	case p.blk.Over:
		msg := fmt.Sprintf("<%s> block longer than the limit of %d bytes", name, p.Options().BlockLimit())
		if !closed {
			msg += " and unterminated"
		}
		p.Errorf(syntax.CodeOverLimit, p.blockStart, span, nil, "%s", msg)
		return
	case !closed:
		p.Errorf(syntax.CodeTruncated, p.blockStart, span, raw(), "unterminated <%s>: the stream ended before %s", name, p.close)
		return
	case p.problem != "":
		p.Errorf(p.problemCode, p.blockStart, span, raw(), "<%s> block at %s: %s", name, p.posIn(p.problemAt), p.problem)
		return
	}
	value := p.blk.Bytes[:p.jsonEnd]
	base := p.contentPos().Offset
	var msg string
	var at int
	if k := jsonscan.Kind(value); k != '[' {
		msg, at = "the JSON value is "+jsonscan.KindName(k)+", not an array", jsonscan.SkipSpace(value, 0)
	} else if p.open == openExecute {
		// Read twice: once to find a problem anywhere in the array (the
		// block is then one error, and no call of it is delivered), then
		// to hand each call on as it is read, so that no list of the
		// calls is held (a block of many calls costs its own size, not
		// theirs).
		if msg, at = calls(value, base, nil); msg == "" {
			pos, last := p.contentPos(), int64(0) // positions advance call by call: one pass over the block
			calls(value, base, func(e syntax.Event) {
				k := e.Span.Start - base
				pos, last = scan.Advance(pos, p.blk.Bytes[last:k]), k
				e.Pos = pos
				p.Emit(e)
			})
			p.Emit(syntax.Event{Type: syntax.Execute, Span: span})
			return
		}
	} else {
		n := 0
		// Read twice too: the results of a block without a problem are
		// handed on one at a time. A results block has no event of its
		// own: its results share its bytes, each from the end of the one
		// before, the first from the block's start, the last to its end.
		if msg, at = results(value, base, func(syntax.Event) { n++ }); msg == "" {
			i, from := 0, span.Start
			results(value, base, func(e syntax.Event) {
				e.Span.Start = from
				if i++; i == n {
					e.Span.End = span.End
				}
				from = e.Span.End
				p.Emit(e)
			})
			return
		}
	}
	if msg != "" {
		p.Errorf(syntax.CodeMalformed, p.blockStart, span, raw(), "<%s> block at %s: %s", name, p.posIn(int64(at)), msg)
		return
	}
}

// calls reads the elements of an <execute> array, handing each call to
// emit (when it is not nil). On a problem it returns a message and the
// offset within value it is about.
func calls(value []byte, base int64, emit func(syntax.Event)) (msg string, at int) {
	n := 0
	jsonscan.EachElement(value, func(start int) int {
		n++
		name, id, args, problem, end := jsoncall.ReadCallAt(value, start, jsoncall.Default)
		if problem != "" {
			msg, at = "element "+strconv.Itoa(n)+" "+problem, start
			return -1
		}
		if emit != nil {
			emit(syntax.Event{Type: syntax.Call, Name: name, Args: args, ID: id,
				Span: syntax.Span{Start: base + int64(start), End: base + int64(end)}})
		}
		return end
	})
	return msg, at
}

// results reads the elements of a <results> array.
func results(value []byte, base int64, emit func(syntax.Event)) (msg string, at int) {
	n := 0
	jsonscan.Elements(value, func(elem []byte, start int) bool {
		n++
		if jsonscan.Kind(elem) != '{' {
			msg, at = "element "+strconv.Itoa(n)+" is "+jsonscan.KindName(jsonscan.Kind(elem))+", not an object", start
			return false
		}
		var (
			tool, status, id     string
			haveTool, toolOK     bool
			haveStatus, statusOK bool
			haveID               bool
			content              []byte
		)
		jsonscan.MembersRaw(elem, func(kb, v []byte) bool {
			// a key given twice counts the first time, as for calls
			k := string(kb) // only compared: no allocation
			switch {
			case k == "tool" && !haveTool:
				haveTool = true
				tool, toolOK = jsonscan.Unquote(v)
			case k == "status" && !haveStatus:
				haveStatus = true
				status, statusOK = jsonscan.Unquote(v)
			case k == "id" && !haveID:
				haveID = true
				id, _ = jsonscan.Unquote(v) // an id that is not a string is ignored, as for calls
			case k == "content" && content == nil:
				content = v
			}
			return true
		})
		switch {
		case !haveTool:
			msg = "element " + strconv.Itoa(n) + ` has no "tool"`
		case !toolOK:
			msg = "element " + strconv.Itoa(n) + `: "tool" is not a string`
		case !haveStatus:
			msg = "element " + strconv.Itoa(n) + ` has no "status"`
		case !statusOK || status != string(syntax.Success) && status != string(syntax.Failure):
			msg = "element " + strconv.Itoa(n) + `: "status" must be "success" or "failure"`
		}
		if msg != "" {
			at = start
			return false
		}
		v := []byte("null")
		if content != nil {
			v = jsonscan.Compact(content)
		}
		emit(syntax.Event{Type: syntax.Result, Tool: tool, ID: id, Status: syntax.Status(status), Value: v,
			Span: syntax.Span{Start: base + int64(start), End: base + int64(start+len(elem))}})
		return true
	})
	return msg, at
}

// finish reports what the end of the stream left open.
func (p *parser) finish(end int64) {
	switch p.state {
	case inThink:
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
			"unterminated <think>: the stream ended before </think>")
	case afterOpen:
		p.afterOpenTag(nil, true)
	case inBlock:
		p.finishBlock(false)
	case afterEnd:
		p.trail.Report(&p.Core, endTag)
		p.Emit(syntax.Event{Type: syntax.End, Span: p.endSpan})
	}
}

// keepBytes stores block bytes up to the block limit.
func (p *parser) keepBytes(b []byte) { p.blk.Keep(b, p.Options().BlockLimit()) }
