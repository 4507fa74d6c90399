package functionary

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes functionary's detector (see syntax.Detector): the parser
// itself, whose evidence is where it opens its first segment: a segment
// head at the input's start (all, python, or NAME and '{' on the next
// line), or >>> and one in text.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
