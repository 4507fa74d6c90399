// The invoke form (Format.Invoke): calls are invoke elements, several in a
// section, read by package invokexml; reasoning by markup.Think; results in
// a block of elements the format reads with its own hook.

package tagcall

import (
	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
	"slices"
)

// Invoke describes the invoke form: sections of invoke elements
// (MiniMax-M2's <minimax:tool_call>, Anthropic's legacy <function_calls>,
// Kimi K3's tools channel),
//
//	section = Sections[i].Open ws { Tags.Invoke name="NAME"> { param } Tags.InvokeEnd ws } Sections[i].Close .
//	param   = Tags.Param name="KEY">VALUE Tags.ParamEnd .
//
// (the invoke tag's name attribute and its '>' are Tags.NameAttr and
// Tags.TagEnd when set: Kimi K3's <|open|>call tool="NAME"<|sep|>), read by
// package invokexml's rules (a value's closer, the look-ahead, attribute
// quoting, a self-closing invoke) or, with Tags.Body, an invoke's body read
// by the format (MiniMax M3's elements, Kimi K3's argument tags), and a results
// block of elements the format reads itself. An opener counts only when the first
// thing after it that is not white space is its first tag (an invoke tag,
// ResultTag) or its closer: prose that names it is text.
type Invoke struct {
	// Tags are the invoke and parameter tags (Tags.SectionEnd is each
	// section's closer, set from Sections).
	Tags invokexml.Tags
	// Sections are the section tags; the renderer writes the first.
	Sections []Tags
	// Results is the results block, ResultTag what each of its elements
	// starts with.
	Results   Tags
	ResultTag string
	// ReadResult reads one results element at the start of b: its event
	// (Type Result), its length, or a problem that makes the block an
	// error.
	ReadResult func(b []byte) (e syntax.Event, n int, problem string)
	// WriteResult writes one result as an element, or says why its tags
	// cannot hold it.
	WriteResult func(r syntax.Event) (element, problem string)
	// WriteInvoke, when set, writes call c, the section's call number k
	// (from 0), as an invoke element, its line end included (none with
	// Packed), in the form Tags.Body reads, and says what of the call the
	// element does not carry ("" when it carries all of it; nil when it
	// cannot be written). The renderer reads it back before it writes it.
	WriteInvoke func(c syntax.Event, k int) (element []byte, lossy string)

	// Own says the section openers are the format's own tokens (GCML's
	// <｜GCML｜tool_calls>): each opens a section whatever follows it (a
	// section whose first thing is not an invoke is an error) and is
	// evidence of the format by itself.
	Own bool
	// Tight says the renderer writes a section's first invoke right after
	// its opener, with no line end between (GCML's template).
	Tight bool
	// Answer, when set, is the answer's channel (Kimi K3's response
	// channel): its tags are dropped where they stand in text, as
	// Format.Drop's are, and Answer.Open ends reasoning the prompt opened,
	// as a section opener does. The renderer writes text between them.
	Answer Tags
	// Packed says the renderer writes no line end after thoughts, text, a
	// section's tags and its invokes, as Kimi K3's template writes none
	// (the closer of reasoning the prompt opened, written before anything
	// else, still ends its line, as wire.OpenThought writes it).
	Packed bool
}

// openers are the section openers.
func (v *Invoke) openers() []string {
	var o []string
	for _, s := range v.Sections {
		o = append(o, s.Open)
	}
	return o
}

// tagEnds are the last bytes of the sections' tags and of the invoke and
// parameter tags: bytes an event in a section may complete at.
func (v *Invoke) tagEnds() string {
	ends := ">" // what an invoke tag ends with, unless Tags.TagEnd
	for _, m := range []string{v.Tags.InvokeEnd, v.Tags.ParamEnd, v.Tags.TagEnd} {
		if m != "" {
			ends += m[len(m)-1:]
		}
	}
	for _, s := range v.Sections {
		ends += s.Open[len(s.Open)-1:] + s.Close[len(s.Close)-1:]
	}
	return ends
}

// textMarkers are what ends a text run: Think.Open, the section openers,
// the results block's opener and the dropped markers.
func (v *Invoke) textMarkers(f *Format) []string {
	return nonEmpty(append(append(append([]string{f.Think.Open}, v.openers()...), v.Results.Open), v.drops(f)...))
}

// enders are what ends reasoning the prompt opened: the section openers
// and Answer.Open.
func (v *Invoke) enders() []string { return nonEmpty(append(v.openers(), v.Answer.Open)) }

// drops are the markers dropped where they stand in text: Format.Drop and
// the answer channel's tags.
func (v *Invoke) drops(f *Format) []string {
	return nonEmpty(append([]string{v.Answer.Open, v.Answer.Close}, f.Drop...))
}

// closerOf is a section or results opener's closer.
func (v *Invoke) closerOf(open string) string {
	for _, s := range v.Sections {
		if s.Open == open {
			return s.Close
		}
	}
	return v.Results.Close
}

