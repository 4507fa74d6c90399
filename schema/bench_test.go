package schema

import (
	"encoding/json"
	"fmt"
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

// refChain is a tool whose one parameter reaches its type through n
// "$ref"s, each to the next definition.
func refChain(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if i == n-1 {
			fmt.Fprintf(&b, `"d%d":{"type":"integer"}`, i)
		} else {
			fmt.Fprintf(&b, `"d%d":{"$ref":"#/$defs/d%d"}`, i, i+1)
		}
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// BenchmarkRefChain measures the package's own reading of a schema (the
// summary, which resolves every "$ref") at 1,000 and 10,000 links: linear,
// so the second costs about ten times the first. The engine's compile of the
// same schema is beside it (it grows faster than linearly: its compiler
// searches its queue for every schema it enqueues).
//
//	go test -run XXX -bench RefChain ./schema
func BenchmarkRefChain(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		raw := refChain(n)
		b.Run(fmt.Sprintf("summary/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := summarise(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("load/%d", n), func(b *testing.B) {
			tool := []byte(`[{"name":"f","parameters":` + string(raw) + `}]`)
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := Load(tool); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEnumLongValue measures an enum check of a 1 MB string argument
// against 1,000 and 10,000 values: the argument is decoded once, so the
// cost grows with the enum's length added to the argument's, not their
// product.
//
//	go test -run XXX -bench EnumLongValue ./schema
func BenchmarkEnumLongValue(b *testing.B) {
	arg := []byte(`{"v":` + string(mustJSON(strings.Repeat("x", 1<<20))) + `}`)
	for _, n := range []int{1000, 10000} {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = fmt.Sprintf("%q", fmt.Sprint("value-", i))
		}
		set, err := Load([]byte(`[{"name":"f","parameters":{"type":"object","properties":{"v":{"type":"string","enum":[` + strings.Join(vals, ",") + `]}}}}]`))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if ps := set.Validate("f", arg); len(ps) != 1 {
					b.Fatalf("problems %v, want one", ps)
				}
			}
		})
	}
}
