package minicpm

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the minicpm syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "minicpm",
	Aliases:     []string{"minicpm5"},
	Description: `MiniCPM5: <function name="NAME"><param name="K">v</param></function>, values holding '<', '&' or a line end in <![CDATA[…]]>; <think>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"minicpm5*", "minicpm-5*"},
	Templates: []syntax.Fingerprint{
		{All: []string{`<function name="`, `<param name="`}},
	},
}

// format is MiniCPM5's form, for the tag-call engine: no wrapper around a
// call, the name and the keys in quoted attributes, values raw or in a
// CDATA section. The renderer writes a value holding '<', '&' or a line
// end in a CDATA section, as the template does; it cannot carry (and says
// so) values that are not strings (written as their JSON text, which a
// tool schema converts back), an array of fewer than two items, a value
// holding </function>, names and keys holding '"' or a line end.
var format = &tagcall.Format{
	Name:     "minicpm",
	Think:    tagcall.Tags{Open: "<think>", Close: "</think>"},
	Result:   tagcall.Tags{Open: "<tool_response>", Close: "</tool_response>"},
	Function: tagcall.Tags{Open: `<function name="`, Close: "</function>"},
	NameEnd:  `">`,
	Bare:     true,
	Param: tagcall.Param{
		Open: `<param name="`, KeyClose: `">`, Close: "</param>",
		CDATA: true,
	},
	ResultJSON: true,
}

const promptRules = `To call a function, write it as an XML element, with no text after it:
<function name="function-name"><param name="param-name">param-value</param></function>
- One <param> per argument; a function without arguments is <function name="function-name"></function>. Several calls follow one another.
- Values are written as they are, with no escaping. A value holding <, & or a line break goes in a CDATA block: <param name="code"><![CDATA[print("a < b")]]></param>.
- Numbers, true, false and JSON arrays or objects are written as their JSON text.
- Think first inside <think>...</think> (optional). Tool results come back inside <tool_response>...</tool_response>.`
