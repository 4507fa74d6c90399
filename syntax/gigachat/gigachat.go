package gigachat

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the gigachat syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "gigachat",
	Aliases:     []string{"gigachat3", "gigachat3.1"},
	Description: `Sber GigaChat 3 and 3.1: <|function_call|>{"name": N, "arguments": {…}} (3.1), or a "function call" turn: <|message_sep|>\n\nfunction call<|role_sep|>\n{…} (3)`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"gigachat3*", "*/gigachat3*", "gigachat-3*", "*/gigachat-3*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|role_sep|>", "<|message_sep|>"}, Any: []string{"<|function_call|>", "function call"}},
	},
}

// format is GigaChat's, for the tag-call engine: one JSON call object
// after its opener — 3.1's <|function_call|> token, or 3.0's "function
// call" turn header — ended by the object's end; the turn separator is
// GigaChat's own token, dropped.
var format = &tagcall.Format{
	Name:    "gigachat",
	Scope:   tagcall.Tags{Open: "<|function_call|>"},
	Openers: []string{"function call<|role_sep|>"},
	JSON:    &jsoncall.Keys{Name: "name", Args: "arguments", StringArgs: true},
	Object:  true,
	Drop:    []string{"<|message_sep|>"},
	Own:     true,
}

const promptRules = `To call a function, write <|function_call|> and then one JSON object with its name and arguments:
<|function_call|>{"name": "FUNCTION_NAME", "arguments": {"ARG": "VALUE"}}
- The object is strict JSON: quote every key and string. Call one function per message, then stop and wait for its result.
- Text before <|function_call|> is your answer to the user.`
