package kimik3

import (
	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the kimik3 syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "kimik3",
	Aliases:     []string{"kimi-k3"},
	Description: `Kimi K3: <|open|>TAG attrs<|sep|> … <|close|>TAG<|sep|> channels (think, response, tools), <|open|>call tool="N"<|sep|> with typed <|open|>argument key="K" type="T"<|sep|>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"kimi-k3*", "*/kimi-k3*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|open|>", "<|close|>", "<|sep|>"}},
	},
}

const promptRules = `Write your answer in a response channel, then, to call tools, a tools channel with one call per tool, each argument tagged with its key and its JSON type:
<|open|>response<|sep|>Your answer to the user.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="TOOL_NAME" index="1"<|sep|><|open|>argument key="KEY" type="string"<|sep|>VALUE<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>
- A string argument's value is written as it is; any other type (number, boolean, null, object, array) as its JSON text. In an attribute, write & as &amp; and " as &quot;.
- The calls of one tools channel run together; stop after it and wait for their results.
- Think inside <|open|>think<|sep|>...<|close|>think<|sep|> (optional) before the response.`

// The markers: special tokens around a tag's name and attributes.
const (
	open      = "<|open|>"
	closeTok  = "<|close|>"
	sep       = "<|sep|>"
	endOfMsg  = "<|end_of_msg|>"
	callTag   = open + "call"
	callEnd   = closeTok + "call" + sep
	toolsEnd  = closeTok + "tools" + sep
	argTag    = open + "argument"
	argEnd    = closeTok + "argument" + sep
	jsonTag   = open + "json"
	jsonEnd   = closeTok + "json" + sep
	thinkEnd  = closeTok + "think" + sep
	thinkOpen = open + "think" + sep
)

// The response channel's tags and the message's end.
const (
	openResponse  = open + "response" + sep
	closeResponse = closeTok + "response" + sep
	openTools     = open + "tools" + sep
	closeMessage  = closeTok + "message" + sep
)

// format is Kimi K3's description: the engine's invoke form, the tools
// channel a section of calls, each a call tag naming its tool in a tool
// attribute (XML-escaped) and ended by <|sep|>, its arguments read by
// readArgs and written by writeInvoke; the think channel its reasoning;
// the response channel's tags, the message's closer and <|end_of_msg|>
// dropped where they stand, text written in the response channel. The
// template writes no line end between tags (Packed). Every marker is the
// format's own token.
var format = &tagcall.Format{
	Name:  "kimik3",
	Think: tagcall.Tags{Open: thinkOpen, Close: thinkEnd},
	Own:   true,
	Drop:  []string{closeMessage, endOfMsg},
	Invoke: &tagcall.Invoke{
		Tags: invokexml.Tags{Syntax: "kimik3", Invoke: callTag, InvokeEnd: callEnd,
			NameAttr: "tool", TagEnd: sep, Entities: true, Typed: true, Body: readArgs},
		Sections:    []tagcall.Tags{{Open: openTools, Close: toolsEnd}},
		Own:         true,
		Answer:      tagcall.Tags{Open: openResponse, Close: closeResponse},
		Packed:      true,
		Tight:       true,
		WriteInvoke: writeInvoke,
	},
}
