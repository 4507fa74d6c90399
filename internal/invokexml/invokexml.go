// Package invokexml reads the invoke/parameter XML that several model
// formats write their calls in, inside a section opened by a marker of the
// syntax's own:
//
//	<invoke name="get_weather">
//	<parameter name="city">Paris</parameter>
//	</invoke>
//
// MiniMax-M2 (<minimax:tool_call>), Anthropic's legacy <function_calls>,
// GCML and DeepSeek V3.2's DSML (the same tags with a prefix, each
// parameter saying string="true|false") share it, and MiniMax M3 and Kimi
// K3, whose invokes hold elements or tags they read themselves (Tags.Body;
// K3's invoke tag is <|open|>call tool="NAME"<|sep|>: Tags.NameAttr,
// TagEnd), and Muse Glimmer's ATEM blocks (<atem:invoke>, each in a message
// whose recipient the invoke must name: Reader.Check). A [Reader] is a sub-step
// of a syntax's scan step: the syntax consumes the section's opener and hands
// the bytes after it to [Reader.Step] until it says the section is over.
//
// Values are raw text (no escaping). A parameter's closer ends its value
// only when what follows it, after optional white space, is the next
// structural tag (the opener of a parameter with its name attribute, or the
// invoke's closer); otherwise it is part of the value. When a value's closer
// is missing, the invoke's closer ends it. The look-ahead is bounded by the
// longest marker: the closer and the white space after it are consumed as
// they come and given back to the value if they turn out to be content.
package invokexml

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Tags name the markers of one dialect.
type Tags struct {
	Syntax     string // the syntax's name, for messages
	Invoke     string // the invoke tag's name with its '<': "<invoke"
	InvokeEnd  string // "</invoke>"
	Param      string // the parameter tag's name with its '<': "<parameter"
	ParamEnd   string // "</parameter>"
	SectionEnd string // the section's closer: "</minimax:tool_call>"
	// Typed says that each parameter carries string="true|false" (DSML):
	// with "false" the value is JSON (kept as a string when it is not valid
	// JSON). Without it every value is a string. With Body, it says Body's
	// values have the types the model gave them (Kimi K3's typed
	// arguments), not strings a tool schema converts.
	Typed bool
	// Body, when set, reads an invoke's arguments in place of parameter
	// tags (MiniMax M3's elements named after their keys): the invoke is
	// kept whole up to InvokeEnd, and Body reads what stands between its
	// tag and InvokeEnd into a JSON object, or returns a problem at offset
	// at of body, which makes the invoke an error. Unless Typed, its values
	// are the strings the model wrote (Event.Strings, when there are any). In
	// token mode such a call is announced at its tag and given whole at
	// its closer.
	Body func(body []byte, depth int) (args []byte, at int, problem string)
	// NameAttr is the invoke tag's attribute that names the call ("name"
	// when empty; Kimi K3 writes tool="NAME").
	NameAttr string
	// TagEnd ends the invoke tag in place of '>' (Kimi K3's <|sep|>); such
	// a tag does not close itself.
	TagEnd string
	// Entities says the invoke tag's attribute values are XML-escaped:
	// &amp; &quot; &apos; &lt; &gt; in the name are read as the characters
	// (Kimi K3's template escapes them).
	Entities bool
}

// nameAttr is the invoke tag's attribute that names the call.
func (t *Tags) nameAttr() string {
	if t.NameAttr != "" {
		return t.NameAttr
	}
	return "name"
}

// tagEnd is what ends the invoke tag.
func (t *Tags) tagEnd() string {
	if t.TagEnd != "" {
		return t.TagEnd
	}
	return ">"
}

// shown is the invoke tag of a call named name as messages show it, the
// name as read, quoted as Go quotes it (<invoke name="N">); with name ""
// the name is an ellipsis (<invoke name=…>).
func (t *Tags) shown(name string) string {
	if name == "" {
		return t.Invoke + " " + t.nameAttr() + "=…" + t.tagEnd()
	}
	return t.Invoke + " " + t.nameAttr() + "=" + strconv.Quote(name) + t.tagEnd()
}