// opens reports whether data, which follows an opener and its white space,
// starts the opener's first tag (a whole invoke tag, or ResultTag) or its
// closer (an empty section): yes, no, or wait (more input is needed).
func (v *Invoke) opens(open string, data []byte, eof bool) (yes, wait bool) {
	full, partial := scan.MatchPrefix(data, v.closerOf(open))
	if full {
		return true, false
	}
	if open != v.Results.Open {
		yes, wait := invokexml.InvokeAt(v.Tags, data, eof)
		return yes, wait || partial && !eof
	}
	tfull, tpartial := scan.MatchPrefix(data, v.ResultTag)
	return tfull, (partial || tpartial) && !eof
}

type ivState uint8

const (
	ivText    ivState = iota
	ivThink           // reasoning: explicit (Think.Open) or implicit (ThinkOpen)
	ivOpen            // after a section opener: a section only if its first tag comes next
	ivCalls           // a calls section (invokexml)
	ivResults         // a results block
)

type invokeParser struct {
	scan.Core
	f       *Format
	v       *Invoke
	state   ivState
	think   markup.Think  // the reasoning (ThinkOpen: see markup.Think)
	markers []string      // what ends a text run
	openers []string      // the section openers
	enders  []string      // what ends reasoning the prompt opened: the openers, Answer.Open
	wake    *scan.ByteSet // the bytes an event may complete at: its markers' and tags' last bytes

	// The opener being decided (ivOpen).
	open      string
	openAt    syntax.Pos
	openSpace []byte

	calls invokexml.Reader

	// The batch: calls since the last execute.
	batch markup.Batch

	// The open results block.
	blk scan.Block
}

func newInvokeParser(f *Format, h syntax.Handler, opts syntax.Options) syntax.Parser {
	v := f.Invoke
	p := &invokeParser{f: f, v: v, openers: v.openers(), markers: v.textMarkers(f)}
	p.enders = v.enders()
	p.wake = f.derive().ivWake
	p.Init(h, opts, p.step, p.finish)
	p.calls.Init(&p.Core, v.Tags)
	p.calls.OnCall = func(_ string, from int64) { p.batch.Add(from) }
	p.think = markup.Think{Open: f.Think.Open, Close: f.Think.Close, Own: f.Own,
		Leads: leadBytes(append([]string{f.Think.Close}, p.markers...))}
	if p.think.Init(&p.Core, opts) {
		p.state = ivThink
	}
	p.WakeOn(p.wake)
	return p
}

// step runs the state's step, then tells the core which bytes can complete
// an event in the new state (see scan.Core.WakeOn): every tag ends in '>',
// but between a section's invokes text ends the section at once.
func (p *invokeParser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	if p.state == ivCalls && p.calls.Between() {
		p.WakeOn(nil)
	} else {
		p.WakeOn(p.wake)
	}
	return n
}

func (p *invokeParser) stateStep(data []byte, eof bool) int {
	switch p.state {
	case ivThink:
		n, done := p.think.Step(&p.Core, data, eof, p.enders, p.endsThought)
		if done {
			p.state = ivText
		}
		return n
	case ivOpen:
		return p.afterOpen(data, eof)
	case ivCalls:
		n, done := stepSection(&p.calls, data, eof)
		if done {
			p.state = ivText
		}
		return n
	case ivResults:
		n, closed := markup.KeepUntil(&p.blk, p.Options().BlockLimit(), data, eof, p.v.Results.Close)
		if closed {
			p.closeResults()
		}
		return n
	}
	off := p.Offset()
	m, n := p.think.Text(&p.Core, data, eof, p.markers)
	switch m {
	case p.f.Think.Open:
		if p.f.Own {
			p.Evident(off)
		}
		p.state = ivThink
	case "":
	default:
		if m == p.v.Results.Open || slices.Contains(p.openers, m) {
			p.opened(m)
			break
		}
		p.EndRun()     // a dropped marker: the text around it is runs of its own
		p.Evident(off) // the format's own token
	}
	return n
}

// opened notes a section or results opener, m, just read: a section
// opener of the format's own opens its section; any other is decided by
// what follows it (afterOpen).
func (p *invokeParser) opened(m string) {
	p.open, p.openAt = m, p.Pos()
	p.openSpace = p.openSpace[:0]
	p.state = ivOpen
	p.Undecided(p.openAt.Offset)
	if p.v.Own && m != p.v.Results.Open {
		p.EndRun()
		p.decided(true)
		p.calls.Open(m, p.v.closerOf(m), p.openAt)
		p.state = ivCalls
	}
}

