// The detector (see syntax.Detector): the scan for a call opener outside
// reasoning and result blocks, and, with Options.ThinkOpen, outside the
// reasoning the prompt opened until its closer. A call opener is decided by
// the parser's own code (functionTag, wordTag); Scope.Open, and a bare
// Function.Open, are shared with other model formats, so they end prose but
// are no evidence by themselves.

package tagcall

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// newDetector returns a detector for format f, reading input as opts says.
func newDetector(f *Format, opts syntax.Options) syntax.Detector {
	d := &detector{f: f, shared: f.callOpeners(), at: -1, prose: -1, wsFor: -1}
	d.leads, _ = f.leadAndWake()
	if opts.ThinkOpen && f.Think.Close != "" {
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
	f      *Format
	leads  string // the bytes markers start with
	shared []string
	state  detectState
	pos    int // every marker that starts before pos is decided
	prose  int // where prose ended, once known; -1 before
	at     int // the evidence, once found; -1 before
	wsFor  int // the pending opener whose white space was read up to ws (relative to it)
	ws     int
}

func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

func (d *detector) isShared(b []byte) bool {
	for _, s := range d.shared {
		if bytes.HasPrefix(b, []byte(s)) {
			return true
		}
	}
	return false
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	f := d.f
	pending := -1
	for d.at < 0 && pending < 0 && d.pos < len(seen) {
		switch d.state {
		case detThink, detResponse:
			closer := f.Think.Close
			if d.state == detResponse {
				closer = f.Result.Close
			}
			if k := bytes.Index(seen[d.pos:], []byte(closer)); k >= 0 {
				d.pos += k + len(closer)
				d.state = detText
				continue
			}
			d.pos = max(d.pos, len(seen)-len(closer)+1)
			return d.evidence(seen, -1)
		}
		j := scan.IndexLead(seen[d.pos:], d.leads)
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		rest := seen[i:]
		wait := false // a marker that is no evidence may start here
		if d.state == detOpenThink {
			full, partial := scan.MatchPrefix(rest, f.Think.Close)
			if full {
				d.state = detText
				d.pos = i + len(f.Think.Close)
				if f.Own || f.OwnThink {
					d.fix(i)
					d.at = i
				}
				continue
			}
			if partial && !eof && (f.Own || f.OwnThink) {
				return d.evidence(seen, i) // evidence by itself once whole
			}
			wait = partial && !eof
		} else {
			// The answer's markers are the format's own tokens: evidence.
			for _, m := range f.Drop {
				full, partial := scan.MatchPrefix(rest, m)
				if full && m != "" {
					d.fix(i)
					d.at = i
					return d.evidence(seen, -1)
				}
				if partial && !eof && m != "" {
					return d.evidence(seen, i)
				}
			}
			opened := false
			for _, o := range [...]string{f.Think.Open, f.Result.Open} {
				full, partial := scan.MatchPrefix(rest, o)
				if full && o != "" {
					d.fix(i)
					d.state = detThink
					if f.ThinkCalls {
						d.state = detOpenThink // a call opener ends it too
					}
					if o == f.Result.Open {
						d.state = detResponse
					} else if f.Own || f.OwnThink {
						d.at = i
					}
					d.pos = i + len(o)
					opened = true
					break
				}
				if partial && !eof && (f.Own || f.OwnThink) && o == f.Think.Open {
					return d.evidence(seen, i) // evidence by itself once whole
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
		c, ws := f.callAt(rest, eof, ws, d.shared)
		if c == 1 && f.SharedCalls {
			c = 0 // another format's call as much as this one's
		}
		d.wsFor, d.ws = i, ws
		switch c {
		case 1:
			d.fix(i)
			d.at = i
		case -1:
			if d.state == detText && d.isShared(rest) {
				d.fix(i)
			}
			pending = i
		default:
			if wait {
				return d.evidence(seen, -1)
			}
			if d.state == detText && d.isShared(rest) {
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

// callAt reports whether b, which starts with a marker's lead byte, starts a call as the
// parser reads it: 1 yes, 0 no, -1 when more input is needed. ws is where,
// in b, white space after a tag was read up to by an earlier call that
// needed more input (0 when none), and callAt returns where it read it up
// to this time, so that a long run of white space is read once.
// openers are the format's call openers (Format.callOpeners).
func (f *Format) callAt(b []byte, eof bool, ws int, openers []string) (int, int) {
	if !f.hasCalls() {
		return 0, ws
	}
	if f.JSON != nil && f.Param.Open != "" {
		// Both forms: what the parser's opener decides first.
		switch n, _, _ := f.wordTag(b, eof); {
		case n > 0:
			return 1, 0
		case n == -1:
			return -1, 0
		}
	}
	if f.JSON != nil {
		o, wait := matchAny(b, eof, openers)
		full, partial := o != "", wait
		switch {
		case full && (f.Own || f.OwnScope):
			return 1, 0
		case full:
			// What the parser's jsonOpen decides.
			i := max(ws, len(o))
			i += skipWS(b[i:])
			switch {
			case i < len(b) && (b[i] == '{' || b[i] == '[' && !f.Object):
				return 1, i
			case i == len(b) && !eof:
				return -1, i
			}
			return 0, i
		case partial && !eof:
			return -1, 0
		}
		return 0, 0
	}
	if !f.named() {
		if full, _ := scan.MatchPrefix(b, f.Scope.Open); full && (f.Own || f.OwnScope) {
			return 1, 0 // the format's own tag, whatever follows it
		}
		n, _, _ := f.wordTag(b, eof)
		switch {
		case n > 0:
			return 1, 0
		case n == -1:
			return -1, 0
		}
		return 0, 0
	}
	if full, partial := scan.MatchPrefix(b, f.Scope.Open); f.Scope.Open == "" {
		// No wrapper: only a bare Function tag opens a call.
	} else if full && (f.Own || f.OwnScope) {
		return 1, 0 // the format's own tag, whatever follows it
	} else if full {
		// What the parser's wrapper state decides.
		i := max(ws, len(f.Scope.Open))
		i += skipWS(b[i:])
		full, partial := scan.MatchPrefix(b[i:], f.Function.Open)
		switch {
		case full:
			return 1, i
		case (partial || i == len(b)) && !eof:
			return -1, i
		}
		return 0, i
	} else if partial && !eof {
		return -1, 0
	}
	if !f.Bare {
		return 0, 0
	}
	n, _ := f.functionTag(b, eof)
	switch {
	case n < 0:
		return -1, 0
	case n == 0:
		return 0, 0
	}
	// What the parser's probe state decides.
	i := max(ws, n)
	i += skipWS(b[i:])
	full1, partial1 := scan.MatchPrefix(b[i:], f.Param.Open)
	full2, partial2 := scan.MatchPrefix(b[i:], f.Function.Close)
	switch {
	case full1 || full2:
		return 1, i
	case (partial1 || partial2 || i == len(b)) && !eof:
		return -1, i
	}
	return 0, i
}
