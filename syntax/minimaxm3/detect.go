package minimaxm3

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes the detector (see syntax.Detector): the parser itself. Every
// marker it reads is the format's own token, so the first of them is the
// evidence; in reasoning the prompt opened, its closer is one too (and the
// opener restated).
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
