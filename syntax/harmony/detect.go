package harmony

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
)

// detect makes harmony's detector (see syntax.Detector). Its evidence is the
// first marker the parser reads as one where it stands: <|start|> or
// <|channel|> anywhere outside a message; at the start of the output, after
// white space and an optional " to=RECIPIENT", also <|message|> or
// <|constrain|>. No other syntax writes these tokens (Gemma 4's <|channel>
// has no second bar), so the marker alone tells harmony apart. With
// ThinkOpen the output starts inside an analysis message, which any of
// <|end|>, <|call|>, <|return|>, <|start|> or <|channel|> ends: each is
// evidence, and no byte is prose.
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{at: -1, think: opts.ThinkOpen, started: opts.ThinkOpen}
	d.markers = openers
	if opts.ThinkOpen {
		d.markers = enders
	}
	return d
}

type detector struct {
	think   bool
	started bool // the start of the output is decided: it is text (or, with ThinkOpen, thought)
	markers []string
	pos     int // every '<' before pos is decided
	at      int
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	if d.at >= 0 {
		return d.evidence(d.at)
	}
	if !d.started {
		at, v := readStart(seen, eof)
		switch v {
		case startUndecided:
			// A marker cut off at the end is pending; so far nothing is prose.
			return syntax.Evidence{At: -1, Pending: at, Prose: 0}
		case startHeader:
			d.at = at
			return d.evidence(d.at)
		}
		d.started = true
	}
	for d.pos < len(seen) {
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		m, partial := match(seen[i:], d.markers, eof)
		if m != "" {
			d.at = i
			return d.evidence(i)
		}
		if partial {
			return syntax.Evidence{At: -1, Pending: i, Prose: d.prose(i)}
		}
		d.pos = i + 1
	}
	return syntax.Evidence{At: -1, Pending: -1, Prose: d.prose(len(seen))}
}

func (d *detector) prose(n int) int {
	if d.think {
		return 0
	}
	return n
}

func (d *detector) evidence(at int) syntax.Evidence {
	return syntax.Evidence{At: at, Pending: -1, Prose: d.prose(at)}
}
