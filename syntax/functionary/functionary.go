package functionary

import (
	"bytes"
	"fmt"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the functionary syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "functionary",
	Aliases:     []string{"functionary-v3.2"},
	Description: `Functionary v3.2: segments RECIPIENT\n…, the first after the prompt's >>>, each later one after >>>: all for text, NAME for {JSON} arguments, python for code`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	CompleteAt:  completeAt,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"*functionary*v3.2*"},
	Templates: []syntax.Fingerprint{
		{All: []string{">>>all"}},
	},
	Variants: []syntax.Variant{
		{Name: "functionary-v2", Description: `Functionary v2: segments <|from|>assistant\n<|recipient|>RECIPIENT\n<|content|>…, the reply ended by <|stop|>`,
			Render: newRendererV2, Prompt: promptV2, Models: []string{"*functionary*v2*"},
			Templates: []syntax.Fingerprint{{All: []string{"<|recipient|>", "<|content|>", "<|stop|>"}}}},
	},
}

const promptRules = `Your reply is a sequence of segments, each starting with its recipient on a line of its own: the first right away, every later one after >>>.
all
Text for the user.>>>get_weather
{"city": "Paris"}
- The recipient all starts text for the user; a function's name starts a call, its arguments one JSON object on the next line.
- python starts code for the python tool, written as it is.
- Calls in one reply run together; their results come back in the next messages.`

const promptV2 = `Your reply is a sequence of segments. The first starts right away with its recipient, a line end and <|content|>; every later one after a line end, <|from|>assistant, a line end and <|recipient|>. End the reply with <|stop|>.
all
<|content|>Text for the user.
<|from|>assistant
<|recipient|>get_weather
<|content|>{"city": "Paris"}<|stop|>
- The recipient all starts text for the user; a function's name starts a call, its arguments one JSON object after <|content|>.
- python starts code for the python tool, written as it is.
- Calls in one reply run together; their results come back in the next messages.`

const (
	sep      = ">>>"
	all      = "all"
	python   = "python"
	maxRecip = 64 // the longest recipient looked for

	// Functionary v2's markers: a segment starts after sepV2 (or the
	// prompt's), its head is RECIPIENT, a line end and contentMark, and
	// stopV2 ends the reply.
	sepV2       = "<|from|>assistant\n<|recipient|>"
	contentMark = "<|content|>"
	stopV2      = "<|stop|>"
	leads       = "><" // what the markers start with: >>>, <|from|>, <|stop|>
)

type state uint8

const (
	stStart   state = iota // the output's start: a segment head, or text
	stText                 // text for the user, up to a >>> that opens a segment
	stArgs                 // a call's JSON arguments
	stAfter                // after them: white space, then >>>, the end, or text
	stPython               // after python's head: '{' starts JSON arguments, anything else code
	stCode                 // python code, up to a >>> that opens a segment, or the end
	stSwallow              // a broken call: its segment, up to the next one, is its error's
)

type parser struct {
	scan.Core
	state   state
	segAt   syntax.Pos // where the open segment starts (its >>>, or its recipient)
	name    string
	headLen int        // the open segment's head in blk (its separator, recipient and line end)
	form    form       // the reply's form, once a head or separator decided it
	blk     scan.Block // the open call's segment
	js      jsonscan.JSON
	calls   int
	index   int
	errCode syntax.Code
	errMsg  string
	inCode  bool // the input ended inside code (for completeAt)
}

func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	switch p.state {
	case stText:
		return p.text(data, eof)
	case stArgs:
		return p.args(data)
	case stAfter:
		return p.after(data, eof)
	case stPython:
		p.state = stCode
		if data[0] == '{' {
			p.state = stArgs
		}
		return scan.Again
	case stCode, stSwallow:
		return p.untilSegment(data, eof)
	}
	return p.start(data, eof)
}

// form is which generation's markers a reply is read with.
type form uint8

const (
	formAny form = iota // not decided: a reply that starts with text reads either's separator
	formV3              // v3.2: >>> and RECIPIENT\n
	formV2              // v2: <|from|>assistant\n<|recipient|>, RECIPIENT\n<|content|>, <|stop|>
)

const (
	headNo = iota
	headYes
	headWait
)

// headV2 reads a Functionary v2 head at the start of data: RECIPIENT (as
// in v3.2), a line end and <|content|>, then, for a function, '{' at once.
func headV2(data []byte, eof bool) (int, int, string) {
	i := 0
	for i < len(data) && data[i] != '\n' {
		if i >= maxRecip || !isRecipientByte(data[i]) {
			return headNo, 0, ""
		}
		i++
	}
	switch {
	case i == len(data) && !eof:
		return headWait, 0, ""
	case i == len(data) || i == 0:
		return headNo, 0, ""
	}
	full, partial := scan.MatchPrefix(data[i+1:], contentMark)
	switch {
	case partial && !eof:
		return headWait, 0, ""
	case !full:
		return headNo, 0, ""
	}
	word, n := string(data[:i]), i+1+len(contentMark)
	if word != all && word != python {
		switch {
		case n == len(data) && !eof:
			return headWait, 0, ""
		case n == len(data) || data[n] != '{':
			return headNo, 0, ""
		}
	}
	return headYes, n, word
}

func isRecipientByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// headV3 reads a Functionary v3.2 segment head at the start of data:
// RECIPIENT and a line end, RECIPIENT being a word of letters, digits, '_',
// '-' and '.' — all, python, or a function's name that '{' follows at once
// (its arguments). It returns the verdict, the head's length (line end
// included) and the word.
func headV3(data []byte, eof bool) (int, int, string) {
	for i, c := range data {
		switch {
		case i >= maxRecip:
			return headNo, 0, ""
		case c == '\n':
			if i == 0 {
				return headNo, 0, ""
			}
			word := string(data[:i])
			switch {
			case word == all || word == python:
				return headYes, i + 1, word
			case i+1 == len(data) && !eof:
				return headWait, 0, ""
			case i+1 < len(data) && data[i+1] == '{':
				return headYes, i + 1, word
			}
			return headNo, 0, ""
		case !isRecipientByte(c):
			return headNo, 0, ""
		}
	}
	if eof {
		return headNo, 0, ""
	}
	return headWait, 0, ""
}

// start reads the output's start, where the prompt's >>> stands before it:
// a segment head opens the first segment; anything else is text.
func (p *parser) start(data []byte, eof bool) int {
	v, n, word := headV2(data, eof)
	f := formV2
	if v == headNo {
		v, n, word = headV3(data, eof)
		f = formV3
	}
	switch v {
	case headWait:
		return 0
	case headNo:
		p.state = stText
		return scan.Again
	}
	p.form = f
	p.segAt = p.Pos()
	p.open(word, data[:n])
	return n
}

// open starts the segment whose head is h, for word.
func (p *parser) open(word string, h []byte) {
	p.EndRun()
	p.Evident(p.Offset()) // a segment opens: the detector's evidence
	if word == all {
		p.state = stText
		return
	}
	p.name = word
	p.blk.Reset()
	p.Keep(&p.blk, h)
	p.headLen = len(h)
	p.js.Reset(p.Options().DepthLimit())
	p.state = stArgs
	if word == python {
		p.state = stPython
	}
}

// sepHead matches >>> and a v3.2 segment head, or v2's separator and its
// head, at the start of data: those of the reply's form, once decided.
// A head that matches decides the form.
func (p *parser) sepHead(data []byte, eof bool) (int, int, string) {
	for _, d := range [...]struct {
		form form
		sep  string
		head func([]byte, bool) (int, int, string)
	}{{formV3, sep, headV3}, {formV2, sepV2, headV2}} {
		if p.form != formAny && p.form != d.form {
			continue
		}
		full, partial := scan.MatchPrefix(data, d.sep)
		switch {
		case partial && !eof:
			return headWait, 0, ""
		case full:
			v, n, word := d.head(data[len(d.sep):], eof)
			if v == headYes {
				p.form = d.form
			}
			return v, len(d.sep) + n, word
		}
	}
	return headNo, 0, ""
}

// stop matches v2's <|stop|> at the start of data, unless the reply is in
// v3.2's form.
func (p *parser) stop(data []byte, eof bool) (yes, wait bool) {
	if p.form == formV3 {
		return false, false
	}
	full, partial := scan.MatchPrefix(data, stopV2)
	return full, partial && !eof
}

// text is text for the user, up to a >>> (or v2's separator) that opens a
// segment; v2's <|stop|> ends the reply and is passed over.
func (p *parser) text(data []byte, eof bool) int {
	if n := p.TextBeforeAny(syntax.Respond, data, leads); n > 0 {
		return n
	}
	off := p.Offset()
	if yes, wait := p.stop(data, eof); yes {
		p.EndRunAt(off + int64(len(stopV2)))
		p.Evident(off) // v2's own token
		return len(stopV2)
	} else if wait {
		return 0
	}
	v, n, word := p.sepHead(data, eof)
	switch v {
	case headWait:
		return 0
	case headYes:
		p.segAt = p.Pos()
		p.open(word, data[:n])
		return n
	}
	p.Text(syntax.Respond, data[:1], off)
	return 1
}

// args reads a call's JSON arguments; python's segment comes here when it
// starts with '{'.
func (p *parser) args(data []byte) int {
	n := p.js.Scan(data)
	p.Keep(&p.blk, data[:n])
	switch {
	case p.js.Done():
		p.call(p.name, nil, p.segAt.Offset+p.blk.Len)
		p.state = stAfter
	case p.js.Err() != nil:
		p.errCode, p.errMsg = p.js.Err().Code(), fmt.Sprintf("invalid JSON in the arguments of %s: %s", p.name, p.js.Err().Msg())
		p.state = stSwallow
	}
	if n == 0 {
		return scan.Again
	}
	return n
}

