package jsonscan

import "bytes"

// IsSpace reports whether b is JSON white space (space, tab, CR, LF): the
// white space the event model trims from text, too.
func IsSpace(b byte) bool { return isSpace(b) }

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// TrimSpace trims JSON white space from both ends of p.
func TrimSpace(p []byte) []byte {
	return bytes.TrimFunc(p, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })
}
