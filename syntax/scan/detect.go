package scan

import "github.com/toolparse/toolparse/syntax"

// Detection by parsing: a syntax's detector is its own parser, run over the
// start of the stream with no events going out, that reports where it read
// evidence of its syntax. The parser says so with [Core.Evident] where it
// commits to its own marker or a call (what only it reads there), and with
// [Core.Undecided] while bytes it consumed wait for what follows them (a tag
// whose meaning the next bytes decide). The core knows the rest: the text it
// was given from the input's start, with nothing else before it, is prose;
// a marker the syntax shares with another ([Core.Shared]) holds the
// decision until one of its own ([Core.Own]);
// the bytes a step has not consumed, or consumed undecided, are where
// evidence may still start.

// detection is what a Core run by a Detector knows of the evidence.
type detection struct {
	on      bool  // the core runs for a Detector: text is not kept
	at      int64 // the first evidence (Evident), -1 none
	prose   int64 // where the respond text read from the input's start ends
	proseOn bool  // nothing but respond text has been read: prose may grow
	held    int64 // where bytes a step took undecided start (Undecided), -1 none
	shared  int64 // where the first marker another syntax shares was read (Shared), -1 none
}

func newDetection() detection { return detection{at: -1, held: -1, shared: -1, proseOn: true} }

// text notes text of type t at off, n bytes: respond text right after the
// prose read so far extends it; anything else ends it.
func (d *detection) text(t syntax.Type, off int64, n int) {
	if d.proseOn && t == syntax.Respond && off == d.prose {
		d.prose += int64(n)
		return
	}
	d.proseOn = false
}

// Evident says that the parser committed, at offset off, to what only its
// syntax reads there: its own marker, or a call opener it decided on. The
// first such offset is the evidence auto-detection weighs (see
// syntax.Evidence); a parser that is not run by a detector pays a
// comparison.
func (c *Core) Evident(off int64) {
	if c.det.at < 0 {
		c.det.at = off
	}
	c.det.proseOn = false
}

// Blank says that the step passed over n bytes of white space at offset
// off that belong to no event (the white space before a message's first
// token): to a detector they are prose as text would be.
func (c *Core) Blank(off int64, n int) { c.det.text(syntax.Respond, off, n) }

// Shared says that the parser read, at offset off, a marker it shares with
// another syntax (Harmony's and Glimmer's <|start|>): the decision is held
// from the first such marker (as with Undecided) until the parser reads a
// marker of its own, which Own reports.
func (c *Core) Shared(off int64) {
	if c.det.shared < 0 {
		c.det.shared = off
		c.Undecided(off)
	}
}

// Own says that the parser read, at offset off, a marker only its syntax
// writes: the evidence (Evident) is there, or at the first shared marker
// read before it (Shared).
func (c *Core) Own(off int64) {
	if c.det.shared >= 0 {
		off, c.det.shared = c.det.shared, -1
		c.Undecided(-1)
	}
	c.Evident(off)
}

// Undecided says that the bytes from offset from on were consumed by a step
// but not decided on yet: a tag whose meaning what follows it tells. Until
// Undecided(-1) (the tag was decided, as text or as a call) evidence may
// still start there.
func (c *Core) Undecided(from int64) { c.det.held = from }

// evidence is what the core has seen of its syntax in the first n bytes of
// the input (see syntax.Evidence); eof says they are the whole input.
func (c *Core) evidence(n int, eof bool) syntax.Evidence {
	d := &c.det
	ev := syntax.Evidence{At: int(d.at), Pending: -1, Prose: int(d.prose)}
	if d.at >= 0 || eof {
		return ev
	}
	pending := c.pos.Offset // bytes from here on were not consumed
	if d.held >= 0 {
		pending = min(pending, d.held)
	}
	if pending < int64(n) {
		ev.Pending = int(pending)
	}
	return ev
}

// core gives NewDetector the Core a parser embeds.
func (c *Core) core() *Core { return c }

// NewDetector makes a detector of a syntax from its parser (see
// syntax.Detector): newParser's parser, which must embed a [Core], reads
// the input in token mode with no events going out and its text not kept,
// and reports evidence through [Core.Evident] and [Core.Undecided]. Each
// call of Look feeds it the bytes not seen before; it stops reading once it
// has found evidence. Reading is linear in the input, and memory is what
// the parser holds of a block.
func NewDetector(newParser func(syntax.Handler, syntax.Options) syntax.Parser, opts syntax.Options) syntax.Detector {
	opts.Mode = syntax.TokenMode // a step decides as soon as it can: nothing waits for a wake byte
	p := newParser(func(syntax.Event) {}, opts)
	c := p.(interface{ core() *Core }).core()
	c.det.on = true
	return &parseDetector{p: p, c: c}
}

type parseDetector struct {
	p      syntax.Parser
	c      *Core
	fed    int
	closed bool
}

func (d *parseDetector) Look(seen []byte, eof bool) syntax.Evidence {
	if d.c.det.at < 0 && !d.closed {
		if d.fed < len(seen) {
			d.p.Write(seen[d.fed:])
			d.fed = len(seen)
		}
		if eof {
			d.p.Close()
			d.closed = true
		}
	}
	return d.c.evidence(len(seen), eof || d.closed)
}
