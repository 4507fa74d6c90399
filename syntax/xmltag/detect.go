package xmltag

import "bytes"

// Detect finds the earliest xmltag marker in seen at or after from (see
// syntax.Syntax.Detect): a complete <tool:NAME> tag, or <thinking> once its
// </thinking> has come (a lone "<thinking>" is common in prose and prompts).
func Detect(seen []byte, from int, eof bool) int {
	from = max(from-maxName-len(toolPrefix)-1, 0)
	best := -1
	if j := bytes.Index(seen[from:], []byte(closeThinking)); j >= 0 {
		best = bytes.LastIndex(seen[:from+j], []byte(openThinking))
	}
	for i := from; ; {
		j := bytes.Index(seen[i:], []byte(toolPrefix))
		if j < 0 || best >= 0 && i+j > best {
			break
		}
		if n, _ := openTool(seen[i+j:], eof); n > 0 {
			return i + j
		}
		i += j + 1
	}
	return best
}
