package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// StepFunc is a syntax's state machine. It is given the input not yet
// consumed, starting at the position [Core.Pos] reports, and returns how many
// bytes it consumed. Returning 0 means it needs more input to decide (for
// example, the data is a proper prefix of a marker); the core then keeps those
// bytes and calls again with more. When eof is true the step must consume
// everything it is given: no more input will come.
//
// A step that changes its state without taking a byte (it has seen that a
// block starts, or that what it read is not JSON after all) returns Again:
// the core calls it at once with the same data, so the new state reads it.
//
// A step should consume whole decisions: text up to the next possible marker,
// a whole marker, or a stretch of a block. Blocks keep their own copy of the
// bytes they need, so what is held back between writes is never more than a
// marker's length, and no byte is scanned twice.
type StepFunc func(data []byte, eof bool) int

// Again is what a step returns when it changed state and took no byte.
const Again = -1

// Core is the streaming machinery every syntax shares: it holds back only the
// bytes a step could not decide on, tracks line and column in one pass,
// gathers text runs into events (event mode) or fragments (token mode), and
// makes sure exactly one End event closes the stream. A syntax embeds a Core,
// calls [Core.Init] with its step function, and forwards Write and Close.
type Core struct {
	h      syntax.Handler
	opts   syntax.Options
	step   StepFunc
	finish func(end int64)

	wake      *ByteSet         // see WakeOn
	waker     Waker            // see WakeWith; wake is nil then
	undecided bool             // the last drive stopped at bytes a step could not decide on
	pend      []byte           // bytes the step could not decide on yet
	hold      *[lazyLimit]byte // chunks kept without running the steps (see WakeOn); pend is empty then
	held      int              // bytes in hold
	pos       syntax.Pos       // position of the first byte drive is given (pend[0] between writes)
	closed    bool
	busy      bool     // inside Write or Close: a call from the handler is refused
	lazy      bool     // Write may keep a chunk without a wake byte in hold (see setLazy)
	lazySet   *ByteSet // the wake set, when lazy with one (not with a Waker): Write's test
	ended     bool     // the End event was emitted
	eventMode bool     // opts.Mode == EventMode, for the hot path of Write

	// Within drive: the data, how much of it the steps consumed, and a
	// position computed lazily (only when a step asks for one).
	cur   []byte
	done  int
	trk   syntax.Pos // position of cur[trkAt]
	trkAt int

	// The open text run.
	run       syntax.Type     // "" when no run is open
	runStart  int64           // span start
	runEnd    int64           // end of the last text added
	runBuf    []byte          // the run's text (both modes)
	tokFrom   int             // token mode: runBuf[tokFrom:] not yet sent as a fragment
	tokOff    int64           // token mode: offset of runBuf[tokFrom]
	runLead   bool            // token mode: a non-white-space byte has been seen in this run
	decoded   bool            // the run's text was decoded (TextDecoded), not copied from the source
	fragFrom  int64           // decoded runs: where the source of the next fragment starts
	cut       *syntax.Event   // the last piece of a run cut at the limit, held (see cutRun)
	runOpaque json.RawMessage // provider state the run's event carries (see RunOpaque)

	restate bool // Options.ThinkOpen, and the reasoning's start not yet decided (see Restated)

	det detection // the parser runs for a Detector (see NewDetector)
}

// Init prepares c. finish is called once at Close, after all input has been
// consumed, with the input's length; it reports whatever is unterminated.
// It panics if h is nil.
func (c *Core) Init(h syntax.Handler, opts syntax.Options, step StepFunc, finish func(end int64)) {
	if h == nil {
		panic("toolparse: a parser was made with a nil Handler")
	}
	*c = Core{h: h, opts: opts, step: step, finish: finish, pos: syntax.Pos{Line: 1, Column: 1},
		eventMode: opts.Mode == syntax.EventMode, restate: opts.ThinkOpen, det: newDetection()}
}

