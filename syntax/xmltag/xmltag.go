package xmltag

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the xmltag syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "xmltag",
	Aliases:     []string{"tool-xml"},
	Description: "<tool:NAME><param:KEY>value</param:KEY></tool:NAME>",
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
}

const promptRules = `To call a tool, write <tool:TOOL_NAME>, one <param:KEY>VALUE</param:KEY> element per parameter, then </tool:TOOL_NAME>:
- Values are plain text, taken verbatim (no escaping); a newline right after the opening tag and before the closing tag is ignored.
- An array is the same <param:KEY> repeated, once per item.
- Only white space may stand between the param elements.
- Think inside <thinking>...</thinking> (optional). Text outside tools is your answer to the user.`

const (
	openThinking  = "<thinking>"
	closeThinking = "</thinking>"
	toolPrefix    = "<tool:"
	maxName       = 256 // a longer "<tool:…" is text
)

var wakeSet = scan.Bytes(">") // every tag ends in '>'

type state uint8

const (
	inText state = iota
	inThinking
	inTool
)

type parser struct {
	scan.Core
	state state

	thinkStart syntax.Pos

	// The open tool.
	name     string
	closeTag string
	start    syntax.Pos
	blk      scan.Block // the whole tool, open tag first
	rd       reader     // the pass over blk (block.go)

	names map[string]string // see intern
}

// newParser returns an xmltag parser that sends its events to h.
func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.WakeOn(wakeSet)
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case inThinking:
		return p.thinking(data, eof)
	case inTool:
		return p.tool(data, eof)
	}
	return p.text(data, eof)
}

// text handles input outside tools: respond text, <thinking> and <tool:NAME>.
func (p *parser) text(data []byte, eof bool) int {
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 {
		return n
	}
	off := p.Offset()
	full, partial := scan.MatchPrefix(data, openThinking)
	if full {
		p.BeginRun(syntax.Think, off)
		p.thinkStart = p.Pos()
		p.state = inThinking
		// A lone <thinking> is common in prose and prompts: it is evidence
		// once its </thinking> comes, undecided until then.
		p.Undecided(off)
		return len(openThinking)
	}
	wait := partial
	if n, name := openTool(data, eof); n > 0 {
		p.EndRun()
		p.Evident(off)
		p.openTool(name, data[:n])
		return n
	} else if n < 0 {
		wait = true
	}
	if wait && !eof {
		return 0
	}
	// This '<' starts no tag: text goes on to the next '<' that may.
	n := scan.TextUntil(data, '<', func(rest []byte) bool {
		if len(rest) > 1 && rest[1] != 't' {
			return false // <thinking> and <tool: both go on with 't'
		}
		full, partial := scan.MatchPrefix(rest, openThinking)
		n, _ := openTool(rest, eof)
		return full || partial && !eof || n != 0
	})
	p.Text(syntax.Respond, data[:n], off)
	return n
}

// openTool matches "<tool:NAME>" at the start of data. It returns the tag's
// length and the name; 0 when there is none; -1 when more input is needed.
func openTool(data []byte, eof bool) (int, []byte) {
	full, partial := scan.MatchPrefix(data, toolPrefix)
	if !full {
		if partial && !eof {
			return -1, nil
		}
		return 0, nil
	}
	i := len(toolPrefix)
	for i < len(data) && i-len(toolPrefix) <= maxName && isNameByte(data[i]) {
		i++
	}
	switch {
	case i-len(toolPrefix) > maxName:
		return 0, nil
	case i == len(data):
		if eof {
			return 0, nil
		}
		return -1, nil
	case data[i] != '>' || i == len(toolPrefix):
		return 0, nil
	}
	return i + 1, data[len(toolPrefix):i]
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// thinking handles the inside of <thinking>: nothing but </thinking> is a tag.
func (p *parser) thinking(data []byte, eof bool) int {
	n, closed := p.Inside(syntax.Think, data, eof, closeThinking)
	if closed {
		p.state = inText
		p.Undecided(-1)
		p.Evident(p.thinkStart.Offset)
	}
	return n
}

func (p *parser) openTool(name, tag []byte) {
	p.state = inTool
	if string(name) != p.name { // a stream often calls the same tool again
		p.name = p.intern(name)
		p.closeTag = "</tool:" + p.name + ">"
	}
	p.start = p.Pos()
	p.blk.Reset()
	p.keepBytes(tag)
	p.rd.reset(len(tag))
	if p.Options().Mode == syntax.TokenMode {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Span: p.blockSpan(0, len(tag))})
	}
}

