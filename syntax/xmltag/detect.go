package xmltag

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes xmltag's detector (see syntax.Detector): the parser itself,
// whose evidence is a complete <tool:NAME> tag, or <thinking> once its
// </thinking> has come (a lone "<thinking>" is common in prose and
// prompts): until then, and at a tag cut off at the end of the input so
// far, it is pending.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