// Tag is the invoke tag of a call named name as a renderer writes it (the
// name escaped with Entities): <invoke name="N">.
func (t *Tags) Tag(name string) string {
	if t.Entities {
		name = escaper.Replace(name)
	}
	return t.Invoke + " " + t.nameAttr() + `="` + name + `"` + t.tagEnd()
}

// escaper writes the entities Unescape reads where an attribute's value
// needs them (in double quotes).
var escaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

// invokeAt matches an invoke tag at the start of data (see tagAt).
func (t *Tags) invokeAt(data []byte, eof bool) (int, tagAttrs) {
	return tagAt(data, t.Invoke, t.tagEnd(), t.nameAttr(), eof)
}

var entities = strings.NewReplacer("&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&")

// Unescape reads the five XML entities (&amp; &quot; &apos; &lt; &gt;) in
// an attribute's value v.
func Unescape(v []byte) string {
	if bytes.IndexByte(v, '&') < 0 {
		return string(v)
	}
	return entities.Replace(string(v))
}

// callName is the call's name as the invoke tag's attribute value v gives it.
func (t *Tags) callName(v []byte) string {
	if t.Entities {
		return Unescape(v)
	}
	return string(v)
}

// maxTag bounds an opening tag's length: a longer "<invoke …" is not a tag.
const maxTag = 1024

type state uint8

const (
	sBetween state = iota // between invokes
	sInvoke               // inside an invoke, between parameters
	sValue                // inside a parameter's value
	sCloser               // after a parameter closer inside a value: is it the value's end?
	sBad                  // a malformed invoke: skipping to its closer
	sWhole                // an invoke Tags.Body reads, kept up to its closer
)

// Reader reads one section at a time. The zero value is not ready: call
// [Reader.Init].
type Reader struct {
	c    *scan.Core
	tags Tags

	// OnCall, if set, is called after each valid call is emitted, with
	// the offset where the call's section, or the call when it is not its
	// section's first, starts: the syntax's batch and its execute.
	OnCall func(name string, from int64)
	// Check, if set, is asked about each invoke's name as its tag is
	// read: it returns the name the call takes, or a problem that makes
	// the invoke an error (Glimmer's invoke must name the tool its message
	// is addressed to, and a name in its own namespace is the tool's).
	Check func(name string) (use, problem string)

	state     state
	open      string     // the section's opener
	openAt    syntax.Pos // where it starts
	invokes   int        // invokes seen in the section
	paramAttr string     // " name=" after Param: the structural look-ahead
	paramEnd  []byte     // Tags.ParamEnd
	invokeEnd []byte     // Tags.InvokeEnd
	ahead     scan.Ahead // finds a value's closer in the data at hand

	// The open invoke.
	name      string
	tagLen    int // its tag's bytes, at the start of blk
	start     syntax.Pos
	spanFrom  int64 // where its error span starts (the section opener for the first invoke)
	blk       scan.Block
	problem   string
	problemAt int64
	args      params.Params
	strs      bool // a value is a string the model wrote

	// The last invoke's error, held until the section's next invoke or its
	// end, so that its span takes in the section's closer.
	held markup.Held

	// The open parameter.
	key     []byte // its name (a copy the next parameter reuses)
	typed   bool   // string="false": JSON
	valIdx  int    // where its value starts in the block
	valAt   int64  // offset of val[0] in the input
	pend    int    // bytes consumed in sCloser (closer and white space), not yet in val
	pendAt  int64  // where they start
	sent    int    // token mode: bytes of val sent (after the first line end, if dropped)
	lead    bool   // token mode: the first line end is decided
	streams bool   // token mode: the value streams
}