// Restated reads the start of reasoning the prompt opened
// (Options.ThinkOpen), where models often write the opener again: before
// anything but white space, one of openers is that opener restated, and
// is passed over. White space at the start of data is added to the run of
// type t. It returns the bytes taken (white space or an opener); 0 with
// wait when more input is needed to tell; 0 without wait once the start is
// decided (the first byte that is not white space came), and ever after.
// A step of reasoning opened by the prompt calls it first.
func (c *Core) Restated(t syntax.Type, data []byte, eof bool, openers ...string) (n int, wait bool) {
	if !c.restate {
		return 0, false
	}
	if i := spaces(data); i > 0 {
		c.Text(t, data[:i], c.Offset())
		return i, false
	}
	for _, o := range openers {
		full, partial := MatchPrefix(data, o)
		if partial && !eof {
			return 0, true
		}
		if full && o != "" {
			c.restate = false
			return len(o), false
		}
	}
	c.restate = false
	return 0, false
}

func spaces(b []byte) int {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// ByteSet is a set of byte values.
type ByteSet [256]bool

// Bytes returns the set of the bytes of s.
func Bytes(s string) *ByteSet {
	var set ByteSet
	for i := 0; i < len(s); i++ {
		set[s[i]] = true
	}
	return &set
}

// WakeOn tells the core that, in event mode and in the syntax's present
// state, no event can complete in a chunk holding none of the bytes in set
// (for a syntax whose markers all end in '>', that byte; inside a JSON
// string, a quote, a backslash or a control byte). Such a chunk is then only
// appended to what is held, up to a few KiB, and the step functions see it
// together with the next chunk that has one of the bytes. Nothing changes but
// speed: events come out at the same writes, and every byte is still scanned
// once. It matters for streams of tiny chunks, where the per-call overhead
// would dominate. A step may change the set as its state changes; nil means
// every chunk is run at once. While a step is waiting on undecided bytes,
// every chunk is run at once too.
func (c *Core) WakeOn(set *ByteSet) {
	if c.wake != set { // steps call this after each step: store only a change
		c.wake = set
	}
	if c.waker != nil {
		c.waker = nil
	}
	if !c.busy {
		c.setLazy(false)
	}
}

// A Waker tells whether an event can complete in a chunk: Wakes(p) reports
// whether p may hold a byte at which one does. A Waker may follow the
// chunks it lets pass (they are held, and its steps see them later).
type Waker interface {
	Wakes(p []byte) bool
}

// WakeWith is [Core.WakeOn] with a Waker in place of the set, for a state
// in which whether a chunk can complete an event depends on more than its
// bytes one by one (inside a JSON string, an escaped quote ends nothing:
// jsonscan's StringWaker tells). A nil Waker (the interface itself, not a
// nil pointer in it) means every chunk is run at once. w need not be
// comparable: a func type with a Wakes method will do.
func (c *Core) WakeWith(w Waker) {
	c.waker = w
	if c.wake != nil {
		c.wake = nil
	}
	if !c.busy {
		c.setLazy(false)
	}
}

// lazyLimit bounds what WakeOn lets the core hold without running the steps.
const lazyLimit = 4 << 10

// Options returns the options the core was made with.
func (c *Core) Options() syntax.Options { return c.opts }

// Pos is the position of the first byte of the data the current step was
// given. Line and column are counted on demand, so a step that only needs
// the byte offset should call [Core.Offset].
func (c *Core) Pos() syntax.Pos {
	if c.trkAt < c.done {
		c.trk = Advance(c.trk, c.cur[c.trkAt:c.done])
		c.trkAt = c.done
	}
	return c.trk
}

// Offset is the byte offset of the first byte of the data the current step was given.
func (c *Core) Offset() int64 { return c.pos.Offset + int64(c.done) }

// Write feeds a chunk to the step function. Called from the handler, while
// the core is delivering events, it does nothing and returns
// [syntax.ErrReentrant].
//
// A tiny chunk that cannot complete an event (see WakeOn) costs a look at
// its bytes and a copy, in this function alone: with a wake set, the test
// is a loop inlined here over the set setLazy left in lazySet (a call to a
// test of its own, that also asked for a Waker, was a third of the cost of
// such a write).
func (c *Core) Write(p []byte) (int, error) {
	if set := c.lazySet; set != nil && c.held+len(p) < lazyLimit && !set.any(p) {
		c.held += copy(c.hold[c.held:], p)
		return len(p), nil
	}
	return c.writeWaker(p)
}

// any reports whether p holds a byte of the set.
func (s *ByteSet) any(p []byte) bool {
	for _, b := range p {
		if s[b] {
			return true
		}
	}
	return false
}

// writeWaker is Write when the core is lazy with a Waker, or not lazy.
func (c *Core) writeWaker(p []byte) (int, error) {
	if c.lazy && c.waker != nil && c.held+len(p) < lazyLimit && !c.waker.Wakes(p) {
		c.held += copy(c.hold[c.held:], p)
		return len(p), nil
	}
	return c.write(p)
}

// setLazy decides whether the next Write may only keep its chunk: in event
// mode, with a wake set, while no step waits on undecided bytes, outside
// Write and Close. The array chunks are kept in is made once writes are
// seen to be small (big ones rarely lack a wake byte).
func (c *Core) setLazy(small bool) {
	if c.hold == nil && small && c.eventMode {
		c.hold = new([lazyLimit]byte)
	}
	c.lazy = c.hold != nil && (c.wake != nil || c.waker != nil) && !c.undecided && c.eventMode && !c.closed && !c.busy
	c.lazySet = nil
	if c.lazy && c.waker == nil {
		c.lazySet = c.wake
	}
}

func (c *Core) write(p []byte) (int, error) {
	if c.busy {
		return 0, syntax.ErrReentrant
	}
	if c.closed {
		return 0, syntax.ErrClosed
	}
	c.busy, c.lazy, c.lazySet = true, false, nil
	defer func() {
		c.busy = false
		c.setLazy(len(p) < lazyLimit/16)
	}()
	data := p
	inPend := false // data is c.pend
	switch {
	case c.held > 0 && c.held+len(p) <= lazyLimit:
		copy(c.hold[c.held:], p)
		data = c.hold[:c.held+len(p)]
		c.held = 0
	case c.held > 0:
		c.pend = append(append(c.pend[:0], c.hold[:c.held]...), p...)
		data, inPend = c.pend, true
		c.held = 0
	case len(c.pend) > 0:
		c.pend = append(c.pend, p...)
		data, inPend = c.pend, true
	}
	n := c.drive(data, false)
	c.undecided = n < len(data)
	if n < len(data) {
		if n > 0 || !inPend { // else the undecided bytes are c.pend already: a step that waits long costs no copy a write
			c.pend = append(c.pend[:0], data[n:]...)
		}
	} else {
		c.pend = c.pend[:0]
	}
	if c.opts.Mode == syntax.TokenMode {
		c.flushFragment(false)
	}
	return len(p), nil
}

// Close consumes what is held back, calls the finish function, closes the
// open text run and emits the End event if the syntax has not.
func (c *Core) Close() error {
	if c.busy {
		return syntax.ErrReentrant
	}
	if c.closed {
		return nil
	}
	c.closed = true
	c.busy, c.lazy, c.lazySet = true, false, nil
	defer func() { c.busy = false }()
	if c.held > 0 {
		c.drive(c.hold[:c.held], true)
	} else {
		c.drive(c.pend, true)
	}
	c.pend, c.hold, c.held = nil, nil, 0
	end := c.pos.Offset
	if c.finish != nil {
		c.finish(end)
	}
	c.EndRun()
	c.emitEnd(syntax.Span{Start: end, End: end})
	return nil
}

func (c *Core) drive(data []byte, eof bool) int {
	c.cur, c.trk, c.trkAt = data, c.pos, 0
	done := 0
	for done < len(data) {
		c.done = done
		n := c.step(data[done:], eof)
		if n == Again {
			continue
		}
		if n <= 0 {
			if eof { // a step must consume everything at EOF; never loop
				panic("scan: step consumed nothing at end of input")
			}
			break
		}
		done += n
	}
	if c.trkAt < done {
		c.pos = Advance(c.trk, data[c.trkAt:done])
	} else {
		c.pos = c.trk
	}
	// Pos between drives (in finish) is where the input ends.
	c.cur, c.done, c.trk, c.trkAt = nil, 0, c.pos, 0
	return done
}

// Advance returns the position after p, starting at pos.
func Advance(pos syntax.Pos, p []byte) syntax.Pos {
	pos.Offset += int64(len(p))
	if len(p) <= 16 { // small steps are common when a stream comes in tiny chunks
		for _, b := range p {
			if b == '\n' {
				pos.Line++
				pos.Column = 1
			} else {
				pos.Column++
			}
		}
		return pos
	}
	// Count first: it is vectorised, and when there is a newline the
	// backward search only walks the last line.
	if n := bytes.Count(p, newline); n > 0 {
		pos.Line += n
		pos.Column = len(p) - bytes.LastIndexByte(p, '\n')
	} else {
		pos.Column += len(p)
	}
	return pos
}

var newline = []byte{'\n'}

// BeginRun closes the open run and opens a run of type t whose span starts at
// start (a marker's offset, for runs that a marker opens).
func (c *Core) BeginRun(t syntax.Type, start int64) {
	c.EndRun()
	if t != syntax.Respond {
		c.det.proseOn = false
	}
	c.run = t
	c.runStart = start
	c.runEnd = start
}

// Text adds p, found at offset off, to the run of type t, opening one (and
// closing a run of another type) if needed.
func (c *Core) Text(t syntax.Type, p []byte, off int64) {
	if c.run != t {
		c.BeginRun(t, off)
	}
	if len(p) == 0 {
		return
	}
	if c.det.on {
		c.det.text(t, off, len(p))
		c.runEnd = off + int64(len(p))
		return
	}
	limit := c.opts.BlockLimit()
	for len(c.runBuf)+len(p) > limit {
		// Cut the run at the limit, or just before a character the limit
		// would split: a run longer than a block may hold is reported in
		// limit-sized pieces. The cut depends on the run's bytes only, never
		// on where the chunks ended.
		cut := cutPoint(c.runBuf, p, limit)
		k := cut - len(c.runBuf)
		var carry []byte // the first bytes of a character the cut would split, which began in the run
		if k < 0 {
			carry = bytes.Clone(c.runBuf[cut:])
			c.runBuf = c.runBuf[:cut]
			k = 0
		}
		c.appendRun(p[:k], off)
		off += int64(k)
		p = p[k:]
		c.runEnd = off - int64(len(carry))
		run := c.run
		c.cutRun()
		c.BeginRun(run, c.runEnd)
		c.tokOff = c.runEnd
		if len(carry) > 0 {
			c.appendRun(carry, c.runEnd)
		}
	}
	c.appendRun(p, off)
	c.runEnd = off + int64(len(p))
}

// cutPoint returns where a run made of held followed by p is cut when it
// passes limit bytes: at limit, unless the bytes before it end inside a
// character that the byte at limit continues (its first bytes, at most
// three, are the start of a valid UTF-8 sequence that is not complete:
// utf8.FullRune's test, the one token mode holds a fragment's last bytes
// back by); then before that character. A character as long as the whole
// piece is cut at the limit.
func cutPoint(held, p []byte, limit int) int {
	at := func(i int) byte {
		if i < len(held) {
			return held[i]
		}
		return p[i-len(held)]
	}
	if utf8.RuneStart(at(limit)) {
		return limit
	}
	for i := limit - 1; i >= 0 && i >= limit-utf8.UTFMax+1; i-- {
		if !utf8.RuneStart(at(i)) {
			continue
		}
		var head [utf8.UTFMax]byte
		n := 0
		for j := i; j < limit; j++ {
			head[n] = at(j)
			n++
		}
		if i > 0 && !utf8.FullRune(head[:n]) {
			return i
		}
		break
	}
	return limit
}

// TextDecoded adds to the run of type t text that was decoded from the
// source (a JSON string in a provider's stream) rather than copied from it:
// content is the text, span the source bytes it came from. The run's span,
// and in token mode each fragment's, cover the source it came from.
func (c *Core) TextDecoded(t syntax.Type, content []byte, span syntax.Span) {
	c.det.proseOn = false // decoded text is no prose of the input's own bytes
	if c.run == t && len(c.runBuf)+len(content) > c.opts.BlockLimit() {
		c.EndRun() // a run longer than a block may hold is reported in pieces
	}
	if c.run != t {
		c.BeginRun(t, span.Start)
		c.decoded, c.fragFrom = true, span.Start
	}
	c.appendRun(content, span.Start)
	c.runEnd = span.End
}

func (c *Core) appendRun(p []byte, off int64) {
	if c.cut != nil && len(bytes.TrimFunc(p, isSpaceRune)) > 0 {
		// The piece before this one is followed by text: it is complete.
		c.h(*c.cut)
		c.cut = nil
	}
	if c.opts.Mode == syntax.TokenMode && !c.runLead {
		i := 0
		for i < len(p) && isSpace(p[i]) {
			i++
		}
		if i == len(p) {
			c.runBuf = append(c.runBuf, p...)
			c.tokFrom = len(c.runBuf)
			return
		}
		c.runLead = true
		c.runBuf = append(c.runBuf, p[:i]...)
		c.tokFrom = len(c.runBuf)
		c.tokOff = off + int64(i)
		p = p[i:]
	}
	c.runBuf = Append(c.runBuf, p)
}

// flushFragment sends, in token mode, the run's text not yet sent. Unless
// final, an incomplete UTF-8 character at the end is kept for the next
// fragment.
func (c *Core) flushFragment(final bool) {
	if c.opts.Mode != syntax.TokenMode || c.run == "" || c.tokFrom >= len(c.runBuf) {
		return
	}
	frag := c.runBuf[c.tokFrom:]
	if !final {
		frag = frag[:completeUTF8(frag)]
		if len(frag) == 0 {
			return
		}
	}
	span := syntax.Span{Start: c.tokOff, End: c.tokOff + int64(len(frag))}
	if c.decoded {
		span = syntax.Span{Start: c.fragFrom, End: c.runEnd}
		c.fragFrom = c.runEnd
	}
	c.h(syntax.Event{Type: c.run, Content: string(frag), Partial: true, Span: span})
	c.tokFrom += len(frag)
	c.tokOff += int64(len(frag))
}

// CompleteUTF8 returns the length of the longest prefix of p that does not
// end inside a UTF-8 character: where a piece of streamed text may be cut.
func CompleteUTF8(p []byte) int { return completeUTF8(p) }

// completeUTF8 returns the length of the longest prefix of p that does not end
// inside a UTF-8 character.
func completeUTF8(p []byte) int {
	n := len(p)
	for i := n - 1; i >= 0 && i >= n-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			return n
		}
	}
	return n
}

