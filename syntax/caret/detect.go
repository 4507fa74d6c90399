package caret

import "bytes"

// Detect finds the earliest caret fence in seen at or after from (see
// syntax.Syntax.Detect): a line ^^^NAME at the start of a line.
func Detect(seen []byte, from int, eof bool) int {
	from = max(from-maxFenceLine-4, 0)
	for i := from; i < len(seen); {
		j := bytes.Index(seen[i:], []byte("^^^"))
		if j < 0 {
			return -1
		}
		at := i + j
		if at == 0 || seen[at-1] == '\n' {
			if n, _, ok := openingFence(seen[at:], eof); n > 0 && ok {
				return at
			}
		}
		i = at + 1
	}
	return -1
}
