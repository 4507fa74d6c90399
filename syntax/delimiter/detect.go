package delimiter

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes delimiter's detector (see syntax.Detector). Its evidence is
// a delimiter: §think:, §call:, §respond:, or §execute and §end not running
// on into a word; one cut off at the end of the input so far is pending. A
// "[SYSTEM:" line is no evidence (it reads as prose elsewhere), but prose
// ends there.
func detect(syntax.Options) syntax.Detector { return &detector{at: -1, prose: -1, lineStart: true} }

type detector struct {
	pos       int  // every delimiter that starts before pos is decided
	lineStart bool // pos is at the start of a line
	prose     int  // where prose ended, once known; -1 before
	at        int  // the evidence, once found; -1 before
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	for d.at < 0 && d.pos < len(seen) {
		i := d.pos
		if d.lineStart && seen[i] == '[' {
			full, partial := scan.MatchPrefix(seen[i:], systemPrefix)
			if partial && !eof {
				return d.evidence(-1, i)
			}
			if full && d.prose < 0 {
				d.prose = i
			}
		}
		if seen[i] == sect0 {
			switch delimiterAt(seen[i:], eof) {
			case 0:
				return d.evidence(i, i)
			case 1:
				d.at = i
				if d.prose < 0 {
					d.prose = i
				}
				return d.evidence(-1, i)
			}
		}
		// Text, up to the next line start or §.
		for i++; i < len(seen) && seen[i] != sect0 && seen[i-1] != '\n'; i++ {
		}
		d.lineStart = seen[i-1] == '\n'
		d.pos = i
	}
	return d.evidence(-1, d.pos)
}

// evidence reports what is known: pending is where more input is awaited,
// and prose where prose ends unless it ended earlier.
func (d *detector) evidence(pending, prose int) syntax.Evidence {
	if d.prose >= 0 {
		prose = d.prose
	}
	if d.at >= 0 {
		pending = -1
	}
	return syntax.Evidence{At: d.at, Pending: pending, Prose: prose}
}

// delimiterAt tells whether b, which starts with the first byte of §, starts
// a delimiter: 1 if it does, 0 if more input is needed, -1 if it does not.
func delimiterAt(b []byte, eof bool) int {
	_, n := matchDelimiter(b, eof)
	return max(min(n, 1), -1)
}

// matchDelimiter reads the delimiter at the start of b, which starts with
// the first byte of §: its keyword and length, n == 0 when more input is
// needed to tell, n < 0 when there is none.
func matchDelimiter(b []byte, eof bool) (kw string, n int) {
	if len(b) < 2 {
		if eof {
			return "", -1
		}
		return "", 0
	}
	if b[1] != sect1 {
		return "", -1
	}
	rest := b[2:]
	wait := false
	for _, kw := range keywords {
		if len(rest) < len(kw) {
			wait = wait || !eof && equalFold(rest, kw[:len(rest)])
			continue
		}
		if !equalFold(rest[:len(kw)], kw) {
			continue
		}
		if kw[len(kw)-1] != ':' { // execute, end: no word may follow
			if len(rest) == len(kw) && !eof {
				return "", 0
			}
			if len(rest) > len(kw) && isWordByte(rest[len(kw)]) {
				continue
			}
		}
		return kw, 2 + len(kw)
	}
	if wait {
		return "", 0
	}
	return "", -1
}
