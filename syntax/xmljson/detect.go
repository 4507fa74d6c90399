package xmljson

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
)

// Detect finds the earliest xmljson marker in seen at or after from (see
// syntax.Syntax.Detect): <think>, <end>, or an <execute> or <results> tag that
// opens a block (the first byte after it that is not white space is '[',
// '{' or '<'). A tag followed by anything else is prose that mentions it. A
// tag followed only by white space so far is not evidence yet.
func Detect(seen []byte, from int, eof bool) int {
	// A tag that ended before from, followed only by white space, was not
	// evidence yet: look at it again.
	for from > 0 && from <= len(seen) && jsonscan.IsSpace(seen[from-1]) {
		from--
	}
	from = max(from-len(openExecute), 0)
	best := -1
	for _, m := range textMarkers {
		for i := from; i < len(seen); {
			j := bytes.Index(seen[i:], []byte(m))
			if j < 0 {
				break
			}
			at := i + j
			if best >= 0 && at >= best {
				break
			}
			if opens(seen[at+len(m):], m) {
				best = at
				break
			}
			i = at + 1
		}
	}
	return best
}

// opens reports whether marker m, followed by rest, opens something.
func opens(rest []byte, m string) bool {
	if m != openExecute && m != openResults {
		return true
	}
	k := jsonscan.SkipSpace(rest, 0)
	return k < len(rest) && (rest[k] == '[' || rest[k] == '{' || rest[k] == '<')
}
