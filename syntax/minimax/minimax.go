package minimax

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// Syntax describes the minimax syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "minimax",
	Aliases:     []string{"invoke", "function_calls"},
	Description: `MiniMax-M2 <minimax:tool_call><invoke name="N"><parameter name="K">v</parameter></invoke>; Anthropic's legacy <function_calls>`,
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"minimax-m2*"},
	Templates: []syntax.Fingerprint{
		{Any: []string{"<minimax:tool_call>"}},
		{All: []string{"<function_calls>", "<invoke name="}, None: []string{":function_calls>"}},
	},
}

const promptRules = `To call tools, write <minimax:tool_call>, then for each call <invoke name="TOOL_NAME">, one <parameter name="KEY">VALUE</parameter> per parameter, </invoke>; then </minimax:tool_call>:
- Values are plain text, taken verbatim (no escaping); a newline right after the opening tag and before the closing tag is ignored. Write numbers, booleans, objects and arrays as JSON text.
- Calls in one <minimax:tool_call> block run together; stop after the block and wait for their results.
- Think inside <think>...</think> (optional). Text outside these tags is your answer to the user.`

// format is MiniMax-M2's form, for the tag-call engine's invoke form: the
// <minimax:tool_call> section (written) and Anthropic's legacy
// <function_calls> (read), results in Anthropic's <function_results>.
var format = &tagcall.Format{
	Name:  "minimax",
	Think: tagcall.Tags{Open: "<think>", Close: "</think>"},
	Invoke: &tagcall.Invoke{
		Tags: invokexml.Tags{Syntax: "minimax", Invoke: "<invoke", InvokeEnd: "</invoke>", Param: "<parameter", ParamEnd: "</parameter>"},
		Sections: []tagcall.Tags{
			{Open: "<minimax:tool_call>", Close: "</minimax:tool_call>"},
			{Open: "<function_calls>", Close: "</function_calls>"},
		},
		Results:     tagcall.Tags{Open: "<function_results>", Close: "</function_results>"},
		ResultTag:   resultTag,
		ReadResult:  readResult,
		WriteResult: writeResult,
	},
}

const resultTag = "<result>"

// readResult reads one <result> element at the start of b: its event, its
// length, or a problem. It holds a <tool_name> and a <stdout> (success) or
// <error> (failure).
func readResult(b []byte) (syntax.Event, int, string) {
	if !bytes.HasPrefix(b, []byte(resultTag)) {
		return syntax.Event{}, 0, "text other than <result> elements"
	}
	end := bytes.Index(b, []byte("</result>"))
	if end < 0 {
		return syntax.Event{}, 0, "<result> with no </result>"
	}
	inner := b[len(resultTag):end]
	n := end + len("</result>")
	e := syntax.Event{Type: syntax.Result, Status: syntax.Success}
	haveTool, haveOut := false, false
	for i := 0; ; {
		i += markup.Spaces(inner[i:])
		if i == len(inner) {
			break
		}
		var name string
		for _, t := range []string{"tool_name", "stdout", "error"} {
			if bytes.HasPrefix(inner[i:], []byte("<"+t+">")) {
				name = t
			}
		}
		if name == "" {
			return e, 0, "text other than <tool_name>, <stdout> and <error> in <result>"
		}
		open, closeTag := "<"+name+">", "</"+name+">"
		j := bytes.Index(inner[i+len(open):], []byte(closeTag))
		if j < 0 {
			return e, 0, open + " with no " + closeTag
		}
		v := inner[i+len(open) : i+len(open)+j]
		switch {
		case name == "tool_name" && !haveTool:
			haveTool = true
			e.Tool = string(jsonscan.TrimSpace(v))
		case name != "tool_name" && !haveOut:
			haveOut = true
			if name == "error" {
				e.Status = syntax.Failure
			}
			e.Value = params.Quote(nil, invokexml.TrimLine(v))
		default:
			return e, 0, "a second " + open + " in <result>"
		}
		i += len(open) + j + len(closeTag)
	}
	switch {
	case !haveTool:
		return e, 0, "<result> with no <tool_name>"
	case !haveOut:
		e.Value = []byte(`""`)
	}
	return e, n, ""
}

// writeResult writes one result as a <result> element: <tool_name>, then
// <stdout>, or <error> for a failure, holding the content's text (a value
// that is not a string as its JSON text).
func writeResult(r syntax.Event) (string, string) {
	plain := r
	plain.Status = syntax.Success  // the status is the tag
	text := wire.ResultText(plain) // any value as its JSON text
	tag := "stdout"
	if r.Status == syntax.Failure {
		tag = "error"
	}
	problem := ""
	if strings.Contains(text, "</"+tag+">") || strings.Contains(text, "</function_results>") || strings.Contains(r.Tool, "<") ||
		strings.TrimSpace(r.Tool) != r.Tool {
		problem = "a result of " + strconv.Quote(r.Tool) + " that its tags cannot hold"
	}
	return "<result>\n<tool_name>" + r.Tool + "</tool_name>\n<" + tag + ">" + invokexml.Pad(text) + "</" + tag + ">\n</result>\n", problem
}
