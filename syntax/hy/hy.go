package hy

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the hy syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "hy",
	Aliases:     []string{"hy3", "hy-v3", "hy-v4"},
	Description: `Tencent Hy3 and Hy v4: <tool_call:opensource>NAME<tool_sep:opensource> (v4: no separator), <arg_key:opensource>/<arg_value:opensource> pairs; <think:opensource>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"hy3*", "*/hy3*", "hy-v4*", "*/hy-v4*"},
	Templates: []syntax.Fingerprint{
		{All: []string{":opensource", "tool_sep"}},
	},
}

// format is Hy's, for the tag-call engine: GLM's word-name form — the
// name after the call's opener, then key and value tags — with every tag
// carrying the released tokenizer's suffix, :opensource; Hy3 ends the name
// with a separator, v4 does not. The calls' wrapper and the results'
// wrapper are dropped where they stand. Every tag is Hy's own.
var format = &tagcall.Format{
	Name:      "hy",
	Think:     tagcall.Tags{Open: "<think:opensource>", Close: "</think:opensource>"},
	Result:    tagcall.Tags{Open: "<tool_response:opensource>", Close: "</tool_response:opensource>"},
	Scope:     tagcall.Tags{Open: "<tool_call:opensource>", Close: "</tool_call:opensource>"},
	NameClose: "<tool_sep:opensource>",
	Param: tagcall.Param{
		Open: "<arg_key:opensource>", KeyClose: "</arg_key:opensource>",
		ValueOpen: "<arg_value:opensource>", Close: "</arg_value:opensource>",
	},
	Drop: []string{"<tool_calls:opensource>", "</tool_calls:opensource>", "<tool_responses:opensource>", "</tool_responses:opensource>"},
	Own:  true,
}

const promptRules = `To call tools, write a <tool_calls:opensource> block holding one <tool_call:opensource> per call:
<tool_calls:opensource>
<tool_call:opensource>TOOL_NAME<tool_sep:opensource>
<arg_key:opensource>KEY</arg_key:opensource><arg_value:opensource>VALUE</arg_value:opensource>
</tool_call:opensource>
</tool_calls:opensource>
- Values are written as they are (no quotes, no escapes); a value that is not a string is its JSON text.
- The calls of one block run together; stop after it and wait for their results.
- Think inside <think:opensource>...</think:opensource> (optional). Text outside these tags is your answer to the user.`
