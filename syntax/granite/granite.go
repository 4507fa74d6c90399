package granite

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the granite syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "granite",
	Aliases:     []string{"granite3"},
	Description: `IBM Granite 3.x: <|tool_call|>[{"name": N, "arguments": {…}}] (no closer); 3.3's <think>…</think><response>…</response>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"granite-3*", "granite3*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|tool_call|>", "<|start_of_role|>"}, None: []string{"<|/tool_call|>"}},
	},
	Variants: []syntax.Variant{
		{Name: "phi4-llamacpp", Description: `Phi-4-mini under llama.cpp's template: <|tool_call|>{"name": N, "arguments": {…}}<|/tool_call|>, a call each`,
			Render: phiFormat.Render, Prompt: promptPhi,
			Templates: []syntax.Fingerprint{{All: []string{"<|tool_call|>", "<|/tool_call|>", "<|tool|>"}}}},
	},
}

// format is the Granite 3 form, for the tag-call engine: a JSON array of
// calls after the <|tool_call|> token, which nothing closes (the array's
// end ends the block); Granite 3.3's reasoning in <think>. Its answer's
// <response> tags are text: tags any text may hold, they cannot be
// evidence, and what auto would not drop this does not either.
// <|tool_call|> is Granite's own token, evidence by itself.
//
// Phi-4-mini under llama.cpp's chat template writes the same token before
// one call object and closes it with <|/tool_call|>: the object is read as
// Granite's JSON is, and the closer, a token of that template's alone, is
// dropped where it stands (and is evidence). phiFormat writes that form
// (the phi4-llamacpp variant).
var format = &tagcall.Format{
	Name:     "granite",
	Think:    tagcall.Tags{Open: "<think>", Close: "</think>"},
	Scope:    tagcall.Tags{Open: "<|tool_call|>"},
	JSON:     &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
	OwnScope: true,
	Drop:     []string{"<|/tool_call|>"},
}

var phiFormat = func() *tagcall.Format {
	f := *format // Granite's, each call in a block of its own, closed
	f.Scope.Close, f.Object, f.Drop = "<|/tool_call|>", true, nil
	return &f
}()

const promptPhi = `To use a tool, respond in this format, one block per call:
<|tool_call|>{"name": "tool_name", "arguments": {"arg1": "value1"}}<|/tool_call|>
- The object is strict JSON: quote every key and string; "arguments" is an object.
- Calls in one message run together; stop after them and wait for their results.
- Text outside the tags is your answer to the user.`

const promptRules = `To call tools, write <|tool_call|> followed by a JSON array of calls, each {"name": TOOL, "arguments": {...}}:
<|tool_call|>[{"name": "tool_name", "arguments": {"arg1": "value1"}}]
- The array is strict JSON: quote every key and string; "arguments" is an object.
- Calls in one array run together; stop after it and wait for their results.
- Text outside the array is your answer to the user.`
