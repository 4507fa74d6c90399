package pythonic

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes pythonic's detector (see syntax.Detector): the parser
// itself, whose evidence is a call opener, <|python_start|> or
// <|tool_call_start|>, which no other syntax writes (and MiniCPM's
// <|thought_start|>), <function_calls> followed by a call or its closer
// (minimax writes <invoke …> there), or a '[' that it reads as the start
// of a call list: '[', white space, a dotted name and '(', not after a
// letter, digit, '_', ')' or ']'. <think> is shared with most model
// formats, so it is no evidence, and nothing inside a <think> block is;
// but prose ends there. With ThinkOpen the stream starts in reasoning,
// where only a call opener is evidence (it ends the reasoning), and no
// byte is prose.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
