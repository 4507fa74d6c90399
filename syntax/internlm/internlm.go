package internlm

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the internlm syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "internlm",
	Aliases:     []string{"internlm2", "intern-s1"},
	Description: `InternLM2/2.5 and Intern-S1: <|action_start|><|plugin|>{"name": N, "parameters": {…}}<|action_end|>, <think>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models: see registry.ForModel. No InternLM chat template is in the
	// set the tests read.
	Models: []string{"internlm2*", "*/internlm2*", "internlm3*", "*/internlm3*", "intern-s1*", "*/intern-s1*"},
}

// format is InternLM's, for the tag-call engine: one JSON call object
// between <|action_start|><|plugin|> and <|action_end|> (Intern-S1 writes
// white space between the two opening tokens), its arguments under
// "parameters" (or "arguments", as vLLM's example template writes them);
// reasoning in <think> (Intern-S1). The opener is InternLM's own.
var format = &tagcall.Format{
	Name:     "internlm",
	Think:    tagcall.Tags{Open: "<think>", Close: "</think>"},
	Scope:    tagcall.Tags{Open: "<|action_start|><|plugin|>", Close: "<|action_end|>"},
	Openers:  []string{"<|action_start|> <|plugin|>", "<|action_start|>\n<|plugin|>"},
	JSON:     &jsoncall.Keys{Name: "name", Args: "parameters", AltArgs: "arguments", StringArgs: true},
	Object:   true,
	OwnScope: true,
}

const promptRules = `To call a tool, write <|action_start|><|plugin|>, then one JSON object with its name and parameters, then <|action_end|>:
<|action_start|><|plugin|>
{"name": "TOOL_NAME", "parameters": {"ARG": "VALUE"}}
<|action_end|>
- The object is strict JSON: quote every key and string. Write one block per call; the calls of a message run together.
- Text outside the tags is your answer to the user.`
