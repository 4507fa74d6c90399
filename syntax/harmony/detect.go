package harmony

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes harmony's detector (see syntax.Detector): the parser itself,
// whose evidence is the first marker it reads as one where it stands:
// <|start|> or <|channel|> anywhere outside a message; at the start of the
// output, after white space and an optional " to=RECIPIENT", also
// <|message|> or <|constrain|>. No other syntax writes these tokens (Gemma
// 4's <|channel> has no second bar), so the marker alone tells harmony
// apart. With ThinkOpen the output starts inside an analysis message,
// which any of <|end|>, <|call|>, <|return|>, <|start|> or <|channel|>
// ends: each is evidence, and no byte is prose.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
