package kimi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the kimi syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "kimi",
	Aliases:     []string{"kimi-k2"},
	Description: "Kimi K2: <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>…, <think>",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"kimi-k2*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"<|tool_calls_section_begin|>", "<|tool_call_begin|>"}},
	},
}

const promptRules = `To call tools, write one tool-call section after your text and stop:
<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{JSON arguments}<|tool_call_end|><|tool_calls_section_end|>
- NAME is the tool's name; IDX counts the calls of the conversation from 0 (functions.get_weather:0, then functions.read_file:1, …). The id functions.NAME:IDX names the call; results are given for that id.
- The arguments are one strict JSON object: quote every key and string, escape quotes as \" and newlines as \n. {} when the tool takes none.
- Several calls go one after another inside one section, each between <|tool_call_begin|> and <|tool_call_end|>; they run together once your message ends.
- You may think first inside <think></think>. Text outside the section is your answer to the user.`

// format is Kimi K2's form, for the tag-call engine's token form. The
// section markers also come in the singular form some checkpoints write.
var format = &tagcall.Format{
	Name:       "kimi",
	Think:      tagcall.Tags{Open: "<think>", Close: "</think>"},
	ThinkCalls: true, // a call ends reasoning, written or opened by the prompt
	Token: &tagcall.Token{
		Open:        []string{"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>"},
		Close:       []string{"<|tool_calls_section_end|>", "<|tool_call_section_end|>"},
		Call:        tagcall.Tags{Open: "<|tool_call_begin|>", Close: "<|tool_call_end|>"},
		Sep:         "<|tool_call_argument_begin|>",
		Header:      parseID,
		WriteHeader: writeID,
		IDRule:      "does not name it as functions.NAME:IDX",
	},
}

// parseID reads a call's header, its id: functions.NAME:IDX, or NAME:IDX,
// IDX being digits. It returns the function's name and the id, or a
// problem.
func parseID(id string) (name, _, problem string) {
	colon := strings.LastIndexByte(id, ':')
	switch {
	case id == "":
		return "", "", "has an empty id"
	case colon < 0 && allDigits(id):
		return "", "", fmt.Sprintf("has the bare counter %q as its id, which names no function (vLLM finds one in the request's tool schemas; a text parser has none)", id)
	case colon < 0 || !allDigits(id[colon+1:]):
		return "", "", fmt.Sprintf("has the id %q, which does not end in :IDX (functions.NAME:IDX)", id)
	}
	name = strings.TrimPrefix(id[:colon], "functions.")
	if name == "" {
		return "", "", fmt.Sprintf("has the id %q, which names no function", id)
	}
	return name, id, ""
}

// writeID is the header of call k named name: its id, or, with none,
// functions.NAME:K.
func writeID(name, id string, k int) string {
	if id != "" {
		return id
	}
	return "functions." + name + ":" + strconv.Itoa(k)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
