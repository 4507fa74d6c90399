package apriel

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the apriel syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "apriel",
	Description: `ServiceNow Apriel 1.5 and 1.6: reasoning opened by the prompt, ended by [BEGIN FINAL RESPONSE]; <tool_calls>[{"name": N, "arguments": {…}}]</tool_calls>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"apriel*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_calls>", "</tool_calls>", "[BEGIN FINAL RESPONSE]"}},
	},
}

// format is Apriel's form, for the tag-call engine: reasoning the prompt
// opens ("Here are my reasoning steps:"), ended by the [BEGIN FINAL
// RESPONSE] marker, which has no opener of its own; a JSON array of calls
// between <tool_calls> and </tool_calls> (a tag MiMo, Jamba and Hunyuan
// share, so that a block alone is no evidence of Apriel); [END FINAL
// RESPONSE] dropped. The markers are Apriel's alone: each is evidence.
var format = &tagcall.Format{
	Name:        "apriel",
	Think:       tagcall.Tags{Close: "[BEGIN FINAL RESPONSE]"},
	Scope:       tagcall.Tags{Open: "<tool_calls>", Close: "</tool_calls>"},
	JSON:        &jsoncall.Keys{Name: "name", Args: "arguments", ID: "id", StringArgs: true},
	Drop:        []string{"[BEGIN FINAL RESPONSE]", "[END FINAL RESPONSE]"},
	OwnThink:    true,
	SharedCalls: true,
}

const promptRules = `To call tools, write <tool_calls>, a JSON array of calls, then </tool_calls>:
<tool_calls>[{"name": "tool_name", "arguments": {"arg1": "value1"}}]</tool_calls>
- The array is strict JSON: quote every key and string; "arguments" is an object.
- Calls in one block run together; stop after it and wait for their results.
- Reason first; then write [BEGIN FINAL RESPONSE] and your answer to the user, or your calls.`