// EndRun closes the open run: its text, trimmed, becomes one event unless it
// is only white space. The run's span ends where its last text ended.
func (c *Core) EndRun() { c.EndRunAt(-1) }

// EndRunAt closes the open run with its span ending at end (a closing
// marker's end); end < 0 means where its last text ended.
func (c *Core) EndRunAt(end int64) {
	if c.run == "" {
		return
	}
	c.det.proseOn = false // the first run is over
	c.flushFragment(true)
	if end < 0 {
		end = c.runEnd
	}
	content := bytes.TrimFunc(c.runBuf, isSpaceRune)
	if c.runOpaque != nil && len(content) > 0 {
		content = c.runBuf // signed text, as it came
	}
	if c.cut != nil {
		if len(content) == 0 {
			// The rest of a run cut at the limit was white space: the
			// piece before it covers its bytes, up to the closing marker.
			c.cut.Span.End = end
		}
		c.h(*c.cut)
		c.cut = nil
	}
	if len(content) > 0 || c.runOpaque != nil {
		c.h(syntax.Event{Type: c.run, Content: string(content), Opaque: c.runOpaque, Span: syntax.Span{Start: c.runStart, End: end}})
	}
	c.resetRun()
}

// RunOpaque gives the open run of type t the provider state o (see
// syntax.Event.Opaque), which its event carries: the signature of a thought,
// a thought signature on a text part. With no run of type t open, o is an
// event of its own, a run of no text over span (a part that holds only
// state, such as Anthropic's redacted thinking). A run given state twice
// keeps the last: a parser whose state belongs to one part ends the run
// after it. A run that carries state keeps its text byte for byte, white
// space around it included: the provider signed that text, and takes it
// back only unchanged.
func (c *Core) RunOpaque(t syntax.Type, o json.RawMessage, span syntax.Span) {
	if len(o) == 0 {
		return
	}
	if c.run != t {
		c.EndRun()
		c.BeginRun(t, span.Start)
		c.runEnd = span.End
		c.decoded, c.fragFrom = true, span.End // text that follows is decoded, from its own source
	}
	c.runOpaque = o
	if span.End > c.runEnd {
		c.runEnd = span.End
	}
}

