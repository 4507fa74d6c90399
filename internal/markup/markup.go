// Package markup holds what the tag-marked syntaxes built on scan.Core
// (the tag-call engine's forms, functionary, xmltag) share besides the
// invoke XML (internal/invokexml): the <think>…</think> reasoning block,
// which the prompt may open (Options.ThinkOpen), a block kept whole up to
// its closer, the batch of calls an execute closes, small marker helpers
// for their parsers and renderers, and the check that a call a renderer
// wrote reads back as itself (RoundTrips). Each syntax passes its own
// markers.
package markup

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
	"github.com/toolparse/toolparse/syntax/wire"
)

// Think is the state of a syntax's reasoning block.
type Think struct {
	Open  string // the opener, <think>
	Close string // the closer, </think>
	Leads string // the bytes markers start with ("<"; "<]" where the tool markers start with ']')
	// Own says Open and Close are the syntax's own tokens, no other
	// format's: in reasoning the prompt opened, a restated Open and the
	// Close are evidence of the syntax (scan.Core.Evident); in text the
	// syntax says so of every marker Text returns.
	Own      bool
	implicit bool // the open block was opened by the prompt (ThinkOpen)
	noThink  bool // ThinkOpen: the reasoning is over, and Open is text
	has      bool // the open block: text other than white space was read
	start    syntax.Pos
}

// Init prepares b; with opts.ThinkOpen the stream starts inside the block,
// and Init reports true (the syntax's state is then its reasoning state).
func (b *Think) Init(c *scan.Core, opts syntax.Options) bool {
	if !opts.ThinkOpen {
		return false
	}
	b.implicit, b.noThink = true, true
	b.start = syntax.Pos{Line: 1, Column: 1}
	c.BeginRun(syntax.Think, 0)
	return true
}

// begin opens an explicit block: its opener was read at off, the core's
// position.
func (b *Think) begin(c *scan.Core, off int64) {
	c.BeginRun(syntax.Think, off)
	b.start = c.Pos()
	b.has = false
}

// Text reads the syntax's text outside blocks at the start of data: respond
// text up to one of the markers (b's opener among them, which is text where
// it opens no block), or a marker. It returns the marker data starts with,
// having opened the block when it is b's opener, and the bytes consumed (0
// when it waits for more input).
func (b *Think) Text(c *scan.Core, data []byte, eof bool, markers []string) (m string, n int) {
	if n := c.TextBeforeAny(syntax.Respond, data, b.Leads); n > 0 {
		return "", n
	}
	off := c.Offset()
	m, wait := scan.MatchAny(data, eof, markers)
	if m == b.Open && b.noThink {
		m = ""
	}
	switch {
	case m == b.Open:
		b.begin(c, off)
		return m, len(m)
	case m != "":
		return m, len(m)
	case wait:
		return "", 0
	}
	n = scan.TextUntilAny(data, b.Leads, func(rest []byte) bool {
		m, wait := scan.MatchAny(rest, eof, markers)
		return m != "" && (m != b.Open || !b.noThink) || wait
	})
	c.Text(syntax.Respond, data[:n], off)
	return "", n
}

// Step reads the block's bytes at the start of data; done reports that the
// block is over. An explicit block ends at its closer; one the prompt
// opened also ends before a call opener (openers, in the text), where ends
// reports whether data starts one that ends the reasoning, or wait for more
// input.
// A nil ends takes any of openers as the end.
func (b *Think) Step(c *scan.Core, data []byte, eof bool, openers []string, ends func(data []byte, eof bool) (yes, wait bool)) (n int, done bool) {
	if !b.implicit {
		n, closed := c.Inside(syntax.Think, data, eof, b.Close)
		if closed {
			if !b.has {
				// An empty thought gives no event: the text after it, if
				// any, takes in its markers.
				c.BeginRun(syntax.Respond, b.start.Offset)
			}
			return n, true
		}
		b.has = b.has || Spaces(data[:n]) < n
		return n, false
	}
	off := c.Offset()
	if n, wait := c.Restated(syntax.Think, data, eof, b.Open); n > 0 || wait {
		if b.Own && n == len(b.Open) && string(data[:n]) == b.Open {
			c.Evident(off) // the opener restated by the model
		}
		return n, false
	}
	if n := c.TextBeforeAny(syntax.Think, data, b.Leads); n > 0 {
		b.has = b.has || Spaces(data[:n]) < n
		return n, false
	}
	if full, partial := scan.MatchPrefix(data, b.Close); full {
		c.EndRunAt(off + int64(len(b.Close)))
		if b.Own {
			c.Evident(off)
		}
		b.implicit = false
		if !b.has {
			// An empty thought gives no event: the text after it, if any,
			// takes in its closer.
			c.BeginRun(syntax.Respond, off)
		}
		return len(b.Close), true
	} else if partial && !eof {
		return 0, false
	}
	var yes, wait bool
	if ends != nil {
		yes, wait = ends(data, eof)
	} else {
		m, w := scan.MatchAny(data, eof, openers)
		yes, wait = m != "", w
	}
	switch {
	case yes:
		c.EndRun()
		b.implicit = false
		return scan.Again, true
	case wait:
		return 0, false
	}
	n = scan.TextUntilAny(data, b.Leads, func(rest []byte) bool {
		full, partial := scan.MatchPrefix(rest, b.Close)
		m, wait := scan.MatchAny(rest, eof, openers)
		return full || partial && !eof || m != "" || wait
	})
	c.Text(syntax.Think, data[:n], off)
	b.has = b.has || Spaces(data[:n]) < n
	return n, false
}

