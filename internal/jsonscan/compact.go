package jsonscan

// Compactor removes insignificant white space from JSON text that arrives
// in pieces, keeping what is inside strings: the pieces it returns, joined,
// are what Compact would return for the whole text.
type Compactor struct {
	inStr, esc bool
}

// Reset prepares the compactor for a new value.
func (c *Compactor) Reset() { *c = Compactor{} }

// Append appends the compacted form of p to dst.
func (c *Compactor) Append(dst, p []byte) []byte {
	for _, b := range p {
		switch {
		case c.esc:
			c.esc = false
		case c.inStr:
			switch b {
			case '\\':
				c.esc = true
			case '"':
				c.inStr = false
			}
		case b == '"':
			c.inStr = true
		case isSpace(b):
			continue
		}
		dst = append(dst, b)
	}
	return dst
}