// Init prepares r for the syntax whose core is c.
func (r *Reader) Init(c *scan.Core, tags Tags) {
	*r = Reader{c: c, tags: tags, paramAttr: tags.Param + " name=", paramEnd: []byte(tags.ParamEnd), invokeEnd: []byte(tags.InvokeEnd)}
}

// Open starts a section whose opener (open) was just consumed; it started
// at pos. end, if not empty, is the section's closer, in place of
// Tags.SectionEnd (a syntax with two kinds of section).
func (r *Reader) Open(open, end string, pos syntax.Pos) {
	r.state, r.open, r.openAt, r.invokes = sBetween, open, pos, 0
	if end != "" {
		r.tags.SectionEnd = end
	}
}

// Between reports whether the reader stands between invokes, where text
// ends the section at once (an event may come at any byte); inside an
// invoke every event comes at a tag's '>'.
func (r *Reader) Between() bool { return r.state == sBetween }

func (r *Reader) token() bool { return r.c.Options().Mode == syntax.TokenMode }

// Step consumes the bytes of the open section at the start of data, as a
// scan step does (0: more input is needed; scan.Again: a state change), and
// reports whether the section is over: its closer was read, or text that is
// not part of it begins (the section's end is missing; that text is the
// syntax's again).
func (r *Reader) Step(data []byte, eof bool) (n int, done bool) {
	switch r.state {
	case sInvoke:
		return r.inInvoke(data, eof), false
	case sValue:
		return r.inValue(data, eof), false
	case sCloser:
		return r.afterCloser(data, eof), false
	case sBad:
		return r.bad(data, eof)
	case sWhole:
		n, closed := markup.KeepUntil(&r.blk, r.c.Options().BlockLimit(), data, eof, r.tags.InvokeEnd)
		if closed {
			r.closeInvoke()
		}
		return n, false
	}
	return r.between(data, eof)
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func spaces(data []byte) int {
	i := 0
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// between handles the section between invokes.
func (r *Reader) between(data []byte, eof bool) (int, bool) {
	if i := spaces(data); i > 0 {
		return i, false
	}
	full, partial := scan.MatchPrefix(data, r.tags.SectionEnd)
	if full {
		end := r.c.Offset() + int64(len(r.tags.SectionEnd))
		r.flushHeld(end)
		if r.invokes == 0 {
			r.c.Errorf(syntax.CodeMalformed, r.openAt, syntax.Span{Start: r.openAt.Offset, End: end}, nil,
				"an empty %s section: it holds no call", r.open)
		}
		return len(r.tags.SectionEnd), true
	}
	wait := partial
	n, attrs := r.tags.invokeAt(data, eof)
	if n > 0 {
		if len(attrs.name) > 0 {
			r.openInvoke(r.tags.callName(attrs.name), data[:n])
			switch {
			case r.state == sBad && attrs.empty:
				r.reportBad()
				r.state = sBetween
			case r.state == sBad: // Check objected: skipped to its closer
			case attrs.empty:
				r.closeInvoke() // <invoke name="N"/>: a call with no arguments
			case r.tags.Body != nil:
				r.state = sWhole
			}
			return n, false
		}
	} else if n < 0 {
		wait = true
	}
	if wait && !eof {
		return 0, false
	}
	// Text: the section ends here, its closer missing.
	r.flushHeld(-1)
	if r.invokes == 0 {
		r.c.Errorf(syntax.CodeMalformed, r.openAt, syntax.Span{Start: r.openAt.Offset, End: r.c.Offset()}, []byte(r.open),
			"%s is followed by text, not %s", r.open, r.tags.shown(""))
	}
	return 0, true
}

// Finish reports, at the end of the input, what the open section left open.
func (r *Reader) Finish(end int64) {
	r.flushHeld(-1)
	switch r.state {
	case sBetween:
		if r.invokes == 0 {
			r.c.Errorf(syntax.CodeTruncated, r.openAt, syntax.Span{Start: r.openAt.Offset, End: end}, []byte(r.open),
				"unterminated %s: the stream ended before any call", r.open)
		}
	default:
		var raw []byte
		if !r.blk.Over {
			raw = r.blk.Bytes
		}
		what := r.tags.shown(r.name)
		if r.state == sValue || r.state == sCloser {
			what = "value of parameter " + strconv.Quote(string(r.key)) + " of " + what
		}
		r.c.Errorf(syntax.CodeTruncated, r.start, syntax.Span{Start: r.spanFrom, End: end}, raw,
			"unterminated %s: the stream ended before %s", what, r.tags.InvokeEnd)
	}
	r.state = sBetween
}

func (r *Reader) keep(b []byte) { r.blk.Keep(b, r.c.Options().BlockLimit()) }

// flushHeld emits the held error; end >= 0 extends its span to a closer.
func (r *Reader) flushHeld(end int64) { r.held.Flush(r.c, end) }

// hold keeps an invoke's error until the section's next invoke or its end.
func (r *Reader) hold(code syntax.Code, span syntax.Span, raw []byte, format string, args ...any) {
	r.held.Hold(r.c, r.start, code, span, raw, format, args...)
}

func (r *Reader) openInvoke(name string, tag []byte) {
	r.flushHeld(-1)
	r.invokes++
	r.state = sInvoke
	r.name = name
	r.start = r.c.Pos()
	r.spanFrom = r.start.Offset
	if r.invokes == 1 {
		r.spanFrom = r.openAt.Offset
	}
	r.blk.Reset()
	r.keep(tag)
	r.tagLen = len(tag)
	r.problem = ""
	r.args.Reset()
	r.strs = false
	if r.Check != nil {
		use, problem := r.Check(name)
		if problem != "" {
			r.fail(problem)
			return
		}
		name, r.name = use, use
	}
	if r.token() {
		r.c.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Span: syntax.Span{Start: r.start.Offset, End: r.start.Offset + int64(len(tag))}})
	}
}

