package xmltag

import (
	"bytes"
	"strings"

	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
)

// A tool block is read by one hand-written pass over its bytes as they
// arrive (readBlock, called each time the splitter in xmltag.go keeps more of
// them): it finds the tags, checks their order, adds each param to the
// arguments when its close tag comes and, in token mode, streams the values.
// When the close tag </tool:NAME> is found, what is left is to look at
// whether a param is still open; the block is never walked a second time.
//
// The block, its open tag first, is a sequence of tags and text:
//
//	block = { space | param } .
//	param = <param:KEY> { text } </param:KEY> .
//
// where text is anything but one of our tags (a '<' that starts none is
// text) and space is text made only of ' ', '\t', '\r' and '\n'. The first
// thing that does not fit is the block's error, reported at its offset:
//
//   - between params: text that is not white space (at its first byte that is
//     not), <tool:…>, a close tag other than the block's own, </param:…>;
//   - inside <param:KEY>: <param:…>, <tool:…>, </tool:…>, a </param:…> with
//     another key;
//   - at the block's close tag: a param still open.

// The tags of a tool block.
type tagKind uint8

const (
	toolOpenTag tagKind = iota + 1
	toolCloseTag
	paramOpenTag
	paramCloseTag
)

var tagPrefixes = [...]struct {
	prefix string
	kind   tagKind
}{
	{"<tool:", toolOpenTag}, {"</tool:", toolCloseTag}, {"<param:", paramOpenTag}, {"</param:", paramCloseTag},
}

// tagAt reports whether b, which starts with '<', starts with one of our
// tags (a prefix, a name of at least one name byte, '>'), its kind and its
// length n. n == 0: it starts none. n < 0: b ends before that can be told,
// and -n of its bytes were read; an earlier call that could not tell passes
// that count as from, so that the bytes of a long name are read once.
func tagAt(b []byte, from int) (tagKind, int) {
	if len(b) > 1 && b[1] != 't' && b[1] != 'p' && b[1] != '/' {
		return 0, 0 // the common '<' in code
	}
	for _, tp := range tagPrefixes {
		full, partial := matchPrefix(b, tp.prefix)
		if partial {
			return 0, -len(b)
		}
		if !full {
			continue
		}
		i := max(from, len(tp.prefix))
		for i < len(b) && isNameByte(b[i]) {
			i++
		}
		switch {
		case i == len(b):
			return 0, -i
		case i > len(tp.prefix) && b[i] == '>':
			return tp.kind, i + 1
		}
		return 0, 0
	}
	return 0, 0
}

// matchPrefix is scan.MatchPrefix for a b that starts with '<': full when b
// starts with prefix, partial when b is a proper prefix of it.
func matchPrefix(b []byte, prefix string) (full, partial bool) {
	if len(b) >= len(prefix) {
		return string(b[:len(prefix)]) == prefix, false
	}
	return false, string(b) == prefix[:len(b)]
}

// reader is the state of the pass over the open tool's block.
type reader struct {
	pos   int    // offset in the block of the first byte not read
	read  int    // bytes read of a possible tag at pos that was cut off
	key   string // the open param's key, or "" between params
	valAt int    // offset in the block of the open param's value
	args  params.Params

	errAt int    // offset in the block of the first problem, or -1
	msg   string // its message; "" for text between params (written at the end)

	// Token mode: the open param's value as it arrives.
	atStart bool   // no byte of the value sent or held yet
	held    []byte // a line end (or a character's first bytes) held back
	heldAt  int    // where in the block the held bytes are
	joined  []byte // scratch: held bytes and new text together
}

func (r *reader) reset(pos int) {
	r.args.Reset() // the arguments of a call that was not taken; its buffers are kept for the next
	*r = reader{pos: pos, errAt: -1, args: r.args, held: r.held[:0], joined: r.joined[:0]}
	if cap(r.joined) > 64<<10 {
		r.joined = nil // do not keep a large value's memory for the rest of the stream
	}
}

func (r *reader) fail(at int, msg string) { r.errAt, r.msg = at, msg }

var ltByte = []byte{'<'}

// readBlock reads the block's bytes that have not been read. final: the
// block is complete, its last bytes are its close tag, which is not read.
func (p *parser) readBlock(final bool) {
	r := &p.rd
	b := p.blk.Bytes
	if final {
		b = b[:len(b)-len(p.closeTag)]
	}
	token := p.Options().Mode == syntax.TokenMode
	for r.errAt < 0 && r.pos < len(b) {
		rest := b[r.pos:]
		lt := bytes.IndexByte(rest, '<') // 0 when a tag was cut off at pos
		if lt < 0 {
			lt = len(rest)
		}
		if r.key == "" {
			if i := firstNonSpace(rest[:lt]); i >= 0 {
				r.fail(r.pos+i, "")
				return
			}
		} else if token {
			p.sendValue(rest[:lt], r.pos, lt == len(rest) && !final)
		}
		r.pos += lt
		if lt == len(rest) {
			return
		}
		kind, n := tagAt(b[r.pos:], r.read)
		if n < 0 {
			if !final {
				r.read = -n
				return
			}
			n = 0
		}
		r.read = 0
		if n == 0 { // a '<' that starts no tag is text
			if r.key == "" {
				r.fail(r.pos, "")
				return
			}
			if token {
				p.sendValue(ltByte, r.pos, true)
			}
			r.pos++
			continue
		}
		p.readTag(kind, b[r.pos:r.pos+n], token)
		r.pos += n
	}
}

