package prompt_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/prompt"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/wire"
)

var update = flag.Bool("update", false, "rewrite the prompt goldens")

func tools(t *testing.T) *schema.Set {
	set, err := schema.LoadFile(filepath.Join("..", "testdata", "schemas", "openai.json"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestExamplesParseBack parses every example of every syntax's prompt: it
// must give exactly the calls (and results) the example claims, with no
// error, once the syntax's values are converted by the schema.
func TestExamplesParseBack(t *testing.T) {
	set := tools(t)
	for _, s := range registry.List() {
		if s.Prompt == "" { // no form to teach (TestNoPromptRules)
			continue
		}
		p, err := prompt.Build(s, set)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if len(p.Examples) < 2 {
			t.Errorf("%s: %d examples", s.Name, len(p.Examples))
		}
		for _, ex := range p.Examples {
			if !strings.Contains(p.Text, "```\n"+ex.Text+"```") {
				t.Errorf("%s: example %q is not in the prompt text", s.Name, ex.Title)
			}
			var got []syntax.Event
			h := set.Check(func(e syntax.Event) { got = append(got, e) })
			ps := s.New(h, syntax.Options{})
			ps.Write([]byte(ex.Text))
			ps.Close()
			for _, e := range got {
				if e.Type == syntax.Error || e.Invalid != "" {
					t.Errorf("%s: example %q gives %s", s.Name, ex.Title, e)
				}
			}
			want := append(append([]syntax.Event(nil), ex.Events...), syntax.Event{Type: syntax.End})
			if d := cmp.Diff(wire.NormalizePair(want, got)); d != "" {
				t.Errorf("%s: example %q:\n%s\nparses to other events:\n%s", s.Name, ex.Title, ex.Text, d)
			}
		}
		path := filepath.Join("..", "testdata", "prompts", s.Name+".md")
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(p.Text), 0o644)
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./prompt -update)", err)
		}
		if string(want) != p.Text {
			t.Errorf("%s: prompt differs from %s:\n%s", s.Name, path, p.Text)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	s, _ := registry.Lookup("xmljson")
	if _, err := prompt.Build(s, &schema.Set{}); err == nil {
		t.Error("a prompt with no tools was built")
	}
}

// TestArrayParameterExample: a tool whose parameter is an array gets an
// example in every syntax, written so that it reads back (xmltag writes a
// one-item array as a single param, which the schema converts back).
func TestArrayParameterExample(t *testing.T) {
	set, err := schema.Load([]byte(`[{"name":"read_files","parameters":{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"}},"limit":{"type":"integer"}},"required":["paths"]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range registry.List() {
		if s.Prompt == "" { // no form to teach (TestNoPromptRules)
			continue
		}
		p, err := prompt.Build(s, set)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		want := `{"paths":["example paths"],"limit":10}`
		if got := string(p.Examples[0].Events[0].Args); got != want {
			t.Errorf("%s: example call %s, want %s", s.Name, got, want)
		}
	}
}

// TestVariantPrompt: a variant's name gives the prompt's examples in that
// form, as --to does for output.
func TestVariantPrompt(t *testing.T) {
	s, err := registry.Lookup("openai")
	if err != nil {
		t.Fatal(err)
	}
	p, err := prompt.Build(s, tools(t))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"example path\",\"limit\":10}"}}]}`
	if got := strings.TrimSpace(p.Examples[0].Text); got != want {
		t.Errorf("first example in the openai form:\n got %s\nwant %s", got, want)
	}
}

// TestConstrainedExample: a first tool whose parameters have a format, a
// pattern and bounds that the plain placeholders ("example when", 10) do
// not meet made every prompt fail. The example is now made to fit them, in
// every syntax, and validates; a schema no value fits still gives a prompt,
// its first example checked by the syntax alone.
func TestConstrainedExample(t *testing.T) {
	set, err := schema.Load([]byte(`[{"name":"schedule","parameters":{"type":"object","properties":{
		"when":{"type":"string","format":"date-time"},"room":{"type":"string","pattern":"^[A-Z][0-9]{3}$"},
		"title":{"type":"string","minLength":20,"maxLength":40},"n":{"type":"integer","minimum":100,"maximum":200,"multipleOf":7},
		"ratio":{"type":"number","exclusiveMinimum":0,"maximum":0.5},
		"tags":{"type":"array","items":{"type":"string","format":"email"},"minItems":2},"id":{"type":"string","format":"uuid"},
		"labels":{"type":"array","minItems":2,"uniqueItems":true,"items":{"type":"string","enum":["a","b"]}},
		"ns":{"type":"array","minItems":3,"uniqueItems":true,"items":{"type":"integer"}}},
		"required":["when","room"]}},
		{"name":"echo","parameters":{"type":"object","properties":{"text":{"type":"string"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	odd, err := schema.Load([]byte(`[{"name":"f","parameters":{"type":"object","properties":{"x":{"type":"string","not":{"minLength":0}}},"required":["x"]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range registry.List() {
		if s.Render == nil || s.Prompt == "" {
			continue
		}
		p, err := prompt.Build(s, set)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		first := p.Examples[0].Events[0]
		if first.Name != "schedule" {
			t.Errorf("%s: first example calls %s", s.Name, first.Name)
		}
		if ps := set.Validate(first.Name, first.Args); len(ps) > 0 {
			t.Errorf("%s: example %s does not fit: %v", s.Name, first.Args, ps)
		}
		if _, err := prompt.Build(s, odd); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
}

// TestNoPromptRules: a syntax with no prompt rules is one with no call form
// (its renderer writes no call), and Build says it has nothing to teach,
// never a prompt of tools the model cannot call.
func TestNoPromptRules(t *testing.T) {
	set := tools(t)
	for _, s := range registry.List() {
		if s.Prompt != "" {
			continue
		}
		if syntaxtest.WritesCalls(s) {
			t.Errorf("%s: writes calls but has no prompt rules", s.Name)
		}
		if _, err := prompt.Build(s, set); err == nil || !strings.Contains(err.Error(), "no prompt rules") {
			t.Errorf("%s: Build gave %v, want an error saying it has no prompt rules", s.Name, err)
		}
	}
}
