package deepseek

import (
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the deepseek syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "deepseek",
	Description: "DeepSeek V3/R1, V3.1 <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>, V3.2 and V4 DSML <｜DSML｜invoke>",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Variants: []syntax.Variant{
		{Name: "deepseek-v3", Description: "DeepSeek V3 / R1: function<｜tool▁sep｜>NAME and a ```json fence", Render: writing(tagcall.WriteTyped)},
		{Name: "deepseek-dsml", Description: "DeepSeek V3.2 DSML: <｜DSML｜invoke> with typed parameters", Render: writing(tagcall.WriteInvoke),
			Prompt: dsmlPrompt("function_calls"), Models: []string{"*deepseek-v3.2*"}},
		{Name: "deepseek-v4", Description: "DeepSeek V4: V3.2's DSML invokes in a <｜DSML｜tool_calls> section", Render: writing(tagcall.WriteInvoke + 1),
			Prompt: dsmlPrompt("tool_calls"), Models: []string{"*deepseek-v4*"}},
	},
	Prompt: promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"deepseek-r1*", "*deepseek-v3*", "*deepseek-v2.5*", "deepseek-chat-v*", "deepseek-prover*", "deepcoder*", "*r1-distill*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"tool▁call▁begin"}},
		{All: []string{"｜DSML｜", "function_calls>"}},
		{All: []string{"｜DSML｜", "tool_calls>"}},
	},
}

const promptRules = `To call tools, write <｜tool▁calls▁begin｜>, then for each call <｜tool▁call▁begin｜>TOOL_NAME<｜tool▁sep｜>{JSON arguments}<｜tool▁call▁end｜>, then <｜tool▁calls▁end｜>:
- The arguments are one strict JSON object: quote every key and string, escape quotes as \" and newlines as \n.
- Several calls in one <｜tool▁calls▁begin｜> section run together; stop after the section and wait for their outputs.
- Each output comes back as <｜tool▁output▁begin｜>OUTPUT<｜tool▁output▁end｜>, in the order of the calls.
- Think inside <think>...</think> (optional). Text outside these markers is your answer to the user.`

// dsmlPrompt is the rules of DeepSeek's DSML form, its calls in a section
// named section (V3.2: function_calls, V4: tool_calls).
func dsmlPrompt(section string) string {
	return `To call tools, write a <｜DSML｜` + section + `> section, one invoke per call:
<｜DSML｜` + section + `>
<｜DSML｜invoke name="TOOL_NAME">
<｜DSML｜parameter name="PARAM" string="true">text, as it is</｜DSML｜parameter>
<｜DSML｜parameter name="COUNT" string="false">3</｜DSML｜parameter>
</｜DSML｜invoke>
</｜DSML｜` + section + `>
- string="true" marks a string value, written as it is; string="false" a number, true, false, null or JSON array or object.
- Several invokes in one section run together; stop after the section and wait for their results.
- Think inside <think>...</think> (optional). Text outside the section is your answer to the user.`
}

// The markers. ｜ is U+FF5C and ▁ is U+2581, three bytes each in UTF-8.
const (
	openThink     = "<think>"
	closeThink    = "</think>"
	callsBegin    = "<｜tool▁calls▁begin｜>"
	callsEnd      = "<｜tool▁calls▁end｜>"
	callBegin     = "<｜tool▁call▁begin｜>"
	callEnd       = "<｜tool▁call▁end｜>"
	toolSep       = "<｜tool▁sep｜>"
	outputsBegin  = "<｜tool▁outputs▁begin｜>"
	outputsEnd    = "<｜tool▁outputs▁end｜>"
	outputBegin   = "<｜tool▁output▁begin｜>"
	outputEnd     = "<｜tool▁output▁end｜>"
	dsmlCalls     = "<｜DSML｜function_calls>"
	dsmlCallsEnd  = "</｜DSML｜function_calls>"
	dsmlToolCalls = "<｜DSML｜tool_calls>" // V4's section: V3.2's invokes under another name
	dsmlToolEnd   = "</｜DSML｜tool_calls>"
)

// format is DeepSeek's four forms, for the tag-call engine's token form:
// V3.1's calls, V3's typed ones (function<｜tool▁sep｜>NAME and a fence),
// the outputs, and V3.2's and V4's DSML sections of invokes. Sections hold
// calls only; reasoning written in the output holds no markers, and the
// reasoning the prompt opened is the only one.
var format = &tagcall.Format{
	Name:      "deepseek",
	Think:     tagcall.Tags{Open: openThink, Close: closeThink},
	ThinkOnce: true,
	Token: &tagcall.Token{
		Open:        []string{callsBegin},
		Close:       []string{callsEnd},
		Call:        tagcall.Tags{Open: callBegin, Close: callEnd},
		Sep:         toolSep,
		Header:      readName,
		WriteHeader: func(name, _ string, _ int) string { return name },
		IDRule:      "cannot stand in a DeepSeek call (they have no ids)",
		Strict:      true,
		Typed:       "function",
		Fence:       true,
		Output:      tagcall.Tags{Open: outputBegin, Close: outputEnd},
		Outputs:     tagcall.Tags{Open: outputsBegin, Close: outputsEnd},
		Invoke: &tagcall.Invoke{
			Tags: invokexml.Tags{Syntax: "deepseek", Invoke: "<｜DSML｜invoke", InvokeEnd: "</｜DSML｜invoke>",
				Param: "<｜DSML｜parameter", ParamEnd: "</｜DSML｜parameter>", Typed: true},
			Sections: []tagcall.Tags{{Open: dsmlCalls, Close: dsmlCallsEnd}, {Open: dsmlToolCalls, Close: dsmlToolEnd}},
		},
	},
}

// writing is the renderer of the format writing its calls in the form
// write (tagcall.Token.Write): V3's, or DSML in V3.2's or V4's section.
func writing(write int) func(io.Writer, syntax.Options) syntax.Renderer {
	t := *format.Token
	t.Write = write
	f := *format
	f.Token = &t
	return f.Render
}

// readName reads a call's header: its name (or, for V3, its type).
func readName(h string) (name, _, problem string) {
	if h == "" {
		return "", "", "has no name before " + toolSep
	}
	return strings.TrimSpace(h), "", ""
}
