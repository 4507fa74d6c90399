package glm

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the glm syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "glm",
	Aliases:     []string{"glm45", "glm47"},
	Description: "GLM-4.5/4.6/4.7: <tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"glm-4.5*", "glm-4.6*", "glm-4.7*", "glm-5*", "glm4.5*", "glm4.6*", "glm4.7*", "laguna*", "ling-3*", "ring-3*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_call>", "<arg_key>"}},
	},
}

// format is the GLM form, for the tag-call engine: the name follows
// <tool_call> as a word, values are kept exactly. The renderer writes each
// pair on lines of their own (GLM-4.5's form); it cannot carry (and says
// so) values that are not strings (written as their JSON text, as GLM's
// template writes them), an array of fewer than two items, a value holding
// </tool_call> or an </arg_value> that the reader would take for its end,
// names that are not one word.
var format = &tagcall.Format{
	Name:   "glm",
	Think:  tagcall.Tags{Open: "<think>", Close: "</think>"},
	Result: tagcall.Tags{Open: "<tool_response>", Close: "</tool_response>"},
	Scope:  tagcall.Tags{Open: "<tool_call>", Close: "</tool_call>"},
	Param:  tagcall.Param{Open: "<arg_key>", KeyClose: "</arg_key>", ValueOpen: "<arg_value>", Close: "</arg_value>"},
}

const promptRules = `For each function call, output the function name and arguments within the following XML format:
<tool_call>{function-name}
<arg_key>{arg-key-1}</arg_key>
<arg_value>{arg-value-1}</arg_value>
<arg_key>{arg-key-2}</arg_key>
<arg_value>{arg-value-2}</arg_value>
...
</tool_call>
- Values are plain text, taken exactly as written (no escaping, no trimming); write numbers, booleans, arrays and objects as JSON.
- One <tool_call> block per call; several blocks call several tools.
- Think inside <think>...</think> (optional). Text outside blocks is your answer to the user.
- Tool results come back inside <tool_response>...</tool_response>, one block per call, in the order of the calls.`
