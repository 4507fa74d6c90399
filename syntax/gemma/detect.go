package gemma

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes gemma's detector (see syntax.Detector): the parser itself,
// whose evidence is a marker it reads as one where it stands, outside
// reasoning: <|channel>, <|tool_response> (FunctionGemma's
// <start_function_response>), or <|tool_call> (<start_function_call>)
// followed by call: (after white space and a stray ':'). No other syntax
// writes these tokens (harmony's <|channel|> has a second bar). A call
// opener followed by anything else is text. With ThinkOpen the output
// starts in reasoning: <channel|>, or a call, which ends it, is the
// evidence, and no byte is prose.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