// call emits the open call, whose span ends at end: its arguments are the
// JSON read, or code.
func (p *parser) call(name string, code []byte, end int64) {
	span := syntax.Span{Start: p.segAt.Offset, End: end}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.segAt, span, nil, "call %s longer than the limit of %d bytes", name, p.Options().BlockLimit())
		return
	}
	var args []byte
	if code != nil {
		args = append(syntax.AppendQuote([]byte(`{"code":`), string(code)), '}')
	} else {
		a, k, ok := jsoncall.Args(p.blk.Bytes[bytes.IndexByte(p.blk.Bytes, '{'):], 0)
		if !ok {
			p.Errorf(syntax.CodeMalformed, p.segAt, span, bytes.Clone(p.blk.Bytes), "the arguments of %s are %s, not an object", name, jsonscan.KindName(k))
			return
		}
		args = a
	}
	if p.Options().Mode == syntax.TokenMode {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: p.index, Span: span})
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: p.index, Delta: string(args), Span: span})
		p.index++
	}
	p.calls++
	p.Emit(syntax.Event{Type: syntax.Call, Name: name, Args: args, Pos: p.segAt, Span: span})
}

// after reads what follows a call's arguments: white space (no event's),
// then a >>> that opens a segment, the end, or text.
func (p *parser) after(data []byte, eof bool) int {
	if i := jsonscan.SkipSpace(data, 0); i > 0 {
		return i
	}
	p.state = stText
	return scan.Again
}

// untilSegment reads python code, or a broken call's rest, up to a >>>
// that opens a segment or the end of the input.
func (p *parser) untilSegment(data []byte, eof bool) int {
	i := 0
	for i < len(data) {
		k := bytes.IndexAny(data[i:], leads)
		if k < 0 {
			i = len(data)
			break
		}
		i += k
		v, _, _ := p.sepHead(data[i:], eof)
		if yes, wait := p.stop(data[i:], eof); yes {
			v = headYes // v2's end of the reply ends the segment too
		} else if wait {
			v = headWait
		}
		if v == headWait {
			p.Keep(&p.blk, data[:i])
			return i
		}
		if v == headYes {
			p.Keep(&p.blk, data[:i])
			p.endSegment()
			p.state = stText
			return i
		}
		i++
	}
	p.Keep(&p.blk, data[:i])
	return i
}

// endSegment ends python code or a broken call at the end of its segment.
func (p *parser) endSegment() {
	if p.state == stSwallow {
		span := syntax.Span{Start: p.segAt.Offset, End: p.segAt.Offset + p.blk.Len}
		var raw []byte
		if !p.blk.Over {
			raw = bytes.Clone(p.blk.Bytes)
		}
		p.Errorf(p.errCode, p.segAt, span, raw, "%s; the rest of its segment is the broken call's", p.errMsg)
		return
	}
	if p.blk.Over {
		p.call(python, nil, p.segAt.Offset+p.blk.Len) // an over_limit error
		return
	}
	code := p.blk.Bytes[min(p.headLen, len(p.blk.Bytes)):]
	trimmed := bytes.TrimRight(code, " \t\r\n") // the white space after the code is no call's
	end := p.segAt.Offset + p.blk.Len - int64(len(code)-len(trimmed))
	if len(bytes.TrimSpace(trimmed)) == 0 {
		p.Errorf(syntax.CodeMalformed, p.segAt, syntax.Span{Start: p.segAt.Offset, End: p.segAt.Offset + p.blk.Len}, bytes.Clone(p.blk.Bytes), "python with no code after it")
		return
	}
	p.call(python, bytes.Clone(trimmed), end)
}

func (p *parser) finish(end int64) {
	switch p.state {
	case stArgs:
		span := syntax.Span{Start: p.segAt.Offset, End: end}
		var raw []byte
		if !p.blk.Over {
			raw = bytes.Clone(p.blk.Bytes)
		}
		p.Errorf(syntax.CodeTruncated, p.segAt, span, raw, "truncated call %s: the stream ended inside its JSON arguments", p.name)
	case stPython, stCode, stSwallow:
		p.inCode = p.state == stCode
		p.endSegment()
	}
	p.EndRun()
	if p.calls > 0 {
		p.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: end, End: end}})
	}
}

// completeAt reports whether input, cut off where it ends, ends inside
// python code: code has no terminator but the next segment or the end, so
// any cut of it is a complete (shorter) call.
func completeAt(input []byte) bool {
	p := newParser(func(syntax.Event) {}, syntax.Options{}).(*parser)
	p.Write(input)
	p.Close()
	return p.inCode
}
