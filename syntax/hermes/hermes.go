package hermes

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the hermes syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "hermes",
	Aliases:     []string{"qwen", "qwen3"},
	Description: `<tool_call>{"name": …, "arguments": {…}}</tool_call> (Hermes, Qwen2.5/Qwen3, Granite 4), <think>, <tool_response>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"*hermes-2*", "*hermes-3*", "*hermes-4*", "hermes2*", "hermes3*", "*openhermes*", "qwen3*", "qwen2.5*", "qwen2-*", "qwq*", "granite-4*", "granite4*", "mimo-vl*", "smollm3*", "bielik*", "rnj-1*", "cogito*qwen*", "ernie-4.5*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_call>"}, Any: []string{"\"name\"", "\\\"name\\\"", "\"arguments\"", "\\\"arguments\\\""}, None: []string{"<arg_key>", "<function="}},
	},
}

const promptRules = `For each function call, return a JSON object with the function name and its arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>
- The object is strict JSON: quote every key and string, escape quotes as \" and newlines as \n. Text such as </tool_call> inside a JSON string is safe.
- You may call one or more functions: write one <tool_call> block per call, one after the other, then stop. The calls are run together once your message ends.
- Each result comes back, in the order of the calls, inside <tool_response></tool_response> tags.
- Text outside the tags is your answer to the user. You may think first inside <think></think>.`

// format is the Hermes form, for the tag-call engine: one JSON call object
// between <tool_call> tags (an array there is text), reasoning in <think>,
// results in <tool_response> holding JSON or text. Every tag is shared
// with other formats (Qwen3-Coder and GLM write <tool_call> too): a call
// opener the parser reads, <tool_call> then '{', is the evidence.
var format = &tagcall.Format{
	Name:       "hermes",
	Think:      tagcall.Tags{Open: "<think>", Close: "</think>"},
	Result:     tagcall.Tags{Open: "<tool_response>", Close: "</tool_response>"},
	Scope:      tagcall.Tags{Open: "<tool_call>", Close: "</tool_call>"},
	Object:     true,
	ResultJSON: true,
	JSON:       &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
}