// Finish reports the open block at the end of the stream, at end.
func (b *Think) Finish(c *scan.Core, end int64) {
	c.EndRun()
	if b.implicit && !b.has {
		// Reasoning the prompt opened, and nothing written in it (white
		// space, or the opener restated): nothing was cut off.
		return
	}
	what := "unterminated " + b.Open
	if b.implicit {
		what = "unterminated reasoning (opened by the prompt)"
	}
	c.Errorf(syntax.CodeTruncated, b.start, syntax.Span{Start: b.start.Offset, End: end}, nil,
		"%s: the stream ended before %s", what, b.Close)
}

// Spaces is the length of the JSON white space at the start of data.
func Spaces(data []byte) int {
	i := 0
	for i < len(data) && jsonscan.IsSpace(data[i]) {
		i++
	}
	return i
}

// HoldsMarker returns the first of the markers that s holds, or "".
func HoldsMarker(s string, markers []string) string {
	for _, m := range markers {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}

// WriteThought writes, for a renderer, the thought s as a block between
// opener and closer, or, inside the block the prompt opened, s and closer,
// then end (a line end, or nothing). It writes nothing and returns the
// marker s holds when s holds closer or, inside, one of the call openers,
// which would end the thought early, or,
// inside, starts with opener, which reads back as the opener restated
// (Think passes it over).
func WriteThought(w io.StringWriter, s string, inside bool, opener, closer, end string, openers []string) (held string) {
	m := HoldsMarker(s, []string{closer})
	if m == "" && inside {
		m = HoldsMarker(s, openers)
	}
	if m == "" && inside && strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), opener) {
		m = opener
	}
	if m != "" {
		return m
	}
	if inside {
		w.WriteString(s + closer + end)
	} else {
		w.WriteString(opener + s + closer + end)
	}
	return ""
}

// KeepUntil keeps in blk (up to limit) the bytes at the start of data up to
// the first closer and it; closed reports that the closer was kept. Without
// it, a partial closer at the end of data waits for more input (n is 0 when
// nothing else is there).
func KeepUntil(blk *scan.Block, limit int, data []byte, eof bool, closer string) (n int, closed bool) {
	if i := bytes.Index(data, []byte(closer)); i >= 0 {
		n = i + len(closer)
		blk.Keep(data[:n], limit)
		return n, true
	}
	n = len(data)
	if !eof {
		n -= scan.PartialSuffix(data, closer)
	}
	blk.Keep(data[:n], limit)
	return n, false
}

// Batch is the calls since the last execute.
type Batch struct {
	N     int   // the calls
	Start int64 // where the first one's section (or the call) starts
}

// Add counts a call whose section (or the call) starts at from; first
// reports that it opens the batch.
func (b *Batch) Add(from int64) (first bool) {
	first = b.N == 0
	if first {
		b.Start = from
	}
	b.N++
	return first
}

// Execute closes the batch, if it holds calls, with an execute that ends at
// end, and reports whether it did.
func (b *Batch) Execute(c *scan.Core, end int64) bool {
	if b.N == 0 {
		return false
	}
	c.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: b.Start, End: end}})
	b.N = 0
	return true
}

// Held is an event kept back until the syntax knows where its block ends:
// the error of a section's last invoke, whose span then takes in the section's closer (so that no byte of the
// closer is outside every event's span).
type Held struct{ e *syntax.Event }

