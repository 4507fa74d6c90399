package tagcall

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// The word-name form: Scope.Open, white space, NAME, the body, Scope.Close
// (GLM's <tool_call>NAME<arg_key>…</tool_call>).

// wordOpener handles a possible call opener at the start of data: it
// returns the bytes taken (the call started), -1 when more input is
// needed, 0 when data starts with none.
func (p *parser) wordOpener(data []byte, eof bool) int {
	if full, _ := scan.MatchPrefix(data, p.f.Scope.Open); full && p.f.scopeEvidence() {
		p.Evident(p.Offset()) // the format's own tag, whatever follows it
	}
	n, nameAt, nameLen := p.f.wordTag(data, eof)
	if n == cutOff { // the end of the input, after Scope.Open and perhaps a name
		p.EndRun()
		p.Errorf(syntax.CodeTruncated, p.Pos(), syntax.Span{Start: p.Offset(), End: p.Offset() + int64(len(data))}, data,
			"unterminated tool call: the stream ended after %s", bytes.TrimSpace(data))
		return len(data)
	}
	if n == 0 && p.f.Reopens {
		if full, _ := scan.MatchPrefix(data, p.f.Scope.Open); full {
			// The format's own token opens a call whatever follows it: one
			// with no name is an error up to its closer or the next opener.
			p.called(p.Offset())
			p.openWordCall(data[:len(p.f.Scope.Open)], nil)
			p.nameErr = "no name after " + p.f.Scope.Open + " (one word, then a line end, a parameter or the closer)"
			p.bodyAt = 0 // no body is read
			return len(p.f.Scope.Open)
		}
	}
	if n <= 0 {
		return n
	}
	p.called(p.Offset())
	p.openWordCall(data[:n], data[nameAt:nameAt+nameLen])
	return n
}

// wordTag matches a call's start at the start of data: Scope.Open, white
// space, NAME, then (after spaces or tabs) a line end, Param.Open or
// Scope.Close — or NameClose, when the format has one, which the match
// takes in. NAME is 1 to MaxName bytes, none of them white space or one
// of <>{}[]"'. It returns the bytes up to NAME's end (n > 0) and where NAME
// is; 0 when data starts with no opener (the tag is text: Hermes writes '{'
// after it, Qwen3-Coder '<function='); -1 when more input is needed;
// cutOff when the input ends after the tag, in white space or a name.
func (f *Format) wordTag(data []byte, eof bool) (n, nameAt, nameLen int) {
	open := f.Scope.Open
	full, partial := scan.MatchPrefix(data, open)
	if !full {
		if partial && !eof {
			return -1, 0, 0
		}
		return 0, 0, 0
	}
	i := len(open) + skipWS(data[len(open):])
	at := i
	for i < len(data) && i-at <= MaxName && isNameByte(data[i]) {
		i++
	}
	end := i
	switch {
	case end-at > MaxName || at-len(open) > maxOpener:
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
	if c := f.NameClose; c != "" {
		full, partial := scan.MatchPrefix(data[i:], c)
		switch {
		case full:
			return i + len(c), at, end - at
		case partial && !eof:
			return -1, 0, 0
		case partial:
			return cutOff, 0, 0 // the separator cut off by the end of the input
		}
	}
	if data[i] == '\n' {
		return end, at, end - at
	}
	for _, m := range [...]string{f.Param.Open, f.Scope.Close} {
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

// cutOff is what wordTag returns for a call opener cut off by the end of
// the input.
const cutOff = -2

func isNameByte(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '<', '>', '{', '}', '[', ']', '"', '\'':
		return false
	}
	return true
}

// openWordCall starts a call: tag is Scope.Open, white space and the name.
func (p *parser) openWordCall(tag, name []byte) {
	p.EndRun() // a call opener also ends reasoning opened by the prompt
	p.batch.Open()
	p.state = inCall
	p.start = p.Pos()
	p.blk.Reset()
	p.Keep(&p.blk, tag)
	p.name, p.nameErr = p.names.Intern(name), ""
	p.bodyAt = len(tag)
	p.rd.Reset(&p.f.Param, p.Options().Mode == syntax.TokenMode)
	if p.Options().Mode == syntax.TokenMode && len(name) > 0 {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: p.name, Span: p.span(0, len(tag))})
	}
}
