package functionary

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
)

// detect makes functionary's detector (see syntax.Detector). Its evidence
// is where the parser opens its first segment, decided by the parser's own
// code (head, sepHead): a segment head at the input's start (all, python,
// or NAME and '{' on the next line), or >>> and one in text. Before that,
// the input is prose up to the first '>' that may start >>>, or, at the
// start, up to the undecided head.
func detect(syntax.Options) syntax.Detector { return &detector{at: -1} }

type detector struct {
	started bool // the input's start was decided
	pos     int  // the bytes before pos are decided
	at      int
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	if d.at >= 0 {
		return syntax.Evidence{At: d.at, Pending: -1, Prose: d.at}
	}
	if !d.started {
		switch v, _, _ := head(seen, eof); v {
		case headWait:
			return syntax.Evidence{At: -1, Pending: 0, Prose: 0}
		case headYes:
			d.at = 0
			return syntax.Evidence{At: 0, Pending: -1, Prose: 0}
		}
		d.started = true
	}
	for d.pos < len(seen) {
		k := bytes.IndexByte(seen[d.pos:], '>')
		if k < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + k
		switch v, _, _ := sepHead(seen[i:], eof); v {
		case headWait:
			d.pos = i
			return syntax.Evidence{At: -1, Pending: i, Prose: i}
		case headYes:
			d.at = i
			return syntax.Evidence{At: i, Pending: -1, Prose: i}
		}
		d.pos = i + 1
	}
	return syntax.Evidence{At: -1, Pending: -1, Prose: len(seen)}
}
