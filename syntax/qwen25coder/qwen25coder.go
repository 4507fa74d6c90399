package qwen25coder

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the qwen25coder syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "qwen25coder",
	Aliases:     []string{"qwen2.5-coder", "qwen2_5_coder"},
	Description: `Qwen2.5-Coder: <tools>{"name": N, "arguments": {…}}</tools>, an array or JSON lines in the same tags`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	CompleteAt:  format.CompleteAt,
	// Models: see registry.ForModel. No template fingerprint: the model's
	// own template asks for Hermes's <tool_call>, which it does not keep
	// to; the <tools> form is what a prompt with examples of it gets.
	Models: []string{"qwen2.5-coder*", "qwen2-coder*"},
}

// format is the <tools> form, for the tag-call engine's JSON form: a call
// object, an array of them or objects one after the other between <tools>
// and </tools>. <tools> is the tag the Qwen templates list the tool
// definitions in, so a block that is no call is an error, never a call.
// The model often stops after the JSON without </tools>: the end of the
// input stands for it after a complete value (EndCloses).
var format = &tagcall.Format{
	Name:      "qwen25coder",
	Scope:     tagcall.Tags{Open: "<tools>", Close: "</tools>"},
	JSON:      &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
	Lines:     true,
	EndCloses: true,
}

const promptRules = `To call a tool, write a JSON object with its name and arguments between <tools> and </tools>:
<tools>{"name": "tool_name", "arguments": {"arg1": "value1"}}</tools>
- The object is strict JSON: quote every key and string; "arguments" is an object.
- To call several tools at once, write a JSON array of such objects in one <tools> block, or one block per call; then stop and wait for their results.
- Text outside the tags is your answer to the user.`
