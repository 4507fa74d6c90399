package solaropen2

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the solaropen2 syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "solaropen2",
	Aliases:     []string{"solar-open2"},
	Description: "Solar Open 2: <|tool_call:start|>NAME\\n<|tool_arg:start|>K<|tool_arg:value|>v<|tool_arg:end|>…<|tool_call:end|>, <|think:start|>…<|think:end|>",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models: see registry.ForModel.
	Models: []string{"solar-open2*", "solar-open-2*"},
}

const promptRules = `To call a tool, write <|tool_call:start|> and the tool's name on its line, then one line per parameter, <|tool_arg:start|>KEY<|tool_arg:value|>VALUE<|tool_arg:end|>, then <|tool_call:end|>:
- Values are plain text, taken verbatim (no escaping, spaces kept). Write numbers, booleans, objects and arrays as JSON text.
- Several calls, one after another, run together once your message ends.
- You may think first inside <|think:start|>…<|think:end|>. Text outside calls is your answer to the user.`

// format is Solar Open 2's form, for the tag-call engine: a word name after
// the call's opener, on its line, and raw-text parameters, their key ended
// by <|tool_arg:value|>. Its tokens are its own.
var format = &tagcall.Format{
	Name:    "solaropen2",
	Think:   tagcall.Tags{Open: "<|think:start|>", Close: "<|think:end|>"},
	Scope:   tagcall.Tags{Open: "<|tool_call:start|>", Close: "<|tool_call:end|>"},
	Param:   tagcall.Param{Open: "<|tool_arg:start|>", KeyClose: "<|tool_arg:value|>", Close: "<|tool_arg:end|>"},
	Own:     true,
	Reopens: true,
}
