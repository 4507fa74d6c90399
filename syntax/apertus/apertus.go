package apertus

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the apertus syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "apertus",
	Description: `Swiss AI Apertus: <|tools_prefix|>[{"NAME": {args}}]<|tools_suffix|>, reasoning in <|inner_prefix|>…<|inner_suffix|>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	CompleteAt:  format.CompleteAt,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"apertus*", "*/apertus*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|tools_prefix|>"}},
	},
}

// format is Apertus's, for the tag-call engine: a JSON array of call
// objects, each {NAME: ARGS}, between <|tools_prefix|> and
// <|tools_suffix|> — the suffix a stop token a server may consume, so the
// array's end at the end of the input closes the block — and reasoning in
// <|inner_prefix|>, which a call ends (Apertus calls from inside its
// reasoning). Every tag is Apertus's own.
var format = &tagcall.Format{
	Name:       "apertus",
	Think:      tagcall.Tags{Open: "<|inner_prefix|>", Close: "<|inner_suffix|>"},
	ThinkCalls: true,
	Scope:      tagcall.Tags{Open: "<|tools_prefix|>", Close: "<|tools_suffix|>"},
	EndCloses:  true,
	JSON:       &jsoncall.Keys{NameKey: true, StringArgs: true},
	Own:        true,
}

const promptRules = `To call tools, write <|tools_prefix|>, then a JSON list with one object per call whose one key is the tool's name and whose value is its arguments, then <|tools_suffix|>:
<|tools_prefix|>[{"TOOL_NAME": {"ARG": "VALUE"}}, {"OTHER_TOOL": {}}]<|tools_suffix|>
- The list is strict JSON: quote every key and string.
- The calls of one list run together; stop after it and wait for their results.
- Think inside <|inner_prefix|>...<|inner_suffix|> (optional). Text outside these tags is your answer to the user.`
