package qwen3coder

import (
	"bytes"
	"io"

	"github.com/toolparse/toolparse/internal/rawrender"
	"github.com/toolparse/toolparse/syntax"
)

// NewRenderer returns a renderer that writes events in the Qwen3-Coder form:
// thoughts as <think>…</think>, text as plain lines, each call as a
// <tool_call><function=NAME> block with one <parameter=KEY> per value (an
// array as the key repeated), each value between newlines, and results as
// <tool_response> blocks. With Options.ThinkOpen the prompt opened the
// reasoning: a first thought is written without <think>, and output that
// starts otherwise starts with </think>. Each call is parsed back before it
// is written, to make sure it gives exactly its call.
//
// qwen3coder cannot carry (and says so): values that are not strings
// (written as their JSON text, which a tool schema converts back), an array
// of fewer than two items, a value holding </function> or a </parameter>
// that the reader would take for its end, names and keys holding '>' or a
// line end, two batches with no results between them (read back as one),
// results with failure status or content that is not a string, results
// whose tool is not the call at their position, text holding a marker.
func NewRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return rawrender.NewRenderer(w, opts, &form)
}

var form = rawrender.Form{
	Syntax:        "qwen3coder",
	OpenThink:     openThink,
	CloseThink:    closeThink,
	OpenResponse:  openResponse,
	CloseResponse: closeResponse,
	CallOpeners:   []string{openToolCall, openFunction},
	Markers:       "<think>, <tool_call>, <function=, <tool_response>",
	New:           New,
	OpenCall: func(b *bytes.Buffer, name string) {
		b.WriteString(openToolCall + "\n" + openFunction + name + ">\n")
	},
	Param: func(b *bytes.Buffer, k, v string) {
		b.WriteString(openParam + k + ">\n" + v + "\n" + closeParam + "\n")
	},
	CloseCall: closeFunction + "\n" + closeToolCall + "\n",
}
