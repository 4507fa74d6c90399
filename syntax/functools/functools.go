package functools

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the functools syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "functools",
	Aliases:     []string{"firefunction", "phi4-mini"},
	Description: `FireFunction v2 and Phi-4-mini: functools[{"name": N, "arguments": {…}}] (no closer)`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"*firefunction-v2*", "phi-4-mini*", "phi4-mini*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"functools["}},
	},
}

// format is the functools form, for the tag-call engine: a JSON array of
// calls right after the word functools, which nothing closes. The word
// alone is prose ("import functools"): the evidence is the word and the
// JSON's first bracket.
var format = &tagcall.Format{
	Name:  "functools",
	Scope: tagcall.Tags{Open: "functools"},
	JSON:  &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
}

const promptRules = `To call tools, write functools followed by a JSON array of calls, each {"name": TOOL, "arguments": {...}}:
functools[{"name": "tool_name", "arguments": {"arg1": "value1"}}]
- The array is strict JSON: quote every key and string; "arguments" is an object.
- Calls in one array run together; stop after it and wait for their results.
- Text outside the array is your answer to the user.`
