package caret

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
)

// detect makes caret's detector (see syntax.Detector). Its evidence is an
// opening fence: a line ^^^NAME, once the line is complete. A line that
// starts with ^ and may still become one is pending.
func detect(syntax.Options) syntax.Detector { return &detector{at: -1, lineStart: true} }

type detector struct {
	pos       int  // every line that starts before pos is decided
	lineStart bool // pos is at the start of a line
	at        int  // the fence, once found; -1 before
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	for d.at < 0 && d.pos < len(seen) {
		if !d.lineStart {
			k := bytes.IndexByte(seen[d.pos:], '\n')
			if k < 0 {
				d.pos = len(seen)
				break
			}
			d.pos += k + 1
			d.lineStart = true
			continue
		}
		if seen[d.pos] == '^' {
			n, _, ok := openingFence(seen[d.pos:], eof)
			if n == 0 { // undecided: the line is not complete
				return syntax.Evidence{At: -1, Pending: d.pos, Prose: d.pos}
			}
			if ok {
				d.at = d.pos
				break
			}
		}
		d.lineStart = false
	}
	if d.at >= 0 {
		return syntax.Evidence{At: d.at, Pending: -1, Prose: d.at}
	}
	return syntax.NoEvidence(d.pos)
}
