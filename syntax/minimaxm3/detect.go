package minimaxm3

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes the detector (see syntax.Detector). Every marker the parser
// reads is MiniMax M3's own — <mm:think>, ns<tool_call>, and, in reasoning
// the prompt opened, </mm:think> — so the first of them is the evidence,
// and prose ends there.
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{at: -1, markers: []string{openThink, openBlock}}
	if opts.ThinkOpen {
		d.markers = append(d.markers, closeThink)
		d.prose0 = true
	}
	return d
}

type detector struct {
	markers []string
	pos     int // every marker starting before pos was looked for
	at      int
	prose0  bool // the stream starts in reasoning: no prose
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	if d.at < 0 {
		for _, m := range d.markers {
			if i := bytes.Index(seen[d.pos:], []byte(m)); i >= 0 && (d.at < 0 || d.pos+i < d.at) {
				d.at = d.pos + i
			}
		}
	}
	ev := syntax.Evidence{At: d.at, Pending: -1}
	if d.at < 0 {
		if !eof {
			for _, m := range d.markers {
				if k := scan.PartialSuffix(seen, m); k > 0 && (ev.Pending < 0 || len(seen)-k < ev.Pending) {
					ev.Pending = len(seen) - k
				}
			}
		}
		// A marker not yet seen whole may still start in the last bytes.
		d.pos = max(d.pos, len(seen)-len(openBlock)+1)
	}
	switch {
	case d.prose0:
		ev.Prose = 0
	case ev.At >= 0:
		ev.Prose = ev.At
	case ev.Pending >= 0:
		ev.Prose = ev.Pending
	default:
		ev.Prose = len(seen)
	}
	return ev
}