// cutRun closes a piece of a run cut at the limit. Its event is held until
// the next piece has text (appendRun), or the run ends (EndRunAt): a piece
// is never followed by one of nothing but white space, whose bytes no event
// would account for. In token mode the next piece's fragments start with
// its text, after the held event.
func (c *Core) cutRun() {
	c.flushFragment(true)
	if content := bytes.TrimFunc(c.runBuf, isSpaceRune); len(content) > 0 {
		if c.cut != nil {
			c.h(*c.cut)
		}
		c.cut = &syntax.Event{Type: c.run, Content: string(content), Span: syntax.Span{Start: c.runStart, End: c.runEnd}}
	} else if c.cut != nil {
		c.cut.Span.End = c.runEnd
	}
	c.resetRun()
}

func (c *Core) resetRun() {
	c.run = ""
	c.runOpaque = nil
	c.runBuf = c.runBuf[:0]
	if cap(c.runBuf) > 64<<10 {
		c.runBuf = nil // do not keep a large run's memory for the rest of the stream
	}
	c.tokFrom = 0
	c.runLead = false
	c.decoded = false
}

// Emit closes the open run and hands e to the handler. An End event is
// emitted at most once per stream: later ones, and any event after it, are
// dropped.
func (c *Core) Emit(e syntax.Event) {
	c.EndRun()
	c.det.proseOn = false
	if e.Type == syntax.End {
		c.emitEnd(e.Span)
		return
	}
	if c.ended {
		return
	}
	// Raw JSON copied from a model's output may hold bytes that are not
	// UTF-8; they become U+FFFD, as the strings of every other field are
	// written (AppendQuote), so every syntax hands on the same arguments.
	e.Args, e.Value = jsonscan.ValidUTF8(e.Args), jsonscan.ValidUTF8(e.Value)
	if e.Partial && !utf8.ValidString(e.Delta) {
		e.Delta = string(jsonscan.ValidUTF8([]byte(e.Delta))) // the arguments' pieces as the arguments
	}
	c.h(e)
}

