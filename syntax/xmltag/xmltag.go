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
	New:         New,
	Detect:      Detect,
	Render:      NewRenderer,

	StringValues: true,
}

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
	tok      valueStream
}

// valueStream streams, in token mode, each param's value as it arrives. The
// value's first newline is dropped, and its last line end is held back until
// more text shows it is not the one before </param:KEY> (which is dropped
// too), so that the deltas of a param join to its value. Once the tool's
// structure goes wrong (a nested or mismatched tag), nothing more is sent:
// the tool will be an error.
type valueStream struct {
	pos     int    // offset in the block of the first byte not looked at
	key     string // the open param, or ""
	atStart bool   // no byte of the value looked at yet
	held    []byte // a line end (or a character's first bytes) held back
	stopped bool
}

// New returns an xmltag parser that sends its events to h.
func New(h syntax.Handler, opts syntax.Options) syntax.Parser {
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
		return len(openThinking)
	}
	wait := partial
	if n, name := openTool(data, eof); n > 0 {
		p.EndRun()
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
func openTool(data []byte, eof bool) (int, string) {
	full, partial := scan.MatchPrefix(data, toolPrefix)
	if !full {
		if partial && !eof {
			return -1, ""
		}
		return 0, ""
	}
	i := len(toolPrefix)
	for i < len(data) && i-len(toolPrefix) <= maxName && isNameByte(data[i]) {
		i++
	}
	switch {
	case i-len(toolPrefix) > maxName:
		return 0, ""
	case i == len(data):
		if eof {
			return 0, ""
		}
		return -1, ""
	case data[i] != '>' || i == len(toolPrefix):
		return 0, ""
	}
	return i + 1, string(data[len(toolPrefix):i])
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// thinking handles the inside of <thinking>: nothing but </thinking> is a tag.
func (p *parser) thinking(data []byte, eof bool) int {
	n, closed := p.Inside(syntax.Think, data, eof, closeThinking)
	if closed {
		p.state = inText
	}
	return n
}

func (p *parser) openTool(name string, tag []byte) {
	p.state = inTool
	p.name = name
	p.closeTag = "</tool:" + name + ">"
	p.start = p.Pos()
	p.blk.Reset()
	p.keepBytes(tag)
	if p.Options().Mode == syntax.TokenMode {
		p.tok = valueStream{pos: len(tag), held: p.tok.held[:0]}
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name})
	}
}

// streamValues sends, in token mode, the value text that has arrived.
func (p *parser) streamValues(final bool) {
	t := &p.tok
	for !t.stopped && !p.blk.Over && t.pos < len(p.blk.Bytes) {
		rest := p.blk.Bytes[t.pos:]
		lt := bytes.IndexByte(rest, '<')
		if t.key == "" { // between params: only a <param:KEY> matters
			if lt < 0 {
				t.pos = len(p.blk.Bytes)
				return
			}
			typ, n := tagAt(rest[lt:])
			if n == 0 && !final && bytes.IndexByte(rest[lt:], '>') < 0 {
				return // a tag may be cut off: wait
			}
			if typ == tokParamOpen {
				t.key, t.atStart, t.held = tagName(string(rest[lt:lt+n])), true, t.held[:0]
				t.pos += lt + n
				p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: t.key})
				continue
			}
			t.pos += lt + max(n, 1)
			continue
		}
		text := rest
		if lt >= 0 {
			text = rest[:lt]
		}
		p.sendValue(text, lt < 0 && !final)
		t.pos += len(text)
		if lt < 0 {
			return
		}
		typ, n := tagAt(rest[lt:])
		switch {
		case n == 0 && !final && bytes.IndexByte(rest[lt:], '>') < 0:
			return // a tag may be cut off: wait
		case n == 0: // a '<' that starts no tag of ours is text
			p.sendValue([]byte("<"), true)
			t.pos++
		case typ == tokParamClose && tagName(string(rest[lt:lt+n])) == t.key:
			// The value's last line end is dropped; whatever else was held
			// (the bytes of a character the chunks cut) is the value's end.
			held := t.held
			if bytes.HasSuffix(held, []byte("\r\n")) {
				held = held[:len(held)-2]
			} else if bytes.HasSuffix(held, []byte("\n")) {
				held = held[:len(held)-1]
			}
			if len(held) > 0 {
				p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: t.key, Delta: string(held)})
			}
			t.key, t.held = "", t.held[:0]
			t.pos += n
		default:
			t.stopped = true
		}
	}
}

// sendValue sends value text, dropping the value's first newline and
// holding back what may yet be dropped or cut.
func (p *parser) sendValue(text []byte, more bool) {
	t := &p.tok
	buf := append(t.held, text...)
	t.held = nil
	if t.atStart {
		if len(buf) < 2 && more && (len(buf) == 0 || buf[0] == '\r') {
			t.held = buf // "\r" may be the start of the "\r\n" to drop
			return
		}
		t.atStart = len(buf) == 0
		if bytes.HasPrefix(buf, []byte("\r\n")) {
			buf = buf[2:]
		} else if bytes.HasPrefix(buf, []byte("\n")) {
			buf = buf[1:]
		}
	}
	keep := 0
	switch {
	case bytes.HasSuffix(buf, []byte("\r\n")):
		keep = 2
	case bytes.HasSuffix(buf, []byte("\n")), bytes.HasSuffix(buf, []byte("\r")):
		keep = 1
	}
	cut := scan.CompleteUTF8(buf[:len(buf)-keep])
	send := buf[:cut]
	t.held = append(t.held[:0:0], buf[cut:]...)
	if len(send) > 0 {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: t.key, Delta: string(send)})
	}
}

// tool stores the tool's bytes up to its close tag </tool:NAME>, the first
// one: the block's structure is read when it is complete.
func (p *parser) tool(data []byte, eof bool) int {
	if i := bytes.Index(data, []byte(p.closeTag)); i >= 0 {
		n := i + len(p.closeTag)
		p.keepBytes(data[:n])
		if p.Options().Mode == syntax.TokenMode {
			p.streamValues(true)
		}
		p.closeTool()
		return n
	}
	n := len(data)
	if !eof {
		n -= scan.PartialSuffix(data, p.closeTag)
	}
	p.keepBytes(data[:n])
	if p.Options().Mode == syntax.TokenMode {
		p.streamValues(false)
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
	args, perr := parseTool(p.blk.Bytes, p.name)
	if perr != nil {
		p.Errorf(syntax.CodeMalformed, p.start, span, p.blk.Bytes, "<tool:%s> at %s: %s", p.name, scan.Advance(p.start, p.blk.Bytes[:perr.off]), perr.msg)
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