// Hold keeps an error at pos, first emitting to c the one held before.
func (h *Held) Hold(c *scan.Core, pos syntax.Pos, code syntax.Code, span syntax.Span, raw []byte, format string, args ...any) {
	h.Keep(c, syntax.Event{Type: syntax.Error, Code: code, Message: fmt.Sprintf(format, args...), Pos: pos, Raw: string(raw), Span: span})
}

// Keep keeps e, first emitting to c the event held before.
func (h *Held) Keep(c *scan.Core, e syntax.Event) {
	h.Flush(c, -1)
	h.e = &e
}

// Flush emits the held event to c, if any; end >= 0 extends its span to
// there.
func (h *Held) Flush(c *scan.Core, end int64) {
	if h.e == nil {
		return
	}
	e := *h.e
	h.e = nil
	if end >= 0 {
		e.Span.End = end
	}
	c.Emit(e)
}

// Turn is the half of a renderer that a format whose calls are executed at
// the end of the message, and whose results come back in messages of their
// own (not the model's text), shares: the output, the reasoning the prompt
// may have opened, and the account of calls and executes. Embedded in a
// syntax's units it gives them Execute, Results, Flush and End; its other
// methods return what the form cannot carry, as wire.CannotCarry errors of
// Syntax.
type Turn struct {
	Syntax   string
	W        *bufio.Writer
	Think    wire.OpenThought // Options.ThinkOpen: the output starts in reasoning
	pending  int              // calls written since the last execute
	executed bool             // an execute came, and no result since
}

// NewTurn is the Turn of syntax name writing to w, its reasoning closed by
// closer.
func NewTurn(name string, w io.Writer, opts syntax.Options, closer string) Turn {
	return Turn{Syntax: name, W: bufio.NewWriter(w), Think: wire.NewOpenThought(opts, closer)}
}

// TextAfter notes text of type typ written: after an execute it reads back
// before the execute.
func (t *Turn) TextAfter(typ syntax.Type) error {
	if t.executed {
		return wire.CannotCarry(t.Syntax, "%s text after an execute: the parser executes a batch at the end of the message, so it reads back before the execute", typ)
	}
	return nil
}

// AddCalls notes n calls written.
func (t *Turn) AddCalls(n int) error {
	var err error
	if t.executed {
		err = wire.CannotCarry(t.Syntax, "calls after an execute with no result written between: they read back as one batch with the calls before")
	}
	t.pending += n
	return err
}

// Execute notes an execute.
func (t *Turn) Execute() error {
	if t.pending == 0 {
		return wire.CannotCarry(t.Syntax, "an execute with no call: a batch is executed only when it holds a call")
	}
	t.pending, t.executed = 0, true
	return nil
}

// Results reports results, which the form has no place for. Not written,
// they end nothing: text after them still reads back before the execute.
func (t *Turn) Results(rs []syntax.Event) error {
	t.Think.Begin(t.W, false)
	return wire.CannotCarry(t.Syntax, "%d result(s): the results are messages of their own, not model text; not written", len(rs))
}

// Answered notes results written in the text (a format whose results
// follow its calls in the model's text): the calls before them are
// executed at them, so calls with no execute before them are reported.
func (t *Turn) Answered() error {
	var err error
	if t.pending > 0 {
		err = wire.CannotCarry(t.Syntax, "results after calls with no execute: the parser executes the calls at their results")
	}
	t.pending, t.executed = 0, false
	return err
}

// Flush writes what is buffered.
func (t *Turn) Flush() error { return t.W.Flush() }

// End ends the output.
func (t *Turn) End() error {
	t.Think.Begin(t.W, false)
	var err error
	if t.pending > 0 {
		err = wire.CannotCarry(t.Syntax, "calls with no execute: the parser executes a batch at the end of the message")
	}
	if ferr := t.W.Flush(); ferr != nil {
		return ferr
	}
	return err
}

// RoundTrips reports whether body, a call written for a renderer, parses
// back with newParser, after open and before end, as the one call c (its
// name and arguments, as JSON values: "Z\u00fcrich" reads back as
// "Zürich").
func RoundTrips(newParser func(syntax.Handler, syntax.Options) syntax.Parser, open, body, end []byte, c syntax.Event) bool {
	var got []syntax.Event
	p := newParser(func(e syntax.Event) { got = append(got, e) }, syntax.Options{})
	p.Write(open)
	p.Write(body)
	p.Write(end)
	p.Close()
	return len(got) == 3 && got[0].Type == syntax.Call && got[0].Name == c.Name &&
		jsonscan.Equal(got[0].Args, c.ArgsJSON())
}
