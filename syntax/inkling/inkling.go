package inkling

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the inkling syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "inkling",
	Description: `Thinking Machines' Inkling: messages <|message_model|>[NAME]<|content_KIND|>…<|end_message|>, calls <|content_invoke_tool_json|>{"name": N, "args": {…}}`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"inkling*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|content_invoke_tool_json|>"}},
	},
}

// format is Inkling's form, for the tag-call engine: each block a message
// of its own, <|message_model|> then an optional name (the tool a call
// invokes), a kind marker, the content and <|end_message|>; a call's content
// is one JSON object {"name", "args"} (vLLM reads "arguments" too). The
// prompt writes the first message's <|message_model|>. Every marker is
// Inkling's alone.
var format = &tagcall.Format{
	Name:       "inkling",
	Think:      tagcall.Tags{Open: "<|content_thinking|>", Close: "<|end_message|>"},
	ThinkCalls: true,
	Scope:      tagcall.Tags{Open: "<|content_invoke_tool_json|>", Close: "<|end_message|>"},
	JSON:       &jsoncall.Keys{Name: "name", Args: "args", AltArgs: "arguments", StringArgs: true},
	Object:     true,
	Header:     "<|message_model|>",
	Kinds:      []string{"<|content_text|>", "<|content_invoke_tool_text|>", "<|content_tool_error|>"},
	Drop:       []string{"<|end_message|>", "<|content_model_end_sampling|>"},
	Own:        true,
}

const promptRules = `To call a tool, write <|content_invoke_tool_json|>, one JSON object {"name": "TOOL_NAME", "args": {JSON arguments}}, then <|end_message|>:
- The object is strict JSON: quote every key and string; "args" is an object ({} when the tool takes none).
- One call a block; several blocks in a row run together. End your turn after them and wait for their results.
- Think inside <|content_thinking|>...<|end_message|> (optional). Text outside these blocks is your answer to the user.
- A block may start a message of its own: <|message_model|>, the tool's name, then the block.`
