package cohere

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the cohere syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "cohere",
	Aliases:     []string{"command-r7b", "command-a"},
	Description: `Cohere Command R7B and Command A: <|START_THINKING|>…<|END_THINKING|>, <|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}]<|END_ACTION|>, <|START_RESPONSE|>…<|END_RESPONSE|>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"*command-r7b*", "*command-a-*", "command-a", "*command-a-reasoning*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|START_ACTION|>", "tool_name"}},
	},
}

// format is Cohere's form, for the tag-call engine: a JSON array of calls
// {"tool_call_id", "tool_name", "parameters"} between <|START_ACTION|> and
// <|END_ACTION|>, reasoning between <|START_THINKING|> and
// <|END_THINKING|> (opened by the prompt in Command A Reasoning and the
// 2026 models), and the answer's markers — <|START_RESPONSE|>,
// <|END_RESPONSE|>, the 2026 models' <|START_TEXT|> and <|END_TEXT|>, and
// <|END_OF_TURN_TOKEN|> — dropped. Every tag is Cohere's alone.
var format = &tagcall.Format{
	Name:  "cohere",
	Think: tagcall.Tags{Open: "<|START_THINKING|>", Close: "<|END_THINKING|>"},
	Scope: tagcall.Tags{Open: "<|START_ACTION|>", Close: "<|END_ACTION|>"},
	JSON:  &jsoncall.Keys{Name: "tool_name", Args: "parameters", ID: "tool_call_id", StringArgs: true},
	Drop:  []string{"<|START_RESPONSE|>", "<|END_RESPONSE|>", "<|START_TEXT|>", "<|END_TEXT|>", "<|END_OF_TURN_TOKEN|>"},
	Own:   true,
}

const promptRules = `To call tools, write <|START_ACTION|>, a JSON array of calls, then <|END_ACTION|>:
<|START_ACTION|>[
    {"tool_call_id": "0", "tool_name": "tool_name", "parameters": {"arg1": "value1"}}
]<|END_ACTION|>
- The array is strict JSON: quote every key and string; "parameters" is an object; number the calls' tool_call_id from "0".
- Calls in one action run together; stop after it and wait for their results.
- Think between <|START_THINKING|> and <|END_THINKING|> (optional). Write your answer to the user between <|START_RESPONSE|> and <|END_RESPONSE|>.`
