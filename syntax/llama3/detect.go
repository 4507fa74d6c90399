package llama3

import (
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes llama3's detector (see syntax.Detector): the parser itself,
// whose evidence is the first of:
//
//   - a JSON object opening the input (after white space) that it takes for
//     a call attempt: one with the keys "name" and "parameters" (or
//     "arguments"), decided as soon as both have come, or a broken or
//     cut-off object in which one of those keys came;
//   - a JSON array opening the input that it takes for calls (arrayHead:
//     '[', '{' and "name" as the first key, xLAM's), decided by its first
//     element as an object opening the input is;
//   - one of Llama 3's special tokens, where it reads them (in text, not
//     inside a JSON object it takes for text): <|python_tag|>, <|eom_id|>,
//     <|eot_id|>, <|start_header_id|>. No other syntax has them;
//   - a function tag that opens a call, <function=NAME>{. Qwen3-Coder's bare
//     <function=NAME> is followed by a parameter tag instead.
//
// Until an object or array opening the input is decided, evidence may
// start at it (pending). Native also claims a JSON object at the start of
// the input; at the same place the name that sorts first wins, so a Llama 3
// call object is llama3, and any other object waits until llama3 has ruled
// it out.
func detect(opts syntax.Options) syntax.Detector { return scan.NewDetector(newParser, opts) }
