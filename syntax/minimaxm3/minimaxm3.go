package minimaxm3

import (
	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the minimaxm3 syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "minimaxm3",
	Aliases:     []string{"minimax-m3"},
	Description: `MiniMax M3: ]<]minimax[>[<tool_call>, <invoke name="N">, each parameter a tag of its own name, nested values as child tags and <item>s; <mm:think>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"minimax-m3*", "*/minimax-m3*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"]<]minimax[>["}},
	},
}

const promptRules = `To call tools, wrap all invocations in one ]<]minimax[>[<tool_call> block; every tag is preceded by ]<]minimax[>[ and each parameter is a tag named after it:
]<]minimax[>[<tool_call>
]<]minimax[>[<invoke name="TOOL_NAME">]<]minimax[>[<PARAMETER>value]<]minimax[>[</PARAMETER>]<]minimax[>[</invoke>
]<]minimax[>[</tool_call>
- Values are written as they are, with no quotes or escapes. An object's members are tags of their own names inside the parameter; an array's elements are ]<]minimax[>[<item> tags.
- Several invokes in one block run together; stop after the block and wait for their results.
- Think inside <mm:think>...</mm:think> (optional). Text outside these tags is your answer to the user.`

// ns precedes every tag of a call.
const (
	ns        = "]<]minimax[>["
	invokeTag = ns + "<invoke"
	invokeEnd = ns + "</invoke>"
)

// format is MiniMax M3's description: MiniMax M2's invoke form (the
// engine's, with the module's invoke reader) with every tag after ns, a
// section opener of its own, and elements read and written by readArgs and
// writeInvoke in place of parameter tags.
var format = &tagcall.Format{
	Name:  "minimaxm3",
	Think: tagcall.Tags{Open: "<mm:think>", Close: "</mm:think>"},
	Own:   true,
	Invoke: &tagcall.Invoke{
		Tags:        invokexml.Tags{Syntax: "minimaxm3", Invoke: invokeTag, InvokeEnd: invokeEnd, Body: readArgs},
		Sections:    []tagcall.Tags{{Open: ns + "<tool_call>", Close: ns + "</tool_call>"}},
		Own:         true,
		WriteInvoke: writeInvoke,
	},
}
