package native

import "github.com/toolparse/toolparse/syntax"

// NewGeneral is New with the fast path off: every document is read by the
// general reader.
func NewGeneral(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := newParser(h, opts).(*parser)
	p.general = true
	return p
}

// FastReads reports how many documents p's fast path read.
func FastReads(p syntax.Parser) int { return p.(*parser).fastReads }
