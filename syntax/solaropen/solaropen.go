package solaropen

import (
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the solaropen syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "solaropen",
	Aliases:     []string{"solar-open"},
	Description: "Solar Open: <|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…<|calls|>, <|think|>…<|end|>",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"solar-open*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|tool_call:begin|>", "<|tool_call:name|>"}},
	},
}

const promptRules = `To call tools, write <|tool_calls|>, then for each call <|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{JSON arguments}<|tool_call:end|>; then <|calls|>:
- ID names the call (ten letters or digits, new for each call); results are given for that id. NAME is the tool's name.
- The arguments are one strict JSON object: quote every key and string, escape quotes as \" and newlines as \n. {} when the tool takes none.
- Several calls in one <|tool_calls|> block run together once your message ends.
- You may think first inside <|think|>…<|end|>. Other text is your answer to the user.`

// nameMark ends the id and starts the name in a call's header.
const nameMark = "<|tool_call:name|>"

// format is Solar Open's form, for the tag-call engine's token form: the
// section opener <|tool_calls|> (its turn's body marker) and <|calls|>, the
// calls' end of turn, around calls whose header is the id, then the name
// after <|tool_call:name|>. <|end|>, the other turns' end, closes a section
// too, and outside one it is passed over as a closer is. The turn header,
// the content marker and <|flush|> are dropped where they stand.
var format = &tagcall.Format{
	Name:       "solaropen",
	Think:      tagcall.Tags{Open: "<|think|>", Close: "<|end|>"},
	ThinkCalls: true, // a call ends reasoning, written or opened by the prompt
	Token: &tagcall.Token{
		Open:        []string{"<|tool_calls|>"},
		Close:       []string{"<|calls|>", "<|end|>"},
		Call:        tagcall.Tags{Open: "<|tool_call:begin|>", Close: "<|tool_call:end|>"},
		Sep:         "<|tool_call:args|>",
		Header:      readHeader,
		WriteHeader: writeHeader,
		IDRule:      "holds " + nameMark + " or white space at its ends",
		Drop:        []string{"<|begin|>assistant", "<|content|>", "<|flush|>"},
	},
}

// writeHeader is the header of call k named name: its id, or, with none,
// one made as the model makes them (ten letters or digits: call000000,
// call000001, …), then <|tool_call:name|> and the name.
func writeHeader(name, id string, k int) string {
	if id == "" {
		id = fmt.Sprintf("call%06d", k)
	}
	return id + nameMark + name
}

// readHeader reads a call's header: ID<|tool_call:name|>NAME, the id
// possibly empty (no id). It returns the name and the id, or a problem.
func readHeader(h string) (name, id, problem string) {
	id, name, ok := strings.Cut(h, nameMark)
	name = strings.TrimSpace(name)
	switch {
	case !ok:
		return "", "", "has no " + nameMark + " before its name"
	case name == "":
		return "", "", "has no name after " + nameMark
	}
	return name, strings.TrimSpace(id), ""
}
