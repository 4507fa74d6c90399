package schema_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolparse/toolparse/schema"
)

func TestFourShapesLoadTheSame(t *testing.T) {
	var first *schema.Set
	for _, f := range []string{"openai.json", "anthropic.json", "mcp.json", "plain.json"} {
		s, err := schema.LoadFile(filepath.Join("..", "testdata", "schemas", f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(s.Tools) != 4 || s.Tools[0].Name != "read_file" || s.Tools[0].Parameters == nil {
			t.Fatalf("%s: loaded %d tools", f, len(s.Tools))
		}
		if first == nil {
			first = s
			continue
		}
		if d := cmp.Diff(first.Tools, s.Tools, cmpopts.IgnoreUnexported(schema.Tool{})); d != "" {
			t.Errorf("%s differs from openai.json:\n%s", f, d)
		}
	}
	if got := first.Tools[2].Parameters.Properties[1].Schema.TypeString(); got != "integer or null" {
		t.Errorf("max_results type %q", got)
	}
}

func TestBadDefinitions(t *testing.T) {
	for in, want := range map[string]string{
		`{"tools": 3`:                    "not valid JSON",
		`{"nope": []}`:                   `"tools" array`,
		`"tools"`:                        "must be an array",
		`[3]`:                            "tool 1: is a number",
		`[{"description": "x"}]`:         "tool 1: has no name",
		`[{"name": "a"}, {"name": "a"}]`: "tool 2: the name \"a\" is defined twice",
		`[{"name": "a", "parameters": {"type": "strnig"}}]`:                   `unknown type "strnig"`,
		`[{"name": "a", "parameters": {"properties": {"x": {"type": 5}}}}]`:   "parameters.properties.x.type",
		`[{"name": "a", "parameters": {"properties": {"x": {"items": 3}}}}]`:  "parameters.properties.x.items",
		`[{"type": "function", "function": {"description": "no name here"}}]`: "has no name",
	} {
		_, err := schema.Load([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) = %v, want an error containing %q", in, err, want)
		}
	}
	if _, err := schema.LoadFile(filepath.Join("no", "such.json")); err == nil {
		t.Error("a missing file loaded")
	}
}

func load(t *testing.T) *schema.Set {
	s, err := schema.LoadFile(filepath.Join("..", "testdata", "schemas", "openai.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestValidate(t *testing.T) {
	s := load(t)
	for _, c := range []struct{ name, args, want string }{
		{"read_file", `{"path":"a","limit":3}`, ""},
		{"read_file", `{"path":"a","limit":3.5}`, `argument "limit": expected integer, got number 3.5`},
		{"read_file", `{"path":"a","limit":3.0}`, ""},
		{"read_file", `{}`, `argument "path": missing (required)`},
		{"search", `{"query":"q","max_results":null}`, ""},
		{"search", `{"query":"q","paths":"src"}`, `argument "paths": expected array of string, got string "src"`},
		{"set_mode", `{"mode":"fast","options":{"depth":1}}`, ""},
		{"set_mode", `{"mode":"fast","options":{"depth":"deep"}}`, `argument "options.depth": expected number, got string "deep"`},
		{"nope", `{}`, `unknown tool "nope"`},
	} {
		var got []string
		for _, p := range s.Validate(c.name, json.RawMessage(c.args)) {
			got = append(got, p.String())
		}
		joined := strings.Join(got, "; ")
		if c.want == "" && joined != "" || c.want != "" && !strings.Contains(joined, c.want) {
			t.Errorf("%s %s: problems %q, want %q", c.name, c.args, joined, c.want)
		}
	}
}

func TestConvert(t *testing.T) {
	s := load(t)
	for _, c := range []struct{ name, in, want string }{
		{"search", `{"query":"12","max_results":"7","regex":"true","paths":"a"}`, `{"query":"12","max_results":7,"regex":true,"paths":["a"]}`},
		{"search", `{"query":"q","max_results":"null","paths":["a","b"]}`, `{"query":"q","max_results":null,"paths":["a","b"]}`},
		{"search", `{"query":"q","max_results":"7.5","regex":"TRUE"}`, `{"query":"q","max_results":"7.5","regex":"TRUE"}`},
		{"set_mode", `{"mode":"fast","options":"{\"depth\": \"2\"}"}`, `{"mode":"fast","options":{"depth":"2"}}`},
		{"set_mode", `{"mode":"fast","options":"not json"}`, `{"mode":"fast","options":"not json"}`},
		{"unknown", `{"a":"1"}`, `{"a":"1"}`},
	} {
		if got, _ := s.Convert(c.name, json.RawMessage(c.in)); string(got) != c.want {
			t.Errorf("Convert(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestFromValue(t *testing.T) {
	type fn struct {
		Name       string         `json:"name"`
		Parameters map[string]any `json:"parameters"`
	}
	tools := []map[string]any{{"type": "function", "function": fn{Name: "ls", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"}}}}}
	set, err := schema.FromValue(tools)
	if err != nil {
		t.Fatal(err)
	}
	if ps := set.Validate("ls", json.RawMessage(`{}`)); len(ps) != 1 || ps[0].Path != "path" {
		t.Errorf("problems %v", ps)
	}
	if _, err := schema.FromValue(func() {}); err == nil {
		t.Error("a func was accepted")
	}
}
