package kimi

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes kimi's detector (see syntax.Detector): the parser itself,
// whose evidence is a tool-call section opener, <|tool_calls_section_begin|>
// or the singular <|tool_call_section_begin|>, or a <|tool_call_begin|>:
// special tokens no other syntax writes, read as markers in reasoning too
// (they end it). <think> is shared with other formats: no evidence, but
// prose ends there, as it does at a section closer outside a section
// (passed over).
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
