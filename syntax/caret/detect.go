package caret

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes caret's detector (see syntax.Detector): the parser itself,
// whose evidence is an opening fence, a line ^^^NAME, once the line is
// complete. A line that starts with ^ and may still become one is pending.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
