package gcml

import (
	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the gcml syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "gcml",
	Aliases:     []string{"gigachat3.5", "gigachat35"},
	Description: `Sber GigaChat 3.5's GCML: <｜GCML｜tool_calls>, <｜GCML｜invoke name="N">, typed <｜GCML｜parameter name="K" string="true|false">; <think>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models: see registry.ForModel. No GigaChat 3.5 chat template is in
	// the set the tests read.
	Models: []string{"gigachat3.5*", "*/gigachat3.5*", "gigachat-3.5*", "*/gigachat-3.5*"},
}

const promptRules = `To call tools, write a <｜GCML｜tool_calls> block holding one invoke per call:
<｜GCML｜tool_calls><｜GCML｜invoke name="TOOL_NAME"><｜GCML｜parameter name="KEY" string="true">VALUE</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>
- A string value is written as it is with string="true"; any other value (number, boolean, array, object) as its JSON text with string="false".
- The invokes of one block run together; stop after it and wait for their results.
- Think inside <think>...</think> (optional). Text outside these tags is your answer to the user.`

// format is GCML's form, for the tag-call engine's invoke form: DSML's
// typed invokes under GCML's prefix, in a section whose opener is GCML's
// own token; no results block (GigaChat's results come in messages of
// their own).
var format = &tagcall.Format{
	Name:  "gcml",
	Think: tagcall.Tags{Open: "<think>", Close: "</think>"},
	Invoke: &tagcall.Invoke{
		Tags:     invokexml.Tags{Syntax: "gcml", Invoke: "<｜GCML｜invoke", InvokeEnd: "</｜GCML｜invoke>", Param: "<｜GCML｜parameter", ParamEnd: "</｜GCML｜parameter>", Typed: true},
		Sections: []tagcall.Tags{{Open: "<｜GCML｜tool_calls>", Close: "</｜GCML｜tool_calls>"}},
		Own:      true,
		Tight:    true,
	},
}
