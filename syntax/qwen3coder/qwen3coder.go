package qwen3coder

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the qwen3coder syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "qwen3coder",
	Aliases:     []string{"qwen3-coder", "qwen35"},
	Description: "Qwen3-Coder / Qwen3.5 XML: <tool_call><function=NAME><parameter=K>v</parameter></function></tool_call>",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"qwen3-coder*", "qwen3.5*", "qwen3.6*", "mimo-v2*", "*nemotron-3-nano*", "*nemotron-3-super*", "step-3.5*", "step3.5*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_call>", "<function=", "<parameter="}},
	},
}

// format is the Qwen3-Coder form, for the tag-call engine. The renderer
// writes each value between newlines, as the template does; it cannot
// carry (and says so) values that are not strings (written as their JSON
// text, which a tool schema converts back), an array of fewer than two
// items, a value holding </function> or a </parameter> that the reader
// would take for its end, names and keys holding '>' or a line end.
var format = &tagcall.Format{
	Name:     "qwen3coder",
	Think:    tagcall.Tags{Open: "<think>", Close: "</think>"},
	Result:   tagcall.Tags{Open: "<tool_response>", Close: "</tool_response>"},
	Scope:    tagcall.Tags{Open: "<tool_call>", Close: "</tool_call>"},
	Function: tagcall.Tags{Open: "<function=", Close: "</function>"},
	Bare:     true,
	Param: tagcall.Param{
		Open: "<parameter=", KeyClose: ">", Close: "</parameter>",
		TrimNewline: true, NewlineEndsKey: true,
	},
}

const promptRules = `If you choose to call a function ONLY reply in the following format with NO suffix:
<tool_call>
<function=example_function_name>
<parameter=example_parameter_1>
value_1
</parameter>
<parameter=example_parameter_2>
This is the value for the second parameter
that can span
multiple lines
</parameter>
</function>
</tool_call>
- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags.
- Required parameters MUST be specified. Values are plain text, taken verbatim (no escaping); the newline after <parameter=...> and the one before </parameter> are not part of the value.
- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after. Think inside <think>...</think> (optional).
- Tool results come back inside <tool_response>...</tool_response>, one block per call, in the order of the calls.`