// afterOpen decides what a section opener is: it opens a section when the
// first thing after it that is not white space is its first tag or its
// closer; otherwise the opener and the white space after it are text.
func (p *invokeParser) afterOpen(data []byte, eof bool) int {
	i := jsonscan.SkipSpace(data, 0)
	if len(p.openSpace)+i > p.Options().BlockLimit() {
		p.openAsText()
		return scan.Again
	}
	p.openSpace = append(p.openSpace, data[:i]...)
	if i == len(data) {
		if eof {
			p.decided(true) // the parser's error: evidence of the format
			end := p.Offset() + int64(i)
			p.Errorf(syntax.CodeTruncated, p.openAt, syntax.Span{Start: p.openAt.Offset, End: end}, []byte(p.open),
				"unterminated %s: the stream ended before %s", p.open, p.v.closerOf(p.open))
			p.state = ivText
		}
		return len(data)
	}
	yes, wait := p.v.opens(p.open, data[i:], eof)
	switch {
	case yes:
		p.EndRun()
		p.decided(true)
		if p.open == p.v.Results.Open {
			p.batch.Execute(&p.Core, p.openAt.Offset) // the results answer the pending calls
			p.blk.Reset()
			p.Keep(&p.blk, []byte(p.open))
			p.Keep(&p.blk, p.openSpace)
			p.state = ivResults
		} else {
			p.calls.Open(p.open, p.v.closerOf(p.open), p.openAt)
			p.state = ivCalls
		}
	case wait:
		return i // 0 when data starts with the partial tag: wait for the rest of it
	default:
		p.openAsText()
	}
	if i == 0 {
		return scan.Again
	}
	return i
}

// stepSection steps r, the reader of an open section of invokes, over
// data: the bytes it took (scan.Again when the section ended before any,
// so that the step after it reads them), and whether the section ended.
func stepSection(r *invokexml.Reader, data []byte, eof bool) (n int, done bool) {
	n, done = r.Step(data, eof)
	if done && n == 0 {
		return scan.Again, true
	}
	return n, done
}

// openAsText makes the opener being decided, and the white space after
// it, text.
func (p *invokeParser) openAsText() {
	p.decided(false)
	p.Text(syntax.Respond, append([]byte(p.open), p.openSpace...), p.openAt.Offset)
	p.state = ivText
}

// decided notes the opener being decided as a block's (evidence of the
// format) or as text.
func (p *invokeParser) decided(block bool) {
	p.Undecided(-1)
	if block {
		p.Evident(p.openAt.Offset)
	}
}

// endsThought reports whether data starts a section opener that opens a
// section, or Answer.Open, which ends the reasoning the prompt opened; it
// decides that without leaving the reasoning.
func (p *invokeParser) endsThought(data []byte, eof bool) (yes, wait bool) {
	m, wait := scan.MatchAny(data, eof, p.enders)
	if m == "" || p.v.Own || m == p.v.Answer.Open {
		return m != "", wait
	}
	rest := data[len(m):]
	i := jsonscan.SkipSpace(rest, 0)
	if i == len(rest) && !eof {
		return false, len(rest) <= p.Options().BlockLimit()
	}
	yes, wait = p.v.opens(m, rest[i:], eof)
	return yes && !wait, wait
}

// closeResults reads a complete results block: elements ReadResult reads,
// white space between them.
func (p *invokeParser) closeResults() {
	p.state = ivText
	open, closer := p.v.Results.Open, p.v.Results.Close
	span := syntax.Span{Start: p.openAt.Offset, End: p.openAt.Offset + p.blk.Len}
	if p.blk.Over {
		p.Errorf(syntax.CodeOverLimit, p.openAt, span, nil, "%s block longer than the limit of %d bytes", open, p.Options().BlockLimit())
		return
	}
	body := p.blk.Bytes[len(open) : len(p.blk.Bytes)-len(closer)]
	base := span.Start + int64(len(open))
	var evs []syntax.Event
	for i := 0; ; {
		i += markup.Spaces(body[i:])
		if i == len(body) {
			break
		}
		e, n, msg := p.v.ReadResult(body[i:])
		if msg != "" {
			at := scan.Advance(p.openAt, p.blk.Bytes[:len(open)+i])
			p.Errorf(syntax.CodeMalformed, p.openAt, span, p.blk.Bytes, "%s block at %s: %s", open, at, msg)
			return
		}
		e.Span = syntax.Span{Start: base + int64(i), End: base + int64(i+n)}
		evs = append(evs, e)
		i += n
	}
	if len(evs) == 0 {
		p.Errorf(syntax.CodeMalformed, p.openAt, span, p.blk.Bytes, "empty %s block: it must hold %s elements", open, p.v.ResultTag)
		return
	}
	evs[0].Span.Start = span.Start
	evs[len(evs)-1].Span.End = span.End
	for _, e := range evs {
		p.Emit(e)
	}
}

// finish reports what the end of the stream left open, then executes the
// pending batch.
func (p *invokeParser) finish(end int64) {
	switch p.state {
	case ivThink:
		p.think.Finish(&p.Core, end)
	case ivOpen:
		p.afterOpen(nil, true)
	case ivCalls:
		p.calls.Finish(end)
	case ivResults:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.openAt, syntax.Span{Start: p.openAt.Offset, End: end}, raw,
			"unterminated %s: the stream ended before %s", p.v.Results.Open, p.v.Results.Close)
	}
	p.batch.Execute(&p.Core, end)
}