// inInvoke handles an invoke between its parameters.
func (r *Reader) inInvoke(data []byte, eof bool) int {
	if i := spaces(data); i > 0 {
		r.keep(data[:i])
		return i
	}
	full, partial := scan.MatchPrefix(data, r.tags.InvokeEnd)
	if full {
		r.keep(data[:len(r.tags.InvokeEnd)])
		r.closeInvoke()
		return len(r.tags.InvokeEnd)
	}
	wait := partial
	n, attrs := tagAt(data, r.tags.Param, ">", "name", eof)
	if n > 0 {
		if len(attrs.name) > 0 && !attrs.empty { // a parameter tag closing itself has no value: text
			r.keep(data[:n])
			r.openParam(attrs.name, string(attrs.str) == "false", data[:n])
			return n
		}
	} else if n < 0 {
		wait = true
	}
	if wait && !eof {
		return 0
	}
	r.fail("text between parameters: only white space, " + r.tags.Param + " name=…> and " + r.tags.InvokeEnd + " may stand there")
	return scan.Again
}

// fail makes the open invoke an error, at the data's first byte; the rest of
// it, up to its closer, is skipped.
func (r *Reader) fail(msg string) {
	r.problem, r.problemAt = msg, r.c.Offset()
	r.state = sBad
}

// bad skips a malformed invoke up to its closer (or the section's).
func (r *Reader) bad(data []byte, eof bool) (int, bool) {
	end, send := []byte(r.tags.InvokeEnd), []byte(r.tags.SectionEnd)
	i, j := bytes.Index(data, end), bytes.Index(data, send)
	switch {
	case i >= 0 && (j < 0 || i < j):
		r.keep(data[:i+len(end)])
		r.reportBad()
		r.state = sBetween
		return i + len(end), false
	case j >= 0:
		r.keep(data[:j])
		r.reportBad()
		r.flushHeld(r.c.Offset() + int64(j+len(send)))
		r.state = sBetween
		return j + len(send), true
	}
	n := len(data)
	if !eof {
		n -= max(scan.PartialSuffix(data, r.tags.InvokeEnd), scan.PartialSuffix(data, r.tags.SectionEnd))
	}
	r.keep(data[:n])
	if n == 0 && !eof {
		return 0, false
	}
	return n, false
}

