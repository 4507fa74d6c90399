package glm

import (
	"bytes"
	"io"

	"github.com/toolparse/toolparse/internal/rawrender"
	"github.com/toolparse/toolparse/syntax"
)

// NewRenderer returns a renderer that writes events in the GLM form:
// thoughts as <think>…</think>, text as plain lines, each call as a
// <tool_call>NAME block with one <arg_key>/<arg_value> pair per value (an
// array as the key repeated), each value exactly as it is, and results as
// <tool_response> blocks. With Options.ThinkOpen the prompt opened the
// reasoning: a first thought is written without <think>, and output that
// starts otherwise starts with </think>. Each call is parsed back before it
// is written, to make sure it gives exactly its call.
//
// glm cannot carry (and says so): values that are not strings (written as
// their JSON text, which a tool schema converts back, as GLM's template
// writes them), an array of fewer than two items, a value holding
// </tool_call> or an </arg_value> that the reader would take for its end,
// names that are not one word, two batches with no results between them
// (read back as one), results with failure status or content that is not a
// string, results whose tool is not the call at their position, text
// holding a marker.
func NewRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return rawrender.NewRenderer(w, opts, &form)
}

var form = rawrender.Form{
	Syntax:        "glm",
	OpenThink:     openThink,
	CloseThink:    closeThink,
	OpenResponse:  openResponse,
	CloseResponse: closeResponse,
	CallOpeners:   []string{openToolCall},
	Markers:       "<think>, <tool_call>, <tool_response>",
	New:           New,
	OpenCall: func(b *bytes.Buffer, name string) {
		b.WriteString(openToolCall + name + "\n")
	},
	Param: func(b *bytes.Buffer, k, v string) {
		b.WriteString(openKey + k + closeKey + "\n" + openValue + v + closeValue + "\n")
	},
	CloseCall: closeToolCall + "\n",
}
