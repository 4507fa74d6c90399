package prompt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
)

// Example is one worked example of a prompt: the text shown to the model and
// the events it stands for (calls, execute, and results where shown).
type Example struct {
	Title  string
	Text   string
	Events []syntax.Event
}

// Prompt is the generated text and its examples.
type Prompt struct {
	Text     string
	Examples []Example
}

// rules are what each syntax's prompt says about its format.
var rules = map[string]string{
	"xmljson": `Think inside <think>...</think> (optional). To call tools, write one <execute> block holding a JSON array of calls, each {"name": TOOL, "args": {...}}:
- The array is strict JSON: quote every key and string, escape quotes as \" and newlines as \n. Text such as </execute> inside a JSON string is safe.
- Calls in one array run in parallel; their results come back in the same order. Put calls that depend on each other in separate <execute> blocks.
- Results come back in a <results> block: a JSON array of {"tool", "status": "success" or "failure", "content"}.
- Text outside blocks is your answer to the user. Write <end> when the task is complete.`,
	"caret": `To call a tool, write a block that starts with a line ^^^TOOL_NAME and ends with a line that is exactly ^^^:
- Header lines are "key: value", taken verbatim: no quotes are needed and none are removed.
- An array is "key:" followed by indented "- item" lines, or the same key repeated.
- A multi-line value is "key: |" followed by lines indented by two spaces.
- After a line "---", everything up to the closing ^^^ is the parameter "content", verbatim.
- Write only ONE tool block per message, then stop and wait for its result.
- Text outside the block is your answer to the user.`,
	"delimiter": `Write each part of your message after a delimiter:
- §think: your reasoning (optional).
- §call: one JSON object {"name": TOOL, "args": {...}} per call; several §call: lines form one batch.
- §execute after the calls: REQUIRED, or the calls are not run. Then stop and wait.
- Results come back as lines [SYSTEM: ...], one per call, in order.
- §respond: your answer to the user. §end when the task is complete.`,
	"xmltag": `To call a tool, write <tool:TOOL_NAME>, one <param:KEY>VALUE</param:KEY> element per parameter, then </tool:TOOL_NAME>:
- Values are plain text, taken verbatim (no escaping); a newline right after the opening tag and before the closing tag is ignored.
- An array is the same <param:KEY> repeated, once per item.
- Only white space may stand between the param elements.
- Think inside <thinking>...</thinking> (optional). Text outside tools is your answer to the user.`,
	"native": `Call tools through the API's function calling: the tools below are sent as the request's tools. Each call's arguments must be a JSON object that fits the tool's parameters. The examples show the calls as Anthropic Messages content blocks.`,
}

