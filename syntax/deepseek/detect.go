package deepseek

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes deepseek's detector (see syntax.Detector): the parser
// itself, whose evidence is one of DeepSeek's openers
// (<｜tool▁calls▁begin｜>, <｜tool▁call▁begin｜>, <｜tool▁output(s)▁begin｜>,
// <｜DSML｜function_calls>, <｜DSML｜tool_calls>: special tokens no other
// syntax writes) where it reads it as a marker: not inside an explicit
// <think> block; with Options.ThinkOpen a call opener ends the reasoning
// and is evidence. <think> is shared with other model formats: no
// evidence, but prose ends there.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