// readTag takes the tag at the reader's position.
func (p *parser) readTag(kind tagKind, tag []byte, token bool) {
	r := &p.rd
	name := tag[bytes.IndexByte(tag, ':')+1 : len(tag)-1]
	if r.key == "" {
		switch kind {
		case paramOpenTag:
			r.key, r.valAt = p.intern(name), r.pos+len(tag)
			if token {
				r.atStart, r.held = true, r.held[:0]
				p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Param: r.key, Span: p.blockSpan(r.pos, r.pos+len(tag))})
			}
		case paramCloseTag:
			r.fail(r.pos, "close tag "+string(tag)+" with no open <param:"+string(name)+">")
		case toolOpenTag:
			r.fail(r.pos, "nested tool "+string(tag)+" inside "+toolPrefix+p.name+">")
		case toolCloseTag:
			r.fail(r.pos, "mismatched close tag "+string(tag)+" inside "+toolPrefix+p.name+">")
		}
		return
	}
	switch {
	case kind == paramCloseTag && string(name) == r.key:
		r.args.AddBytes(r.key, value(p.blk.Bytes[r.valAt:r.pos]))
		if token {
			p.endValue(r.pos)
		}
		r.key = ""
	case kind == paramCloseTag:
		r.fail(r.pos, "mismatched close tag "+string(tag)+" for <param:"+r.key+">")
	case kind == paramOpenTag:
		r.fail(r.pos, "nested "+string(tag)+" inside <param:"+r.key+">")
	case kind == toolOpenTag:
		r.fail(r.pos, "nested tool "+string(tag)+" inside <param:"+r.key+">")
	case kind == toolCloseTag:
		r.fail(r.pos, "mismatched close tag "+string(tag)+" inside <param:"+r.key+">")
	}
}

// endBlock finishes the pass over a complete block (read with final): it
// returns the arguments as a JSON object, or the offset and message of the
// block's first problem.
func (p *parser) endBlock() (args []byte, errAt int, msg string) {
	r := &p.rd
	content := p.blk.Bytes[:len(p.blk.Bytes)-len(p.closeTag)]
	if r.errAt < 0 && r.key != "" {
		r.fail(len(content), "<param:"+r.key+"> is not closed before "+p.closeTag)
	}
	if r.errAt >= 0 {
		if r.msg == "" {
			r.msg = "text between params (only white space may stand outside <param:…> tags): " + quoteClip(strings.TrimSpace(string(textFrom(content, r.errAt))))
		}
		return nil, r.errAt, r.msg
	}
	return r.args.JSON(), -1, ""
}

// textFrom returns the text of b from off up to the next of our tags.
func textFrom(b []byte, off int) []byte {
	for i := off + 1; i < len(b); i++ {
		if b[i] == '<' {
			if _, n := tagAt(b[i:], 0); n > 0 {
				return b[off:i]
			}
		}
	}
	return b[off:]
}

// firstNonSpace returns the index of the first byte of b that is not ' ',
// '\t', '\r' or '\n', or -1.
func firstNonSpace(b []byte) int {
	for i, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return i
		}
	}
	return -1
}

// intern returns name as a string, the same string each time for the short
// names a stream repeats, so that a key is not allocated once per param.
func (p *parser) intern(name []byte) string {
	if s, ok := p.names[string(name)]; ok {
		return s
	}
	s := string(name)
	if len(name) <= 64 {
		if p.names == nil {
			p.names = make(map[string]string)
		} else if len(p.names) >= 256 {
			clear(p.names) // keeps its room: many distinct keys allocate no map after map
		}
		p.names[s] = s
	}
	return s
}

// value removes one leading and one trailing newline (LF or CRLF).
func value(v []byte) []byte {
	if bytes.HasPrefix(v, crlf) {
		v = v[2:]
	} else if bytes.HasPrefix(v, lf) {
		v = v[1:]
	}
	if bytes.HasSuffix(v, crlf) {
		v = v[:len(v)-2]
	} else if bytes.HasSuffix(v, lf) {
		v = v[:len(v)-1]
	}
	return v
}

var crlf, lf = []byte("\r\n"), []byte("\n")

func quoteClip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return `"` + s + `"`
}
