package mistral

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes mistral's detector (see syntax.Detector): the parser itself,
// whose evidence is the first of Mistral's control tokens it reads where
// it stands: [TOOL_CALLS], [THINK] or [TOOL_RESULTS] in text, and, when the
// prompt opened the reasoning (Options.ThinkOpen), [/THINK] or
// [TOOL_CALLS] ending it. No other syntax has them. <think> is shared with
// most model formats: it is no evidence, and nothing inside a <think>
// block is (it is thought); </s> is no evidence either. Both end prose.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