func (r *Reader) reportBad() {
	span := syntax.Span{Start: r.spanFrom, End: r.start.Offset + r.blk.Len}
	if r.blk.Over {
		r.hold(syntax.CodeOverLimit, span, nil, "%s longer than the limit of %d bytes", r.tags.shown(r.name), r.c.Options().BlockLimit())
		return
	}
	at := scan.Advance(r.start, r.blk.Bytes[:min(int(r.problemAt-r.start.Offset), len(r.blk.Bytes))])
	r.hold(syntax.CodeMalformed, span, r.blk.Bytes, "%s at %s: %s", r.tags.shown(r.name), at, r.problem)
}

func (r *Reader) openParam(key []byte, notString bool, tag []byte) {
	r.state = sValue
	r.key = append(r.key[:0], key...)
	r.typed = r.tags.Typed && notString
	r.valIdx = len(r.blk.Bytes)
	r.valAt = r.c.Offset() + int64(len(tag))
	r.pend = 0
	r.sent, r.lead = 0, false
	r.streams = r.token() && !r.typed
	if r.streams {
		r.c.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: r.name, Param: string(key), Span: syntax.Span{Start: r.c.Offset(), End: r.valAt}})
	}
}

// inValue handles a parameter's raw value.
func (r *Reader) inValue(data []byte, eof bool) int {
	if data[0] != '<' {
		if len(r.blk.Bytes) == r.valIdx && len(data) > cap(r.blk.Bytes)-len(r.blk.Bytes) {
			// The value starts: when its closer is at hand, the block
			// grows once for it (a 300 KB value grew it by doubling, from
			// 18 KB to 728 KB, 1.6 MB allocated in all). The closer found
			// is the value's own unless the invoke's closer comes first
			// (the value then ends there; that search stops at the first
			// one, within the value's bytes).
			if k := r.ahead.Find(data, r.c.Offset(), r.paramEnd); k > 0 && !bytes.Contains(data[:k], r.invokeEnd) {
				r.blk.Reserve(k+len(r.paramEnd)+256, r.c.Options().BlockLimit()) // and the closers after it
			}
		}
		i := bytes.IndexByte(data, '<')
		if i < 0 {
			i = len(data)
		}
		r.addValue(data[:i])
		return i
	}
	full, partial := scan.MatchPrefix(data, r.tags.ParamEnd)
	if full {
		r.keep(data[:len(r.tags.ParamEnd)])
		r.pend, r.pendAt = len(r.tags.ParamEnd), r.c.Offset()
		r.state = sCloser
		return len(r.tags.ParamEnd)
	}
	efull, epartial := scan.MatchPrefix(data, r.tags.InvokeEnd)
	if efull { // the value's closer is missing: the invoke's ends it
		r.endParam()
		r.state = sInvoke
		return scan.Again
	}
	if (partial || epartial) && !eof {
		return 0
	}
	// This '<' closes nothing: text up to the next '<'.
	i := bytes.IndexByte(data[1:], '<')
	if i < 0 {
		i = len(data) - 1
	}
	r.addValue(data[:1+i])
	return 1 + i
}

