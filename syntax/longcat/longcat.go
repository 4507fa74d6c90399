package longcat

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the longcat syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "longcat",
	Description: `Meituan LongCat-Flash: <longcat_tool_call>{"name": N, "arguments": {…}}</longcat_tool_call>, or NAME and <longcat_arg_key>/<longcat_arg_value> pairs; <longcat_think>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models: see registry.ForModel. No Templates: no LongCat chat template
	// is in the set the tests read, and a fingerprint no test holds to a
	// real template is a guess.
	Models: []string{"*longcat*"},
}

// format is LongCat's, for the tag-call engine: a call block holds one
// JSON call object (the Hermes form under LongCat's tags) or a name and
// GLM's key/value tags under LongCat's prefix; reasoning in <longcat_think>.
// Every tag is LongCat's own: each is evidence by itself.
var format = &tagcall.Format{
	Name:   "longcat",
	Think:  tagcall.Tags{Open: "<longcat_think>", Close: "</longcat_think>"},
	Scope:  tagcall.Tags{Open: "<longcat_tool_call>", Close: "</longcat_tool_call>"},
	JSON:   &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
	Object: true,
	Param: tagcall.Param{
		Open: "<longcat_arg_key>", KeyClose: "</longcat_arg_key>",
		ValueOpen: "<longcat_arg_value>", Close: "</longcat_arg_value>",
	},
	Own: true,
}

const promptRules = `For each function call, return a JSON object with the function name and its arguments within <longcat_tool_call></longcat_tool_call> tags:
<longcat_tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</longcat_tool_call>
- The object is strict JSON: quote every key and string, escape quotes as \" and newlines as \n.
- You may call several functions: one <longcat_tool_call> block per call, then stop. The calls run together once your message ends.
- Text outside the tags is your answer to the user. You may think first inside <longcat_think></longcat_think>.`
