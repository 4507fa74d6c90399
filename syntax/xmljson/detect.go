package xmljson

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes xmljson's detector (see syntax.Detector): the parser itself,
// whose evidence is <end>, or an <execute> or <results> tag that opens a
// block: the first byte after it that is not white space is '[' or '{', or
// starts its close tag. A tag followed by anything else is prose that
// mentions it; one followed only by white space so far is pending. <think>
// is shared with most model formats, so it is no evidence, and neither is
// anything inside a <think> block (thought, in every syntax that has one);
// but prose ends there. With Options.ThinkOpen the stream starts inside
// <think>: nothing before its </think> is evidence, and there is no prose
// before it.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
