package native

import "bytes"

// Detect finds evidence of provider JSON in seen (see syntax.Syntax.Detect):
// input whose first non-blank byte starts a JSON object, or an array of
// objects; or a line that starts with the SSE field "data:" or "event:"
// followed by a space or a JSON value.
func Detect(seen []byte, from int, eof bool) int {
	i := 0
	for i < len(seen) && (seen[i] == ' ' || seen[i] == '\t' || seen[i] == '\r' || seen[i] == '\n') {
		i++
	}
	if i < len(seen) && from <= i+2 {
		switch seen[i] {
		case '{':
			return i
		case '[':
			j := i + 1
			for j < len(seen) && (seen[j] == ' ' || seen[j] == '\t' || seen[j] == '\r' || seen[j] == '\n') {
				j++
			}
			if j < len(seen) && (seen[j] == '{' || seen[j] == ']') {
				return i
			}
		}
	}
	for start := max(from-8, 0); start < len(seen); {
		if start == 0 || seen[start-1] == '\n' {
			for _, f := range [...]string{"data:", "event:"} {
				if bytes.HasPrefix(seen[start:], []byte(f)) && start+len(f) < len(seen) {
					if c := seen[start+len(f)]; c == ' ' || c == '{' || c == '[' {
						return start
					}
				}
			}
		}
		j := bytes.IndexByte(seen[start:], '\n')
		if j < 0 {
			break
		}
		start += j + 1
	}
	return -1
}
