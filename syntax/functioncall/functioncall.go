package functioncall

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the functioncall syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "functioncall",
	Aliases:     []string{"firefunction-v1"},
	Description: `FireFunction v1: <functioncall>{"name": N, "arguments": {…}} (no closer), one a call; a plain answer after <plain>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"firefunction-v1*", "*/firefunction-v1*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<functioncall>", "<plain>"}},
	},
}

// format is FireFunction v1's, for the tag-call engine's JSON form: one call
// object after the <functioncall> token, which nothing closes (the object's
// end ends the block); a plain answer opens with <plain>, a token of the
// format's own, dropped. Both tokens are evidence by themselves.
var format = &tagcall.Format{
	Name:     "functioncall",
	Scope:    tagcall.Tags{Open: "<functioncall>"},
	JSON:     &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
	Object:   true,
	OwnScope: true,
	Drop:     []string{"<plain>"},
}

const promptRules = `To call a function, write <functioncall> followed by one JSON object with its name and arguments:
<functioncall>{"name": "function_name", "arguments": {"arg1": "value1"}}
- The object is strict JSON: quote every key and string; "arguments" is an object.
- For several calls, write one <functioncall> block after another; then stop and wait for their results.
- To answer without a call, start your answer with <plain>.`