// Build writes the prompt for syntax s and the tools in set.
func Build(s syntax.Syntax, set *schema.Set) (*Prompt, error) {
	if s.Render == nil {
		return nil, fmt.Errorf("prompt: syntax %s has no renderer", s.Name)
	}
	if set == nil || len(set.Tools) == 0 {
		return nil, fmt.Errorf("prompt: no tools")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Calling tools (%s format)\n\n", s.Name)
	b.WriteString(rules[s.Name])
	b.WriteString("\n\n## Tools\n\n")
	for _, t := range set.Tools {
		writeTool(&b, t)
	}
	p := &Prompt{}
	for _, ex := range examples(s, set) {
		shown := ex.Events
		if s.StringValues { // written as strings; the schema converts them back
			shown = make([]syntax.Event, len(ex.Events))
			for i, e := range ex.Events {
				if e.Type == syntax.Call {
					e.Args = stringify(e.Args)
				}
				shown[i] = e
			}
		}
		text, err := render(s, shown)
		if err != nil {
			return nil, fmt.Errorf("prompt: example %q: %v", ex.Title, err)
		}
		ex.Text = text
		p.Examples = append(p.Examples, ex)
	}
	b.WriteString("## Examples\n")
	for _, ex := range p.Examples {
		fmt.Fprintf(&b, "\n%s:\n\n```\n%s```\n", ex.Title, ex.Text)
	}
	p.Text = b.String()
	return p, nil
}

func writeTool(b *strings.Builder, t *schema.Tool) {
	fmt.Fprintf(b, "### %s\n", t.Name)
	if t.Description != "" {
		b.WriteString(t.Description + "\n")
	}
	if t.Parameters == nil || len(t.Parameters.Properties) == 0 {
		b.WriteString("No parameters.\n\n")
		return
	}
	b.WriteString("Parameters:\n")
	required := map[string]bool{}
	for _, r := range t.Parameters.Required {
		required[r] = true
	}
	for _, prop := range t.Parameters.Properties {
		fmt.Fprintf(b, "- %s (%s", prop.Name, prop.Schema.TypeString())
		if required[prop.Name] {
			b.WriteString(", required")
		}
		b.WriteString(")")
		if prop.Schema.Description != "" {
			b.WriteString(": " + prop.Schema.Description)
		}
		if len(prop.Schema.Enum) > 0 {
			var vs []string
			for _, e := range prop.Schema.Enum {
				vs = append(vs, string(e))
			}
			b.WriteString(" One of " + strings.Join(vs, ", ") + ".")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// batched lists the syntaxes where one batch may hold several calls and
// where results have a form.
var (
	batched     = map[string]bool{"xmljson": true, "delimiter": true, "native": true}
	withResults = map[string]bool{"xmljson": true, "delimiter": true, "native": true}
)

func examples(s syntax.Syntax, set *schema.Set) []Example {
	tools := set.Tools
	first := exampleCall(tools[0])
	exs := []Example{{Title: "Calling " + tools[0].Name, Events: []syntax.Event{first, {Type: syntax.Execute}}}}
	if len(tools) > 1 {
		second := exampleCall(tools[1])
		if batched[s.Name] {
			exs = append(exs, Example{Title: fmt.Sprintf("Calling %s and %s in one batch", tools[0].Name, tools[1].Name),
				Events: []syntax.Event{first, second, {Type: syntax.Execute}}})
		} else {
			exs = append(exs, Example{Title: "Calling " + tools[1].Name + " (in a message of its own)",
				Events: []syntax.Event{second, {Type: syntax.Execute}}})
		}
		if withResults[s.Name] {
			failed := syntax.Event{Type: syntax.Result, Tool: second.Name, Status: syntax.Failure, Value: json.RawMessage(`"(the error message)"`)}
			if s.Name == "delimiter" { // [SYSTEM: …] lines have no status: a failure is told in words
				failed.Status, failed.Value = syntax.Success, json.RawMessage(`"Error: (the error message)"`)
			}
			exs = append(exs, Example{Title: "That batch, and its results as they come back: the first call succeeded, the second failed", Events: []syntax.Event{
				first, second, {Type: syntax.Execute},
				{Type: syntax.Result, Tool: first.Name, Status: syntax.Success, Value: json.RawMessage(`"(the tool's output)"`)},
				failed,
			}})
		}
	}
	return exs
}

// exampleCall makes a call to t with a value for every parameter.
func exampleCall(t *schema.Tool) syntax.Event {
	args := []byte("{}")
	if t.Parameters != nil {
		args = exampleValue(t.Parameters, t.Name)
	}
	return syntax.Event{Type: syntax.Call, Name: t.Name, Args: args}
}

// exampleValue makes a value that fits s; name hints at what it is.
func exampleValue(s *schema.Schema, name string) []byte {
	if len(s.Enum) > 0 {
		return jsonscan.Compact(s.Enum[0])
	}
	typ := "string"
	if len(s.Types) > 0 {
		typ = s.Types[0]
	}
	switch typ {
	case "object":
		b := []byte{'{'}
		for i, p := range s.Properties {
			if i > 0 {
				b = append(b, ',')
			}
			b = syntax.AppendQuote(b, p.Name)
			b = append(b, ':')
			b = append(b, exampleValue(p.Schema, p.Name)...)
		}
		return append(b, '}')
	case "array":
		item := &schema.Schema{}
		if s.Items != nil {
			item = s.Items
		}
		return append(append([]byte{'['}, exampleValue(item, name)...), ']')
	case "integer":
		return []byte("10")
	case "number":
		return []byte("2.5")
	case "boolean":
		return []byte("true")
	case "null":
		return []byte("null")
	}
	return syntax.AppendQuote(nil, "example "+strings.ReplaceAll(name, "_", " "))
}

// stringify turns every top-level value of args into a string (an array's
// items too), as a syntax whose values are strings writes them.
func stringify(args []byte) []byte {
	str := func(v []byte) []byte {
		if jsonscan.Kind(v) == '"' {
			return v
		}
		return syntax.AppendQuote(nil, string(v))
	}
	b := []byte{'{'}
	first := true
	jsonscan.Members(args, func(k string, v []byte) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = syntax.AppendQuote(b, k)
		b = append(b, ':')
		if jsonscan.Kind(v) == '[' {
			b = append(b, '[')
			i := 0
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				if i > 0 {
					b = append(b, ',')
				}
				i++
				b = append(b, str(e)...)
				return true
			})
			b = append(b, ']')
			return true
		}
		b = append(b, str(v)...)
		return true
	})
	return append(b, '}')
}

func render(s syntax.Syntax, evs []syntax.Event) (string, error) {
	var b bytes.Buffer
	if err := syntax.Render(s.Render(&b, syntax.Options{}), evs); err != nil {
		return "", err
	}
	return b.String(), nil
}
