// Package rawdetect is the detector half that the raw-value syntaxes share
// (see syntax.Detector): the scan for a call opener outside <think> and
// <tool_response> blocks, and, with Options.ThinkOpen, outside the
// reasoning the prompt opened until its closer. The opener's markers are
// shared with other model formats, so they end prose but are no evidence by
// themselves; a [Markers] says what the syntax's own call opener looks like.
// The package knows no syntax.
package rawdetect

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Markers is what a syntax tells the detector about itself.
type Markers struct {
	OpenThink, CloseThink       string // the reasoning block's tags
	OpenResponse, CloseResponse string // a result's tags, nothing inside which is evidence

	// Shared are the starts of a call opener that other model formats
	// write too: each ends prose wherever it stands outside a block.
	Shared []string

	// CallAt reports whether b, which starts with '<', starts a call as
	// the syntax's parser reads it: 1 yes, 0 no, -1 when more input is
	// needed. ws is what CallAt returned as its second result the last
	// time it was asked about this same opener (0 when none), so that a
	// long run of white space after the opener can be read once; a syntax
	// that has no use for it returns 0.
	CallAt func(b []byte, eof bool, ws int) (call, wsTo int)
}

// New returns a detector for the syntax m describes, reading input as opts
// says.
func New(m *Markers, opts syntax.Options) syntax.Detector {
	d := &detector{m: m, at: -1, prose: -1, wsFor: -1}
	if opts.ThinkOpen {
		d.state, d.prose = detOpenThink, 0
	}
	return d
}

type detectState uint8

const (
	detText      detectState = iota
	detThink                 // inside <think>: looking for </think>
	detOpenThink             // reasoning opened by the prompt
	detResponse              // inside <tool_response>
)

type detector struct {
	m     *Markers
	state detectState
	pos   int // every marker that starts before pos is decided
	prose int // where prose ended, once known; -1 before
	at    int // the evidence, once found; -1 before
	wsFor int // the pending opener whose white space was read up to ws (relative to it)
	ws    int
}

func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

func (d *detector) shared(b []byte) bool {
	for _, s := range d.m.Shared {
		if bytes.HasPrefix(b, []byte(s)) {
			return true
		}
	}
	return false
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	m := d.m
	pending := -1
	for d.at < 0 && pending < 0 && d.pos < len(seen) {
		switch d.state {
		case detThink, detResponse:
			closer := m.CloseThink
			if d.state == detResponse {
				closer = m.CloseResponse
			}
			if k := bytes.Index(seen[d.pos:], []byte(closer)); k >= 0 {
				d.pos += k + len(closer)
				d.state = detText
				continue
			}
			d.pos = max(d.pos, len(seen)-len(closer)+1)
			return d.evidence(seen, -1)
		}
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		rest := seen[i:]
		wait := false // a marker that is no evidence may start here
		if d.state == detOpenThink {
			full, partial := scan.MatchPrefix(rest, m.CloseThink)
			if full {
				d.state = detText
				d.pos = i + len(m.CloseThink)
				continue
			}
			wait = partial && !eof
		} else {
			opened := false
			for _, o := range [...]string{m.OpenThink, m.OpenResponse} {
				full, partial := scan.MatchPrefix(rest, o)
				if full {
					d.fix(i)
					d.state = detThink
					if o == m.OpenResponse {
						d.state = detResponse
					}
					d.pos = i + len(o)
					opened = true
					break
				}
				wait = wait || partial && !eof
			}
			if opened {
				continue
			}
		}
		ws := 0
		if d.wsFor == i {
			ws = d.ws
		}
		c, ws := m.CallAt(rest, eof, ws)
		d.wsFor, d.ws = i, ws
		switch c {
		case 1:
			d.fix(i)
			d.at = i
		case -1:
			if d.state == detText && d.shared(rest) {
				d.fix(i)
			}
			pending = i
		default:
			if wait {
				return d.evidence(seen, -1)
			}
			if d.state == detText && d.shared(rest) {
				d.fix(i) // a shared marker: prose ends here whatever it turns out to be
			}
			d.pos = i + 1
		}
	}
	return d.evidence(seen, pending)
}

func (d *detector) evidence(seen []byte, pending int) syntax.Evidence {
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if ev.At >= 0 {
		ev.Pending = -1
	}
	if ev.Prose < 0 {
		ev.Prose = d.pos
		if pending >= 0 {
			ev.Prose = min(ev.Prose, pending)
		}
	}
	return ev
}
