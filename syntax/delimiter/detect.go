package delimiter

import (
	"bytes"
	"strings"
)

// Detect finds the earliest delimiter in seen at or after from (see
// syntax.Syntax.Detect): §think:, §call:, §respond:, or §execute and §end
// not running on into a word.
func Detect(seen []byte, from int, eof bool) int {
	from = max(from-12, 0)
	for i := from; i < len(seen); {
		j := bytes.Index(seen[i:], []byte("§"))
		if j < 0 {
			return -1
		}
		at := i + j
		rest := seen[at+len("§"):]
		for _, kw := range keywords {
			if len(rest) < len(kw) || !strings.EqualFold(string(rest[:len(kw)]), kw) {
				continue
			}
			if kw[len(kw)-1] == ':' || len(rest) > len(kw) && !isWordByte(rest[len(kw)]) || len(rest) == len(kw) && eof {
				return at
			}
		}
		i = at + 1
	}
	return -1
}
