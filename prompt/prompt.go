package prompt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
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

// Build writes the prompt for syntax s and the tools in set: the syntax's
// rules (Syntax.Prompt), the tools, and worked examples written by the
// syntax's renderer. Each example is one the syntax can carry: it is parsed
// back, with the tool schemas converting string values, and must give
// exactly its events; a batch of two calls, or a batch with its results, that
// does not come back whole is replaced by a simpler example or left out.
func Build(s syntax.Syntax, set *schema.Set) (*Prompt, error) {
	if s.Render == nil {
		return nil, fmt.Errorf("prompt: syntax %s has no renderer", s.Name)
	}
	if set == nil || len(set.Tools) == 0 {
		return nil, fmt.Errorf("prompt: no tools")
	}
	if s.Prompt == "" {
		return nil, fmt.Errorf("prompt: syntax %s has no prompt rules (Syntax.Prompt)", s.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Calling tools (%s format)\n\n", s.Name)
	b.WriteString(s.Prompt)
	b.WriteString("\n\n## Tools\n\n")
	for _, t := range set.Tools {
		writeTool(&b, t)
	}
	p := &Prompt{}
	for _, choices := range examples(set) {
		ex, ok := firstCarried(s, set, choices)
		if !ok && len(p.Examples) == 0 {
			// The first example must be shown: a call to another tool
			// that reads back, or else the first tool's call checked by
			// the syntax alone (its values may not fit the schema).
			ex, ok = firstExample(s, set)
		}
		if ok {
			p.Examples = append(p.Examples, ex)
		}
	}
	b.WriteString("## Examples\n")
	for _, ex := range p.Examples {
		fmt.Fprintf(&b, "\n%s:\n\n```\n%s```\n", ex.Title, ex.Text)
	}
	p.Text = b.String()
	return p, nil
}

// firstCarried returns the first of the examples that s writes so that it
// reads back as its events: written as they are, or with every value as a
// string (as syntaxes whose values are strings write them). With set nil,
// the syntax alone reads it back, with no schema to convert or check.
func firstCarried(s syntax.Syntax, set *schema.Set, choices []Example) (Example, bool) {
	for _, ex := range choices {
		for _, asStrings := range []bool{false, true} {
			shown := ex.Events
			if asStrings {
				shown = make([]syntax.Event, len(ex.Events))
				for i, e := range ex.Events {
					if e.Type == syntax.Call {
						e.Args = stringify(e.Args)
					}
					shown[i] = e
				}
			}
			text, _ := render(s, shown) // what it could not carry shows in the parse back
			want := ex.Events
			if set == nil { // no schema converts the strings back
				want = shown
			}
			if readsBack(s, set, text, want) {
				ex.Text = text
				return ex, true
			}
		}
	}
	return Example{}, false
}

// firstExample returns the first example when the first tool's call does
// not read back with the schemas: a call to the first tool after it whose
// call does, or else the first tool's call read back by the syntax alone.
func firstExample(s syntax.Syntax, set *schema.Set) (Example, bool) {
	example := func(t *schema.Tool) []Example {
		c := exampleCall(set, t)
		return []Example{{Title: "Calling " + c.Name, Events: []syntax.Event{c, {Type: syntax.Execute}}}}
	}
	for _, t := range set.Tools[1:] {
		if ex, ok := firstCarried(s, set, example(t)); ok {
			return ex, true
		}
	}
	return firstCarried(s, nil, example(set.Tools[0]))
}

// readsBack parses text with s, converting values with set (when set is
// not nil), and reports whether it gives exactly evs, with no error.
func readsBack(s syntax.Syntax, set *schema.Set, text string, evs []syntax.Event) bool {
	var got []syntax.Event
	h := func(e syntax.Event) { got = append(got, e) }
	if set != nil {
		h = set.Check(h)
	}
	p := s.New(h, syntax.Options{})
	p.Write([]byte(text))
	p.Close()
	for _, e := range got {
		if e.Type == syntax.Error || e.Invalid != "" {
			return false
		}
	}
	want := append(append([]syntax.Event(nil), evs...), syntax.Event{Type: syntax.End})
	sent, back := wire.NormalizePair(want, got)
	return reflect.DeepEqual(sent, back)
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

// examples lists the examples a prompt shows, each as its choices, best
// first: the first one the syntax carries is shown.
func examples(set *schema.Set) [][]Example {
	tools := set.Tools
	first := exampleCall(set, tools[0])
	exs := [][]Example{{{Title: "Calling " + tools[0].Name, Events: []syntax.Event{first, {Type: syntax.Execute}}}}}
	if len(tools) < 2 {
		return exs
	}
	second := exampleCall(set, tools[1])
	exs = append(exs, []Example{
		{Title: fmt.Sprintf("Calling %s and %s in one batch", tools[0].Name, tools[1].Name),
			Events: []syntax.Event{first, second, {Type: syntax.Execute}}},
		{Title: "Calling " + tools[1].Name + " (in a message of its own)",
			Events: []syntax.Event{second, {Type: syntax.Execute}}},
	})
	withResults := func(failed syntax.Event) Example {
		return Example{Title: "That batch, and its results as they come back: the first call succeeded, the second failed", Events: []syntax.Event{
			first, second, {Type: syntax.Execute},
			{Type: syntax.Result, Tool: first.Name, Status: syntax.Success, Value: json.RawMessage(`"(the tool's output)"`)},
			failed,
		}}
	}
	return append(exs, []Example{
		withResults(syntax.Event{Type: syntax.Result, Tool: second.Name, Status: syntax.Failure, Value: json.RawMessage(`"(the error message)"`)}),
		// A syntax whose results have no status tells a failure in words.
		withResults(syntax.Event{Type: syntax.Result, Tool: second.Name, Status: syntax.Success, Value: syntax.AppendQuote(nil, wire.FailurePrefix+"(the error message)")}),
	})
}

// exampleCall makes a call to t with a value for every parameter: plain
// placeholders ("example path", 10) where they fit the schema, else values
// made to fit its formats, patterns and bounds ([schema.Tool.Example]).
func exampleCall(set *schema.Set, t *schema.Tool) syntax.Event {
	args := []byte("{}")
	if t.Parameters != nil {
		args = exampleValue(t.Parameters, t.Name)
	}
	if len(set.Validate(t.Name, args)) > 0 {
		if fit := t.Example(); fit != nil {
			args = fit
		}
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
	err := syntax.Render(s.Render(&b, syntax.Options{}), evs)
	return b.String(), err
}