// afterCloser decides whether the parameter closer just read ends the value:
// it does when, after white space, the next parameter or the invoke's closer
// comes.
func (r *Reader) afterCloser(data []byte, eof bool) int {
	if i := spaces(data); i > 0 {
		r.keep(data[:i])
		r.pend += i
		return i
	}
	full, partial := scan.MatchPrefix(data, r.tags.InvokeEnd)
	pfull, ppartial := scan.MatchPrefix(data, r.paramAttr)
	switch {
	case full || pfull:
		r.endParam()
		r.state = sInvoke
		return scan.Again
	case (partial || ppartial) && !eof:
		return 0
	}
	// Content after all: the closer and the white space are the value's.
	r.state = sValue
	r.unpend()
	return scan.Again
}

// unpend gives the bytes held in sCloser back to the value.
func (r *Reader) unpend() {
	if r.pend == 0 {
		return
	}
	r.pend = 0
	if r.streams && !r.blk.Over {
		r.send(false)
	}
}

// addValue adds value bytes read from the input (kept in the block).
func (r *Reader) addValue(b []byte) {
	r.keep(b)
	if r.streams && !r.blk.Over {
		r.send(false)
	}
}

// val is the open parameter's value so far: the block's bytes from the
// value's start, less those held in sCloser. (Nil once the block is over
// the limit.)
func (r *Reader) val() []byte {
	if r.blk.Over {
		return nil
	}
	return r.blk.Bytes[r.valIdx : len(r.blk.Bytes)-r.pend]
}

// send emits, in token mode, the value bytes not yet sent: the first line
// end is dropped, a last line end (which may be the value's last) and the
// first bytes of a character are held back, unless final.
func (r *Reader) send(final bool) {
	v := r.val()
	if !r.lead {
		switch {
		case len(v) == 0 || (len(v) == 1 && v[0] == '\r' && !final):
			if !final {
				return
			}
		case bytes.HasPrefix(v, crlf):
			r.sent = 2
		case v[0] == '\n':
			r.sent = 1
		}
		r.lead = true
	}
	end := len(v)
	if final {
		end -= trailingNewline(v[r.sent:])
	} else {
		switch {
		case bytes.HasSuffix(v, crlf):
			end -= 2
		case bytes.HasSuffix(v, lf), bytes.HasSuffix(v, cr):
			end--
		}
		end = r.sent + scan.CompleteUTF8(v[r.sent:max(end, r.sent)])
	}
	if end <= r.sent {
		return
	}
	r.c.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: r.name, Param: string(r.key), Delta: string(v[r.sent:end]),
		Span: syntax.Span{Start: r.valAt + int64(r.sent), End: r.valAt + int64(end)}})
	r.sent = end
}

var crlf, lf, cr = []byte("\r\n"), []byte("\n"), []byte("\r")

func trailingNewline(v []byte) int {
	switch {
	case bytes.HasSuffix(v, crlf):
		return 2
	case bytes.HasSuffix(v, lf):
		return 1
	}
	return 0
}

// value is a parameter's text with one leading and one trailing line end
// (LF or CRLF) removed.
func value(v []byte) []byte { return TrimLine(v) }

// TrimLine removes one leading and one trailing line end (LF or CRLF), as
// a parameter's value is read: [Pad] undoes it.
func TrimLine(v []byte) []byte {
	if bytes.HasPrefix(v, crlf) {
		v = v[2:]
	} else if bytes.HasPrefix(v, lf) {
		v = v[1:]
	}
	return v[:len(v)-trailingNewline(v)]
}

// endParam ends the open parameter's value.
func (r *Reader) endParam() {
	if r.blk.Over {
		return
	}
	if r.streams {
		r.send(true)
	}
	v := value(r.val())
	if r.typed {
		if t, ok := jsonscan.Whole(v, r.c.Options().DepthLimit()); ok {
			r.args.AddRaw(r.key, jsonscan.Compact(t))
			return
		}
	}
	r.args.AddKey(r.key, v, false)
	r.strs = true
}