// blockSpan is the source span of the block's bytes [from, to).
func (p *parser) blockSpan(from, to int) syntax.Span {
	return syntax.Span{Start: p.start.Offset + int64(from), End: p.start.Offset + int64(to)}
}

// sendValue sends, in token mode, text of the open param's value: it drops
// the value's first newline and holds back what may yet be dropped (a line
// end that may be the last) or cut (the first bytes of a character). more:
// the next byte may continue text (it is not known to be a '<'). at is
// where text stands in the block.
func (p *parser) sendValue(text []byte, at int, more bool) {
	r := &p.rd
	buf, from := text, at
	if len(r.held) > 0 {
		from = r.heldAt
		r.joined = append(append(r.joined[:0], r.held...), text...)
		buf = r.joined
	}
	if r.atStart {
		if len(buf) < 2 && more && (len(buf) == 0 || buf[0] == '\r') {
			r.held = append(r.held[:0], buf...) // "\r" may be the start of the "\r\n" to drop
			r.heldAt = from
			return
		}
		r.atStart = len(buf) == 0
		if bytes.HasPrefix(buf, crlf) {
			buf = buf[2:]
		} else if bytes.HasPrefix(buf, lf) {
			buf = buf[1:]
		}
	}
	keep := 0
	switch {
	case bytes.HasSuffix(buf, crlf):
		keep = 2
	case bytes.HasSuffix(buf, lf), bytes.HasSuffix(buf, []byte{'\r'}):
		keep = 1
	}
	cut := scan.CompleteUTF8(buf[:len(buf)-keep])
	r.held = append(r.held[:0], buf[cut:]...)
	end := at + len(text) - len(r.held) // the held bytes are the last of text
	r.heldAt = end
	if cut > 0 {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: r.key, Delta: string(buf[:cut]), Span: p.blockSpan(from, end)})
	}
}

// endValue sends, at the open param's close tag, what was held back of its
// value: its last line end is dropped; whatever else was held (the bytes of a
// character the chunks cut) is the value's end. at is where the close tag
// stands in the block.
func (p *parser) endValue(at int) {
	held := p.rd.held
	if bytes.HasSuffix(held, crlf) {
		held = held[:len(held)-2]
	} else if bytes.HasSuffix(held, lf) {
		held = held[:len(held)-1]
	}
	if len(held) > 0 {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: p.rd.key, Delta: string(held), Span: p.blockSpan(p.rd.heldAt, at)})
	}
	p.rd.held = p.rd.held[:0]
}

// tool keeps the tool's bytes up to its close tag </tool:NAME>, the first
// one, and reads them as they come.
func (p *parser) tool(data []byte, eof bool) int {
	if i := bytes.Index(data, []byte(p.closeTag)); i >= 0 {
		n := i + len(p.closeTag)
		p.keepBytes(data[:n])
		p.closeTool()
		return n
	}
	n := len(data)
	if !eof {
		n -= scan.PartialSuffix(data, p.closeTag)
	}
	p.keepBytes(data[:n])
	if !p.blk.Over {
		p.readBlock(false)
	}
	if n == 0 && !eof {
		return 0
	}
	return n
}

func (p *parser) closeTool() {
	p.state = inText
	span := syntax.Span{Start: p.start.Offset, End: p.start.Offset + p.blk.Len}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.start, span, nil, "<tool:%s> longer than the limit of %d bytes", p.name, p.Options().BlockLimit())
		return
	}
	p.readBlock(true)
	args, errAt, msg := p.endBlock()
	if errAt >= 0 {
		p.Errorf(syntax.CodeMalformed, p.start, span, p.blk.Bytes, "<tool:%s> at %s: %s", p.name, scan.Advance(p.start, p.blk.Bytes[:errAt]), msg)
		return
	}
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, Args: args, Strings: true, Pos: p.start, Span: span})
	closeAt := span.End - int64(len(p.closeTag))
	p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: closeAt, End: span.End}})
}

func (p *parser) finish(end int64) {
	switch p.state {
	case inThinking:
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.thinkStart, syntax.Span{Start: p.thinkStart.Offset, End: end}, nil,
			"unterminated <thinking>: the stream ended before </thinking>")
	case inTool:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.start.Offset, End: end}, raw,
			"unterminated <tool:%s>: the stream ended before %s", p.name, p.closeTag)
	}
}

// keepBytes stores block bytes up to the block limit.
func (p *parser) keepBytes(b []byte) { p.blk.Keep(b, p.Options().BlockLimit()) }
