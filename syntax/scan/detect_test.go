package scan_test

import (
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// toy is a parser of a made-up syntax for NewDetector: text, <x> (its own
// marker: evidence), <s> (a marker another syntax writes too: evidence
// from there once an <x> follows), <t>…</t> (a shared reasoning block: no
// evidence, but prose ends there), and <h> held undecided until the next
// byte: '!' makes it evidence, anything else text.
type toy struct {
	scan.Core
	state  int // 0 text, 1 in <t>, 2 after <h>
	heldAt int64
}

func newToy(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &toy{}
	p.Init(h, opts, p.step, nil)
	return p
}

func (p *toy) step(data []byte, eof bool) int {
	off := p.Offset()
	switch p.state {
	case 1:
		n, closed := p.Inside(syntax.Think, data, eof, "</t>")
		if closed {
			p.state = 0
		}
		return n
	case 2:
		p.state = 0
		p.Undecided(-1)
		if data[0] == '!' {
			p.Evident(p.heldAt)
			return 1
		}
		p.Text(syntax.Respond, []byte("<h>"), p.heldAt)
		return scan.Again
	}
	if n := p.TextBefore(syntax.Respond, data, '<'); n > 0 {
		return n
	}
	for _, m := range []string{"<x>", "<s>", "<t>", "<h>"} {
		full, partial := scan.MatchPrefix(data, m)
		switch {
		case full && m == "<x>":
			p.Own(off)
			return len(m)
		case full && m == "<s>":
			p.Shared(off)
			p.EndRun()
			return len(m)
		case full && m == "<t>":
			p.BeginRun(syntax.Think, off)
			p.state = 1
			return len(m)
		case full:
			p.heldAt, p.state = off, 2
			p.Undecided(off)
			return len(m)
		case partial && !eof:
			return 0
		}
	}
	p.Text(syntax.Respond, data[:1], off)
	return 1
}

func TestNewDetector(t *testing.T) {
	for _, c := range []struct {
		in                 string
		eof                bool
		at, pending, prose int
	}{
		{"Hello <x> more", true, 6, -1, 6},
		{"Hello <x", false, -1, 6, 6},           // a marker cut off: pending
		{"Hello <x", true, -1, -1, 8},           // at the end it is text
		{"Hi <t>x<x></t> <x>", true, 15, -1, 3}, // nothing in the block is evidence; prose ends at it
		{"Hi <h>", false, -1, 3, 3},             // held undecided
		{"Hi <h>!", false, 3, -1, 3},            // decided: evidence where it was held
		{"Hi <h>? ok", true, -1, -1, 10},        // decided: text, and prose goes on
		{"no marker", false, -1, -1, 9},
		{"Hi <s> a <s> b <x>", true, 3, -1, 3}, // shared, then its own: evidence at the first shared marker
		{"Hi <s> a", false, -1, 3, 3},          // shared alone: pending there
		{"Hi <s> a", true, -1, -1, 3},          // shared alone at the end: no evidence
		{"Hi <x> <s>", true, 3, -1, 3},         // a shared marker after the evidence changes nothing
	} {
		for _, n := range []int{1, 2, len(c.in)} {
			d := scan.NewDetector(newToy, syntax.Options{})
			var ev syntax.Evidence
			for end := n; ; end += n {
				end = min(end, len(c.in))
				ev = d.Look([]byte(c.in[:end]), c.eof && end == len(c.in))
				if end == len(c.in) {
					break
				}
			}
			if ev.At != c.at || ev.Pending != c.pending || ev.Prose != c.prose {
				t.Errorf("%q (eof %v) in %d-byte pieces: %+v, want at %d pending %d prose %d", c.in, c.eof, n, ev, c.at, c.pending, c.prose)
			}
		}
	}
}