// closeInvoke ends the open invoke at its closer: a call, or an error.
func (r *Reader) closeInvoke() {
	whole := r.state == sWhole
	r.state = sBetween
	span := syntax.Span{Start: r.start.Offset, End: r.start.Offset + r.blk.Len}
	if r.blk.Over {
		r.hold(syntax.CodeOverLimit, syntax.Span{Start: r.spanFrom, End: span.End}, nil,
			"%s longer than the limit of %d bytes", r.tags.shown(r.name), r.c.Options().BlockLimit())
		return
	}
	var args []byte
	if whole {
		raw := r.blk.Bytes
		var at int
		args, at, r.problem = r.tags.Body(raw[r.tagLen:len(raw)-len(r.invokeEnd)], r.c.Options().DepthLimit())
		if r.problem != "" {
			r.problemAt = r.start.Offset + int64(r.tagLen+at)
			r.reportBad()
			return
		}
		r.strs = !r.tags.Typed && !bytes.Equal(args, []byte("{}"))
	} else {
		args = r.args.JSON()
	}
	r.c.Emit(syntax.Event{Type: syntax.Call, Name: r.name, Args: args, Strings: r.strs, Pos: r.start, Span: span})
	if r.OnCall != nil {
		r.OnCall(r.name, r.spanFrom)
	}
}

// InvokeAt reports whether data starts with a complete invoke tag with a
// name (<invoke name="N">, as tags names it): yes, no, or wait when more
// input is needed to tell. A syntax asks it to decide whether its section
// opener opens a section.
func InvokeAt(tags Tags, data []byte, eof bool) (yes, wait bool) {
	n, attrs := tags.invokeAt(data, eof)
	if n < 0 {
		return false, true
	}
	return n > 0 && len(attrs.name) > 0, false
}

// tagAttrs are the attributes of a tag the formats read, as slices of it:
// name (of an invoke or a parameter) and string (DSML's typed parameters).
type tagAttrs struct {
	name, str []byte
	empty     bool // the tag closes itself ("/>"): an invoke with no parameters
}

// tagAt matches an opening tag named by prefix ("<invoke") at the start of
// data (see tagBody); with closer '>' a '/' before it closes the tag
// itself. It returns the tag's length and the attributes the formats read
// (the one named nameKey is the name); 0 when data starts with no such
// tag; -1 when more input is needed.
func tagAt(data []byte, prefix, closer, nameKey string, eof bool) (int, tagAttrs) {
	n, body := tagBody(data, prefix, closer, eof)
	if n <= 0 {
		return n, tagAttrs{}
	}
	var attrs tagAttrs
	if b, ok := bytes.CutSuffix(body, []byte("/")); ok && closer == ">" {
		body, attrs.empty = b, true
	}
	var seen struct{ name, str bool }
	for i := 0; ; {
		key, v, next, ok := nextAttr(body, i)
		switch {
		case !ok:
			return 0, tagAttrs{}
		case key == nil:
			return n, attrs
		case string(key) == nameKey: // the first of a name counts
			if !seen.name {
				attrs.name, seen.name = v, true
			}
		case string(key) == "string":
			if !seen.str {
				attrs.str, seen.str = v, true
			}
		}
		i = next
	}
}

// TagAt matches an opening tag at the start of data: prefix, then
// attributes key="value", then closer (no tag closes itself here). It
// returns the tag's length and its attributes (the first value of each
// key, as written); 0 when data starts with no such tag; -1 when more
// input is needed (never when eof). A format whose invokes hold tags of
// its own reads them with it (Kimi K3's argument tags).
func TagAt(data []byte, prefix, closer string, eof bool) (int, map[string][]byte) {
	n, body := tagBody(data, prefix, closer, eof)
	if n <= 0 {
		return n, nil
	}
	attrs := map[string][]byte{}
	for i := 0; ; {
		key, v, next, ok := nextAttr(body, i)
		switch {
		case !ok:
			return 0, nil
		case key == nil:
			return n, attrs
		}
		if _, dup := attrs[string(key)]; !dup {
			attrs[string(key)] = v
		}
		i = next
	}
}

