package glimmer

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes glimmer's detector (see syntax.Detector): the parser itself,
// whose evidence is the first of Glimmer's own tokens it reads as a marker
// where it stands: a message's end marker, <|eom|> or <|eot|>, or the
// <atem:function_calls> that opens a call's body. <|start|> and
// <|message|> are Harmony's tokens too: a message they open holds the
// decision from its start until one of Glimmer's own tokens follows, and
// then is the evidence. A header holding any other token (Harmony's
// <|channel|>) is no Glimmer header, and text.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
