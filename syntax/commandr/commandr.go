package commandr

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the commandr syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "commandr",
	Aliases:     []string{"command-r", "command-r-plus"},
	Description: "Cohere Command R and R+: Action: ```json [{\"tool_name\": N, \"parameters\": {…}}] ```",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"*command-r", "*command-r-*", "*command-r:*", "*command-r-plus*", "*c4ai-command-r-v01*", "*c4ai-command-r-plus*", "aya-*", "*/aya-*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"Action:", "```json"}, None: []string{"<|START_ACTION|>"}},
	},
}

// format is Command R's, for the tag-call engine: a JSON array of call
// objects ({"tool_name", "parameters"}) in a fenced json block after
// "Action:", which its template teaches.
var format = &tagcall.Format{
	Name:    "commandr",
	Scope:   tagcall.Tags{Open: "Action: ```json", Close: "```"},
	Openers: []string{"Action:\n```json", "Action:```json"},
	JSON:    &jsoncall.Keys{Name: "tool_name", Args: "parameters", StringArgs: true},
}

const promptRules = "To call tools, write 'Action:' and then a fenced json block holding a list of calls:\n" +
	"Action: ```json\n[\n    {\n        \"tool_name\": TOOL_NAME,\n        \"parameters\": {\"ARG\": \"VALUE\"}\n    }\n]```\n" +
	"- The list is strict JSON: quote every key and string.\n" +
	"- The calls of one block run together; stop after it and wait for their results.\n" +
	"- Text before 'Action:' (your plan) is your answer to the user."
