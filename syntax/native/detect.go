package native

import (
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes native's detector (see syntax.Detector). Its evidence is at
// the first byte of the input that is not white space: a JSON object, an
// array whose first element is an object (or an empty array), an SSE
// comment (a line starting with ':'), an SSE line "data:", "event:",
// "id:" or "retry:" followed by a space or a JSON value, or one of those
// field names alone on its line. A leading byte order mark is passed over. Input that
// starts with anything else is never native (a provider's output never
// starts with prose), and native reads no prose as text.
//
// An object whose first member is "name", or "type": "function", is a call
// written by a model as text (Llama 3's JSON calls), not a provider's
// document: no provider document starts that way, so it is not native's
// evidence; nor is an array whose first element is one (xLAM's list of
// calls).
func detect(syntax.Options) syntax.Detector { return &detector{at: -1} }

type detector struct {
	pos     int // the white space before pos is skipped
	inArray int // after a leading '[': the white space before inArray is skipped
	at      int // the evidence, once found; -1 before
	never   bool
	bom     bool // the input starts with a byte order mark
}

// bom is the UTF-8 byte order mark, which an SSE stream may start with.
const bom = "\xEF\xBB\xBF"

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	if d.at < 0 && !d.never {
		if d.pos == 0 {
			switch full, partial := scan.MatchPrefix(seen, bom); {
			case partial && !eof:
				return syntax.Evidence{At: -1, Pending: 0}
			case full:
				d.pos, d.bom = len(bom), true
			}
		}
		d.pos = jsonscan.SkipSpace(seen, d.pos)
		if d.pos == len(seen) {
			d.never = eof
			if d.bom && !eof { // evidence after the mark would start at it
				return syntax.Evidence{At: -1, Pending: 0}
			}
			return syntax.Evidence{At: -1, Pending: -1, Never: d.never}
		}
		switch found := d.first(seen, eof); found {
		case 0:
			if d.bom {
				return syntax.Evidence{At: -1, Pending: 0}
			}
			return syntax.Evidence{At: -1, Pending: d.pos}
		case 1:
			d.at = d.pos
			if d.bom {
				d.at = 0 // the mark belongs to the input native reads
			}
		default:
			d.never = true
		}
	}
	return syntax.Evidence{At: d.at, Pending: -1, Never: d.never}
}

// first tells whether seen, from its first byte that is not white space
// (at d.pos), starts with evidence: 1 if it does, 0 if more input is needed,
// -1 if it does not.
func (d *detector) first(seen []byte, eof bool) int {
	b := seen[d.pos:]
	switch b[0] {
	case '{':
		return firstMember(b, eof)
	case '[':
		d.inArray = jsonscan.SkipSpace(seen, max(d.inArray, d.pos+1))
		j := d.inArray
		switch {
		case j == len(seen) && !eof:
			return 0
		case j < len(seen) && seen[j] == ']':
			return 1
		case j < len(seen) && seen[j] == '{':
			return firstMember(seen[j:], eof) // a list of a model's call objects is no document
		}
		return -1
	}
	if b[0] == ':' { // an SSE comment (OpenRouter's ": OPENROUTER PROCESSING")
		return 1
	}
	for _, f := range [...]string{"data", "event", "id", "retry"} {
		// A field with no value: its name alone on its line.
		if full, _ := scan.MatchPrefix(b, f); full && len(b) > len(f) && (b[len(f)] == '\n' || b[len(f)] == '\r') {
			return 1
		}
	}
	for _, f := range [...]string{"data:", "event:", "id:", "retry:"} {
		full, partial := scan.MatchPrefix(b, f)
		switch {
		case partial && !eof, full && len(b) == len(f) && !eof:
			return 0
		case full && len(b) > len(f):
			if c := b[len(f)]; c == ' ' || c == '{' || c == '[' {
				return 1
			}
		}
	}
	return -1
}

// firstMember tells whether the object at the start of b is a provider's
// document by its first member (see Detect): 1 if it is, -1 if it is a
// model's call object, 0 if more input is needed. It looks at most at the
// first member's key and a short value.
func firstMember(b []byte, eof bool) int {
	key, rest, n := leadString(b[1:], eof)
	if n <= 0 {
		if n == 0 {
			return 0
		}
		return 1
	}
	switch key {
	case "name":
		return -1
	case "type":
		i := jsonscan.SkipSpace(rest, 0)
		if i == len(rest) {
			if eof {
				return 1
			}
			return 0
		}
		if rest[i] != ':' {
			return 1
		}
		value, _, n := leadString(rest[i+1:], eof)
		switch {
		case n == 0:
			return 0
		case n > 0 && value == "function":
			return -1
		}
	}
	return 1
}

// leadString reads the short JSON string (no escapes, at most 64 bytes) that
// b starts with after white space, and what follows it: n > 0 when read, 0
// when b ends first (and eof is not set), -1 when b does not start with one.
func leadString(b []byte, eof bool) (s string, rest []byte, n int) {
	i := jsonscan.SkipSpace(b, 0)
	if i == len(b) {
		return "", nil, pendingOr(eof)
	}
	if b[i] != '"' {
		return "", nil, -1
	}
	for j := i + 1; j < len(b) && j <= i+65; j++ {
		switch b[j] {
		case '"':
			return string(b[i+1 : j]), b[j+1:], 1
		case '\\':
			return "", nil, -1
		}
	}
	if len(b) <= i+65 {
		return "", nil, pendingOr(eof)
	}
	return "", nil, -1
}

func pendingOr(eof bool) int {
	if eof {
		return -1
	}
	return 0
}
