package nemotron

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the nemotron syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "nemotron",
	Aliases:     []string{"nemotron-v2", "toolcall"},
	Description: `NVIDIA Nemotron Nano v2: <think>…</think>, <TOOLCALL>[{"name": N, "arguments": {…}}]</TOOLCALL>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"*nemotron-nano-*v2*", "*nemotron-h-*", "*nemotron-super*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<TOOLCALL>"}},
	},
}

// format is the Nemotron Nano v2 form, for the tag-call engine: a JSON
// array of calls between <TOOLCALL> and </TOOLCALL>, reasoning in <think>
// (opened by the prompt when thinking is on), and <SPECIAL_12>, the end of
// the turn, dropped. <TOOLCALL> is Nemotron's alone, evidence by itself;
// <think> is everyone's.
var format = &tagcall.Format{
	Name:     "nemotron",
	Think:    tagcall.Tags{Open: "<think>", Close: "</think>"},
	Scope:    tagcall.Tags{Open: "<TOOLCALL>", Close: "</TOOLCALL>"},
	JSON:     &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
	Drop:     []string{"<SPECIAL_12>"},
	OwnScope: true,
}

const promptRules = `If you decide to call any tool(s), use the following format:
<TOOLCALL>[{"name": "tool_name1", "arguments": {"arg1": "value1"}}, {"name": "tool_name2", "arguments": {}}]</TOOLCALL>
- The array is strict JSON: quote every key and string; "arguments" is an object.
- Calls in one <TOOLCALL> block run together; stop after it and wait for their results.
- Think inside <think>...</think> (optional). Text outside these tags is your answer to the user.`
