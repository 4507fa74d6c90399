package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkValidate measures Validate per call, on the fast path and on the
// engine, with encoding/json.Valid over the same bytes as the baseline.
//
//	go test -run XXX -bench Validate ./schema
func BenchmarkValidate(b *testing.B) {
	set, err := LoadFile("../testdata/schemas/openai.json")
	if err != nil {
		b.Fatal(err)
	}
	rich, err := Load([]byte(richTools))
	if err != nil {
		b.Fatal(err)
	}
	calls := []struct {
		name string
		set  *Set
		tool string
		args string
	}{
		{"small", set, "read_file", `{"path":"src/main.go","limit":200}`},
		{"arrays", set, "search", `{"query":"func main","max_results":20,"regex":false,"paths":["src","cmd","internal","docs","testdata"]}`},
		{"4KB", set, "write_file", `{"path":"notes.txt","content":` + string(mustJSON(strings.Repeat("a line of text, with \"quotes\" and {braces}\n", 100))) + `}`},
		{"invalid", set, "set_mode", `{"mode":"slow","options":{"depth":"deep","x":1}}`},
		{"ref-anyOf", rich, "edit", `{"file":{"path":"a.go","encoding":"utf-8"},"edits":[{"line":3,"text":"x"},{"line":9,"text":null}],"mode":"replace"}`},
	}
	for _, c := range calls {
		args := []byte(c.args)
		paths := []string{"engine"}
		if t, _ := c.set.Lookup(c.tool); t.plain != nil {
			paths = []string{"fast", "engine"}
		}
		for _, p := range paths {
			b.Run(c.name+"/"+p, func(b *testing.B) {
				fastPath = p == "fast"
				defer func() { fastPath = true }()
				b.SetBytes(int64(len(args)))
				b.ReportAllocs()
				for b.Loop() {
					c.set.Validate(c.tool, args)
				}
			})
		}
		b.Run(c.name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(args)))
			b.ReportAllocs()
			for b.Loop() {
				json.Valid(args)
			}
		})
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// richTools is a tool whose schema the fast path does not take: $defs, $ref,
// anyOf with null, enum, bounds.
const richTools = `[{"name": "edit", "parameters": {
  "type": "object",
  "$defs": {
    "File": {"type": "object", "properties": {"path": {"type": "string", "minLength": 1},
      "encoding": {"enum": ["utf-8", "latin-1"]}}, "required": ["path"], "additionalProperties": false},
    "Edit": {"type": "object", "properties": {"line": {"type": "integer", "minimum": 1},
      "text": {"anyOf": [{"type": "string"}, {"type": "null"}]}}, "required": ["line", "text"]}
  },
  "properties": {
    "file": {"$ref": "#/$defs/File"},
    "edits": {"type": "array", "items": {"$ref": "#/$defs/Edit"}, "minItems": 1},
    "mode": {"type": "string", "pattern": "^(replace|insert)$"}
  },
  "required": ["file", "edits"]
}}]`
