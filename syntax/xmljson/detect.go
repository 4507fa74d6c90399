package xmljson

import "bytes"

// Detect finds the earliest xmljson marker in seen at or after from (see
// syntax.Syntax.Detect): <think>, <execute>, <results> or <end>.
func Detect(seen []byte, from int, _ bool) int {
	from = max(from-len(openExecute), 0)
	best := -1
	for _, m := range textMarkers {
		if i := bytes.Index(seen[from:], []byte(m)); i >= 0 && (best < 0 || from+i < best) {
			best = from + i
		}
	}
	return best
}
