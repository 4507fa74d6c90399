package step3

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the step3 syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "step3",
	Description: `StepFun Step-3: <｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME"><steptml:parameter name="K">v</steptml:parameter></steptml:invoke><｜tool_call_end｜> in <｜tool_calls_begin｜>…<｜tool_calls_end｜>; reasoning opened by the prompt, ended by </think>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"step3", "step3-*", "step-3", "step-3-*"},
}

// format is Step-3's form, for the tag-call engine: a call's scope opener
// carries its type (function) and separator, the name and the keys are
// quoted attributes, values are raw text; the calls' wrapper tokens are
// dropped where they stand. The renderer writes each call between its call
// tokens, without the calls' wrapper; it cannot carry (and says so) values that are not strings
// (written as their JSON text, which a tool schema converts back), an
// array of fewer than two items, a value holding </steptml:invoke>, names
// and keys holding '"' or a line end.
var format = &tagcall.Format{
	Name:     "step3",
	Think:    tagcall.Tags{Open: "<think>", Close: "</think>"},
	Scope:    tagcall.Tags{Open: "<｜tool_call_begin｜>function<｜tool_sep｜>", Close: "<｜tool_call_end｜>"},
	Function: tagcall.Tags{Open: `<steptml:invoke name="`, Close: "</steptml:invoke>"},
	NameEnd:  `">`,
	Param: tagcall.Param{
		Open: `<steptml:parameter name="`, KeyClose: `">`, Close: "</steptml:parameter>",
	},
	Drop:     []string{"<｜tool_calls_begin｜>", "<｜tool_calls_end｜>"},
	OwnScope: true,
}

const promptRules = `To call tools, write <｜tool_calls_begin｜>, then for each call:
<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="TOOL_NAME">
<steptml:parameter name="PARAM">value</steptml:parameter>
</steptml:invoke><｜tool_call_end｜>
then <｜tool_calls_end｜>.
- One <steptml:parameter> per argument; values are written as they are, with no escaping. Numbers, true, false and JSON arrays or objects are written as their JSON text.
- Think first; end your reasoning with </think>, then answer or call.`
