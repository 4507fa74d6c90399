package hunyuan

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the hunyuan syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "hunyuan",
	Aliases:     []string{"hunyuan-a13b"},
	Description: `Tencent Hunyuan-A13B, AI21 Jamba, MiniMax M1: <think>…</think>, <tool_calls>[{"name": N, "arguments": {…}}]</tool_calls> (or JSON lines)`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	// No chat template of the shared set is A13B's (Hy3's is another
	// format); Jamba's and MiniMax M1's are.
	Models: []string{"*hunyuan-a13b*", "*jamba*", "minimax-m1*", "*/minimax-m1*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<tool_calls>"}, None: []string{"[BEGIN FINAL RESPONSE]"}},
	},
}

// format is Hunyuan-A13B's form, for the tag-call engine: a JSON array of
// calls between <tool_calls> and </tool_calls>, reasoning in <think>; the
// answer's <answer> tags are text (tags any text may hold: no evidence, and
// so not dropped either). <tool_calls> is shared
// (MiMo, Jamba, MiniMax-M1 write one): the evidence is the tag and the
// JSON's first bracket.
var format = &tagcall.Format{
	Name:  "hunyuan",
	Think: tagcall.Tags{Open: "<think>", Close: "</think>"},
	Scope: tagcall.Tags{Open: "<tool_calls>", Close: "</tool_calls>"},
	JSON:  &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
	Lines: true,
}

const promptRules = `To call tools, write <tool_calls>, a JSON array of calls, then </tool_calls>:
<tool_calls>[{"name": "tool_name", "arguments": {"arg1": "value1"}}]</tool_calls>
- The array is strict JSON: quote every key and string; "arguments" is an object.
- Calls in one block run together; stop after it and wait for their results.
- Think inside <think>...</think>, then write your answer inside <answer>...</answer>.`
