package harmony

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes harmony's detector (see syntax.Detector): the parser itself,
// whose evidence is the first of harmony's own tokens it reads as a marker
// where it stands: <|channel|>, <|constrain|>, <|end|>, <|call|> or
// <|return|>. No other syntax writes these (Gemma 4's <|channel> has no
// second bar). <|start|> and <|message|> are Muse Glimmer's tokens too: a
// message they open holds the decision from its start until one of
// harmony's own tokens follows, and then is the evidence; with none, the
// input is not harmony's (Glimmer's " to=self<|message|>…<|eom|>" is no
// harmony call to a tool named self). With ThinkOpen the output starts
// inside an analysis message, and no byte is prose; the end marker that
// ends it is evidence only once another of harmony's own tokens follows
// (the reasoning may name another format's <|end|>).
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
