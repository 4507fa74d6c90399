package delimiter

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes delimiter's detector (see syntax.Detector): the parser
// itself, whose evidence is a delimiter it reads (§think:, §call:,
// §respond:, or §execute and §end not running on into a word); one cut off
// at the end of the input so far is pending, and so is a "[SYSTEM:" line
// until it is known to be a result line (no evidence, but prose ends
// there) or text.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