// tagBody matches prefix at the start of data, then white space and
// anything up to the first closer within maxTag bytes: it returns the
// tag's length and the bytes between prefix and closer; 0 when data starts
// with no such tag; -1 when more input is needed.
func tagBody(data []byte, prefix, closer string, eof bool) (int, []byte) {
	full, partial := scan.MatchPrefix(data, prefix)
	if !full {
		if partial && !eof {
			return -1, nil
		}
		return 0, nil
	}
	var end int
	if rest := data[len(prefix):min(len(data), maxTag)]; len(closer) == 1 {
		end = bytes.IndexByte(rest, closer[0])
	} else {
		end = bytes.Index(rest, []byte(closer))
	}
	if end < 0 {
		if len(data) < maxTag && !eof {
			return -1, nil
		}
		return 0, nil
	}
	body := data[len(prefix) : len(prefix)+end]
	if len(body) == 0 || !isSpace(body[0]) {
		return 0, nil
	}
	return len(prefix) + end + len(closer), body
}

// nextAttr reads the attribute of body at i, after white space:
// key=value, the key holding none of <>"' and white space, the value in
// double or single quotes, or bare (up to white space or a quote, holding
// no '<' or '>'), and valid UTF-8. It returns the key, the value and where
// the rest starts; a nil key when only white space is left; ok false when
// body is no attributes.
func nextAttr(body []byte, i int) (key, v []byte, next int, ok bool) {
	i += spaces(body[i:])
	if i == len(body) {
		return nil, nil, i, true
	}
	j := i
	for j < len(body) && body[j] != '=' && !isSpace(body[j]) {
		if c := body[j]; c == '<' || c == '>' || c == '"' || c == '\'' {
			return nil, nil, 0, false // no key
		}
		j++
	}
	if j == len(body) || body[j] != '=' || j == i {
		return nil, nil, 0, false
	}
	key = body[i:j]
	j++
	switch {
	case j < len(body) && (body[j] == '"' || body[j] == '\''):
		q := bytes.IndexByte(body[j+1:], body[j])
		if q < 0 {
			return nil, nil, 0, false
		}
		v = body[j+1 : j+1+q]
		j += q + 2
	default:
		k := j
		for k < len(body) && !isSpace(body[k]) && body[k] != '"' && body[k] != '\'' {
			if body[k] == '<' || body[k] == '>' {
				return nil, nil, 0, false // a bare value runs into markup: no attribute
			}
			k++
		}
		v = body[j:k]
		j = k
	}
	if !utf8.Valid(v) {
		return nil, nil, 0, false
	}
	return key, v, j, true
}

// Pad is v written as a value that [TrimLine] reads back as v: a line end
// is added where the reader would drop one of the value's own.
func Pad(v string) string {
	if strings.HasPrefix(v, "\n") || strings.HasPrefix(v, "\r\n") {
		v = "\n" + v
	}
	if strings.HasSuffix(v, "\n") {
		v += "\n"
	}
	return v
}

// WriteTyped writes call c as an invoke of typed tags (DSML's, GCML's): a
// string argument as string="true" and its text, padded as [Pad] does, any
// other as string="false" and its JSON text.
func (t *Tags) WriteTyped(b *bytes.Buffer, c syntax.Event) {
	b.WriteString(t.Tag(c.Name) + "\n")
	jsonscan.Members(c.ArgsJSON(), func(k string, v []byte) bool {
		b.WriteString(t.Param + ` name="` + k + `" string="`)
		if s, ok := jsonscan.Unquote(v); ok && jsonscan.Kind(v) == '"' {
			b.WriteString(`true">` + Pad(s))
		} else {
			b.WriteString(`false">`)
			b.Write(v)
		}
		b.WriteString(t.ParamEnd + "\n")
		return true
	})
	b.WriteString(t.InvokeEnd + "\n")
}