// emitEnd emits the stream's End event unless one was emitted already.
func (c *Core) emitEnd(span syntax.Span) {
	c.EndRun()
	if c.ended {
		return
	}
	c.ended = true
	c.h(syntax.Event{Type: syntax.End, Span: span})
}

// Errorf emits an Error event of the given code at pos covering span, with
// raw as the text no other event used and a message formatted as by
// fmt.Sprintf.
func (c *Core) Errorf(code syntax.Code, pos syntax.Pos, span syntax.Span, raw []byte, format string, args ...any) {
	c.Emit(syntax.Event{Type: syntax.Error, Code: code, Message: fmt.Sprintf(format, args...), Pos: pos, Raw: string(raw), Span: span})
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func isSpaceRune(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// textUpTo returns how much of data, which starts with a byte that begins no
// marker, is text: up to the next c (the byte markers start with), or all of it.
func textUpTo(data []byte, c byte) int {
	if i := bytes.IndexByte(data[1:], c); i >= 0 {
		return 1 + i
	}
	return len(data)
}

// TextUntil is TextUpTo that also passes over each c at which starts says
// no marker starts: a long run of '<' that opens no tag is one step, not one
// step per byte.
func TextUntil(data []byte, c byte, starts func([]byte) bool) int {
	i := 1
	for {
		j := bytes.IndexByte(data[i:], c)
		if j < 0 {
			return len(data)
		}
		i += j
		if starts(data[i:]) {
			return i
		}
		i++
	}
}

// IndexLead is the index of the first byte of data that is one of the bytes
// of leads, or -1: bytes.IndexAny for bytes, not characters. A marker's
// first byte may begin a character of several bytes (Kimi-VL's ◁ begins
// with 0xE2), which bytes.IndexAny, reading leads as UTF-8, would not find.
func IndexLead(data []byte, leads string) int {
	for i := 0; i < len(leads); i++ {
		if leads[i] >= utf8.RuneSelf {
			return indexBytes(data, leads)
		}
	}
	return bytes.IndexAny(data, leads)
}

func indexBytes(data []byte, set string) int {
	for i, c := range data {
		if strings.IndexByte(set, c) >= 0 {
			return i
		}
	}
	return -1
}

// TextBeforeAny is TextBefore for markers that start with any of the bytes
// of leads (Apriel's '[' and '<').
func (c *Core) TextBeforeAny(t syntax.Type, data []byte, leads string) int {
	if len(leads) == 1 {
		return c.TextBefore(t, data, leads[0])
	}
	i := IndexLead(data, leads)
	if i < 0 {
		i = len(data)
	}
	if i > 0 {
		c.Text(t, data[:i], c.Offset())
	}
	return i
}

// TextUntilAny is TextUntil for markers that start with any of the bytes
// of leads.
func TextUntilAny(data []byte, leads string, starts func([]byte) bool) int {
	if len(leads) == 1 {
		return TextUntil(data, leads[0], starts)
	}
	i := 1
	for {
		j := IndexLead(data[i:], leads)
		if j < 0 {
			return len(data)
		}
		i += j
		if starts(data[i:]) {
			return i
		}
		i++
	}
}

// TextBefore adds the text of data up to the first c (all of it when there
// is none) to the run of type t, and returns its length: 0 when data starts
// with c, where a marker may begin.
func (c *Core) TextBefore(t syntax.Type, data []byte, b byte) int {
	i := bytes.IndexByte(data, b)
	if i < 0 {
		i = len(data)
	}
	if i > 0 {
		c.Text(t, data[:i], c.Offset())
	}
	return i
}

// Inside handles the text of an element in which only closeTag is a marker
// (a thought): it adds text of type t up to the next place closeTag may
// start and, when data starts with closeTag, closes the run at its end. It
// returns the bytes taken (0: more input is needed) and whether the close
// tag was among them.
func (c *Core) Inside(t syntax.Type, data []byte, eof bool, closeTag string) (int, bool) {
	if n := c.TextBefore(t, data, closeTag[0]); n > 0 {
		return n, false
	}
	off := c.Offset()
	full, partial := MatchPrefix(data, closeTag)
	switch {
	case full:
		c.EndRunAt(off + int64(len(closeTag)))
		return len(closeTag), true
	case partial && !eof:
		return 0, false
	}
	n := textUpTo(data, closeTag[0])
	c.Text(t, data[:n], off)
	return n, false
}

// MatchPrefix compares data with marker. It returns full when data starts
// with marker, and partial when data is a proper prefix of marker (more input
// could complete it).
func MatchPrefix(data []byte, marker string) (full, partial bool) {
	if len(data) >= len(marker) {
		return string(data[:len(marker)]) == marker, false
	}
	return false, string(data) == marker[:len(data)]
}

// MatchAny matches markers at the start of data: it returns the first
// marker data starts with, or "" and wait, which says data may still become
// one once more input comes (never at eof).
func MatchAny(data []byte, eof bool, markers []string) (m string, wait bool) {
	for _, mk := range markers {
		full, partial := MatchPrefix(data, mk)
		if full {
			return mk, false
		}
		wait = wait || partial && !eof
	}
	return "", wait
}

// Append appends p to dst like the built-in append, but doubles the capacity
// when it must grow, so that a block built from many small writes is copied
// about once in all (the built-in grows large slices by only 1.25×).
func Append(dst, p []byte) []byte {
	if len(dst)+len(p) > cap(dst) {
		need := len(dst) + len(p)
		dst = slices.Grow(dst, max(2*cap(dst), need+need/8+512)-len(dst)) // zeroes only the new room
	}
	return append(dst, p...)
}

// Block holds the bytes of one block as they arrive, up to a limit. Past
// the limit it only counts them: the block will be an error without raw, and
// memory stays bounded however long the block runs.
type Block struct {
	Bytes []byte // the bytes kept (none once over the limit)
	Len   int64  // all the bytes seen
	Over  bool   // the block went past the limit
}

// Reset empties the block for reuse.
func (b *Block) Reset() {
	b.Bytes, b.Len, b.Over = b.Bytes[:0], 0, false
}

// Keep adds p, unless the block is, or now goes, over limit bytes.
func (b *Block) Keep(p []byte, limit int) {
	b.Len += int64(len(p))
	if b.Over {
		return
	}
	if len(b.Bytes)+len(p) > limit {
		b.Over = true
		b.Bytes = b.Bytes[:0]
		return
	}
	if need := len(b.Bytes) + len(p); need > cap(b.Bytes) {
		// Grow as Append does, but never past the limit: a block near
		// the limit is not given twice its room.
		b.Bytes = slices.Grow(b.Bytes, min(max(2*cap(b.Bytes), need+need/8+512), limit)-len(b.Bytes)) // zeroes only the new room
	}
	// A reslice, not append: only the length is stored, so the common case
	// (room enough) pays no GC write barrier for the slice's pointer.
	n := len(b.Bytes)
	b.Bytes = b.Bytes[:n+len(p)]
	copy(b.Bytes[n:], p)
}

// Keep adds p to the block b within the options' block limit (see
// Block.Keep): the one way a step keeps a block's bytes.
func (c *Core) Keep(b *Block, p []byte) { b.Keep(p, c.opts.BlockLimit()) }

// Drop puts the block over the limit now, for a reader that finds what it
// has not kept yet will take it there (a marker the limit cuts).
func (b *Block) Drop() { b.Over, b.Bytes = true, b.Bytes[:0] }

// Fit returns the head of p that the block can still take, plus one byte,
// or all of p once the block is over the limit. A parser that reads bytes
// before keeping them (a scanner that streams a call's arguments, a value
// built as it is read) reads Fit(p, limit) and keeps what it read: what it
// builds from the bytes before the limit stays within it, and keeping the
// extra byte takes the block over, from where nothing more need be built.
// (Given a whole transcript in one Write, such a parser used to build a
// block's value or deltas from all of it before finding the block over.)
func (b *Block) Fit(p []byte, limit int) []byte {
	if room := limit - len(b.Bytes) + 1; !b.Over && len(p) > room {
		return p[:max(room, 0)]
	}
	return p
}

// Reserve makes room in the block for n more bytes at once, or for what
// the limit leaves: a reader that sees where the part of the block it
// reads ends (its closer is in the bytes at hand, see Ahead) grows the
// block once instead of by doubling as the part's pieces are kept.
func (b *Block) Reserve(n, limit int) {
	if n = min(n, limit-len(b.Bytes)); !b.Over && n > cap(b.Bytes)-len(b.Bytes) {
		b.Bytes = slices.Grow(b.Bytes, n)
	}
}

// Ahead finds a value's closer in the bytes at hand, so that a reader can
// size what it builds (Block.Reserve) when the whole value has come in one
// Write. It searches each byte at most once, however many values search:
// a search starts where the last one found its closer, or gave up. (Many
// values that end otherwise, before a distant closer, searched up to it
// each until a review found it: quadratic.) A reader checks that the
// closer found is its value's own before it sizes anything from it.
type Ahead struct {
	clear int64 // the input before this offset holds no closer that starts there
}

// Find returns the index in data, which starts at offset off in the input,
// of the first closer, or -1. A reader uses one Ahead per closer.
func (a *Ahead) Find(data []byte, off int64, closer []byte) int {
	from := max(a.clear-off, 0)
	if from >= int64(len(data)) {
		return -1
	}
	if i := bytes.Index(data[from:], closer); i >= 0 {
		a.clear = off + from + int64(i) // the first closer: none starts before it
		return int(from) + i
	}
	a.clear = max(a.clear, off+int64(len(data)-len(closer)+1)) // a closer may start in the last bytes, cut off
	return -1
}

// PartialSuffix returns the length of the longest suffix of b that is a
// proper prefix of tag: bytes to hold back while searching for tag.
func PartialSuffix(b []byte, tag string) int {
	for k := min(len(tag)-1, len(b)); k > 0; k-- {
		if string(b[len(b)-k:]) == tag[:k] {
			return k
		}
	}
	return 0
}
