package schema

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// differential lists schema/instance pairs with the verdict JSON Schema gives
// them. The cases are ours, written after the groups of the official
// JSON-Schema-Test-Suite (github.com/json-schema-org/JSON-Schema-Test-Suite,
// tests/draft2020-12/<keyword>.json and tests/draft7/ for draft-07), shaped as
// tool arguments: the instance is always an object.
var differential = []struct {
	group, schema, instance string
	valid                   bool
}{
	// type.json, required.json, properties.json, enum.json (fast-path schemas)
	{"type", `{"properties":{"n":{"type":"integer"}}}`, `{"n":1.0}`, true},
	{"type", `{"properties":{"n":{"type":"integer"}}}`, `{"n":1.5}`, false},
	{"type", `{"properties":{"n":{"type":"number"}}}`, `{"n":"1"}`, false},
	{"type", `{"properties":{"n":{"type":["integer","null"]}}}`, `{"n":null}`, true},
	{"type", `{"properties":{"n":{"type":"integer"}}}`, `{"n":1e400}`, true},
	{"required", `{"properties":{"a":{}},"required":["a"]}`, `{"b":1}`, false},
	{"required", `{"required":["a"]}`, `{"a":null}`, true},
	{"enum", `{"properties":{"e":{"enum":[1,"x",null]}}}`, `{"e":1.0}`, true},
	{"enum", `{"properties":{"e":{"enum":[{"a":1}]}}}`, `{"e":{"a":1}}`, true},
	{"enum", `{"properties":{"e":{"enum":[false]}}}`, `{"e":0}`, false},
	{"items", `{"properties":{"l":{"type":"array","items":{"type":"string"}}}}`, `{"l":["a",1]}`, false},
	{"additionalProperties", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, false},
	{"additionalProperties", `{"properties":{"a":{}},"additionalProperties":{"type":"boolean"}}`, `{"a":1,"b":true}`, true},
	{"additionalProperties", `{"properties":{"a":{}},"additionalProperties":{"type":"boolean"}}`, `{"b":"yes"}`, false},
	// ref.json, defs.json (draft-07's definitions: tests/draft7/definitions.json)
	{"ref", `{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}`, `{"a":"1"}`, false},
	{"ref", `{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}`, `{"a":1}`, true},
	{"ref", `{"definitions":{"n":{"minimum":3}},"properties":{"a":{"$ref":"#/definitions/n"}}}`, `{"a":2}`, false},
	{"ref", `{"properties":{"a":{"type":"object","properties":{"a":{"$ref":"#/properties/a"}},"additionalProperties":false}}}`, `{"a":{"a":{"b":1}}}`, false},
	{"ref", `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s","maxLength":2}}}`, `{"a":"abc"}`, false},
	// anyOf.json, oneOf.json, allOf.json, not.json
	{"anyOf", `{"properties":{"o":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`, `{"o":null}`, true},
	{"anyOf", `{"properties":{"o":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`, `{"o":"5"}`, false},
	{"anyOf", `{"properties":{"o":{"anyOf":[{"type":"string","maxLength":2},{"type":"string","pattern":"^x"}]}}}`, `{"o":"xyz"}`, true},
	{"oneOf", `{"properties":{"o":{"oneOf":[{"type":"integer"},{"minimum":2}]}}}`, `{"o":3}`, false},
	{"oneOf", `{"properties":{"o":{"oneOf":[{"type":"integer"},{"minimum":2}]}}}`, `{"o":2.5}`, true},
	{"oneOf", `{"properties":{"o":{"oneOf":[{"type":"integer"},{"minimum":2}]}}}`, `{"o":1.5}`, false},
	{"allOf", `{"allOf":[{"required":["a"]},{"required":["b"]}]}`, `{"a":1}`, false},
	{"not", `{"properties":{"x":{"not":{"type":"string"}}}}`, `{"x":"s"}`, false},
	{"not", `{"properties":{"x":{"not":{"type":"string"}}}}`, `{"x":1}`, true},
	{"const", `{"properties":{"c":{"const":"on"}}}`, `{"c":"off"}`, false},
	// pattern.json, minLength.json, maxLength.json, format (optional/format/date.json)
	{"pattern", `{"properties":{"p":{"pattern":"^[a-z]+$"}}}`, `{"p":"abc"}`, true},
	{"pattern", `{"properties":{"p":{"pattern":"^[a-z]+$"}}}`, `{"p":"aBc"}`, false},
	{"pattern", `{"properties":{"p":{"pattern":"^[a-z]+$"}}}`, `{"p":12}`, true},
	{"minLength", `{"properties":{"s":{"minLength":2}}}`, `{"s":"é"}`, false},
	{"maxLength", `{"properties":{"s":{"maxLength":2}}}`, `{"s":"éé"}`, true},
	{"format", `{"properties":{"d":{"format":"date"}}}`, `{"d":"2024-02-30"}`, false},
	// minimum.json, maximum.json, exclusiveMinimum.json, multipleOf.json
	{"minimum", `{"properties":{"n":{"minimum":1.5}}}`, `{"n":1.4}`, false},
	{"maximum", `{"properties":{"n":{"maximum":3}}}`, `{"n":3}`, true},
	{"exclusiveMinimum", `{"properties":{"n":{"exclusiveMinimum":0}}}`, `{"n":0}`, false},
	{"exclusiveMaximum", `{"properties":{"n":{"exclusiveMaximum":10}}}`, `{"n":9.99}`, true},
	{"multipleOf", `{"properties":{"n":{"multipleOf":0.01}}}`, `{"n":19.99}`, true},
	{"multipleOf", `{"properties":{"n":{"multipleOf":2}}}`, `{"n":7}`, false},
	// minItems.json, uniqueItems.json, prefixItems.json, contains.json, items.json
	{"minItems", `{"properties":{"l":{"minItems":1}}}`, `{"l":[]}`, false},
	{"maxItems", `{"properties":{"l":{"maxItems":1}}}`, `{"l":[1,2]}`, false},
	{"uniqueItems", `{"properties":{"l":{"uniqueItems":true}}}`, `{"l":[1,1.0]}`, false},
	{"uniqueItems", `{"properties":{"l":{"uniqueItems":true}}}`, `{"l":[{"a":1},{"a":2}]}`, true},
	{"prefixItems", `{"properties":{"t":{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}}}`, `{"t":["a",1,2]}`, false},
	{"prefixItems", `{"properties":{"t":{"prefixItems":[{"type":"string"},{"type":"integer"}]}}}`, `{"t":["a",1,2]}`, true},
	{"contains", `{"properties":{"l":{"contains":{"const":"x"},"minContains":2}}}`, `{"l":["x","y"]}`, false},
	// patternProperties.json, propertyNames.json, min/maxProperties.json
	{"patternProperties", `{"patternProperties":{"^n_":{"type":"number"}},"additionalProperties":false}`, `{"n_a":1,"n_b":"2"}`, false},
	{"patternProperties", `{"patternProperties":{"^n_":{"type":"number"}},"additionalProperties":false}`, `{"n_a":1,"x":2}`, false},
	{"propertyNames", `{"propertyNames":{"maxLength":3}}`, `{"abcd":1}`, false},
	{"minProperties", `{"minProperties":1}`, `{}`, false},
	{"maxProperties", `{"maxProperties":1}`, `{"a":1,"b":2}`, false},
	// dependentRequired.json, dependentSchemas.json, if-then-else.json
	{"dependentRequired", `{"dependentRequired":{"card":["cvv"]}}`, `{"card":"4111"}`, false},
	{"dependentRequired", `{"dependentRequired":{"card":["cvv"]}}`, `{"cvv":"123"}`, true},
	{"dependentSchemas", `{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"a":1}`, false},
	{"if-then-else", `{"if":{"properties":{"k":{"const":"file"}}},"then":{"required":["path"]},"else":{"required":["url"]}}`, `{"k":"file","url":"x"}`, false},
	{"if-then-else", `{"if":{"properties":{"k":{"const":"file"}}},"then":{"required":["path"]},"else":{"required":["url"]}}`, `{"k":"web","url":"x"}`, true},
	// unevaluatedProperties.json
	{"unevaluatedProperties", `{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`, `{"a":1}`, true},
	{"unevaluatedProperties", `{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`, `{"a":1,"b":2}`, false},
	// draft-07 as written, without "$schema" (tests/draft7/dependencies.json, additionalItems.json)
	{"draft7", `{"dependencies":{"a":["b"]}}`, `{"a":1}`, false},
	{"draft7", `{"properties":{"t":{"items":[{"type":"string"}],"additionalItems":false}}}`, `{"t":["a","b"]}`, false},
	{"draft7", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"t":{"items":[{"type":"string"}]}}}`, `{"t":["a",2]}`, true},
	// draft 2019-09's $recursiveRef (tests/draft2019-09/recursiveRef.json)
	{"draft2019", `{"$recursiveAnchor":true,"properties":{"n":{"type":"integer"},"kid":{"$recursiveRef":"#"}}}`, `{"kid":{"kid":{"n":"x"}}}`, false},
	{"draft2019", `{"$recursiveAnchor":true,"properties":{"n":{"type":"integer"},"kid":{"$recursiveRef":"#"}}}`, `{"kid":{"kid":{"n":1}}}`, true},
	// draft-04's boolean exclusiveMinimum (tests/draft4/minimum.json)
	{"draft4", `{"properties":{"n":{"minimum":5,"exclusiveMinimum":true}}}`, `{"n":5}`, false},
	{"draft4", `{"properties":{"n":{"minimum":5,"exclusiveMinimum":true}}}`, `{"n":5.5}`, true},
}

// TestDifferential runs each pair through Set.Validate (on the fast path and
// on the engine, where the fast path takes the schema) and through the engine
// directly, set up as the package sets it up (formats asserted), and expects
// the verdict of the test suite from each.
func TestDifferential(t *testing.T) {
	fast := 0
	for i, c := range differential {
		t.Run(fmt.Sprintf("%02d-%s", i, c.group), func(t *testing.T) {
			set, err := Load([]byte(`[{"name":"t","parameters":` + c.schema + `}]`))
			if err != nil {
				t.Fatal(err)
			}
			tool, _ := set.Lookup("t")
			verdict := func() bool { return len(set.Validate("t", []byte(c.instance))) == 0 }
			if tool.plain != nil {
				fast++
				if got := verdict(); got != c.valid {
					t.Errorf("fast path: valid = %v, want %v (%v)", got, c.valid, set.Validate("t", []byte(c.instance)))
				}
			}
			fastPath = false
			got := verdict()
			fastPath = true
			if got != c.valid {
				t.Errorf("Set.Validate: valid = %v, want %v", got, c.valid)
			}
			if direct := engineVerdict(t, c.schema, c.instance); direct != c.valid {
				t.Errorf("engine directly: valid = %v, want %v", direct, c.valid)
			}
		})
	}
	if fast == 0 {
		t.Error("no case took the fast path")
	}
}

// engineVerdict validates with the engine alone.
func engineVerdict(t *testing.T, schema, instance string) bool {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("mem:///case.json", doc); err != nil {
		t.Fatal(err)
	}
	if m, ok := doc.(map[string]any); ok && m["$schema"] == nil {
		if d, err := chooseDraft(doc); err == nil {
			c.DefaultDraft(d) // draft-07 or -04 keywords without "$schema": as the package reads them
		}
	}
	sch, err := c.Compile("mem:///case.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(v) == nil
}

// TestFastPathSameWords holds the fast path to the engine's problems, word
// for word and in order, on schemas it takes.
func TestFastPathSameWords(t *testing.T) {
	set, err := LoadFile("../testdata/schemas/openai.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tool, args string }{
		{"read_file", `{"path":"a","limit":3}`},
		{"read_file", `{"path":"a","limit":3.5}`},
		{"read_file", `{"limit":"x"}`},
		{"read_file", `{"path":"a","path":3}`},
		{"search", `{"query":"q","paths":"src"}`},
		{"search", `{"query":"q","paths":[1,"a",{"k":[1]}]}`},
		{"search", `{"query":"q","max_results":"ten","regex":"yes"}`},
		{"search", `{"query":null,"max_results":12345678901234567890123}`},
		{"set_mode", `{"mode":"fast","options":{"depth":"deep","verbose":1}}`},
		{"set_mode", `{"mode":"slow","options":{"x":1,"y":2},"z":3}`},
		{"set_mode", `{"options":"{}","mode":"careful"}`},
		{"set_mode", `{"mode":"a very long mode name that goes past forty bytes, clipped"}`},
	} {
		tool, _ := set.Lookup(c.tool)
		if tool.plain == nil {
			t.Fatalf("%s is not on the fast path", c.tool)
		}
		fast := set.Validate(c.tool, []byte(c.args))
		fastPath = false
		engine := set.Validate(c.tool, []byte(c.args))
		fastPath = true
		if d := cmp.Diff(engine, fast); d != "" {
			t.Errorf("%s %s: fast path differs from the engine (-engine +fast):\n%s", c.tool, c.args, d)
		}
	}
}

// FuzzFastPath holds the fast path to the engine's problems on any
// arguments, and conversion to valid JSON.
func FuzzFastPath(f *testing.F) {
	set, err := LoadFile("../testdata/schemas/openai.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{"path":"a","limit":3}`, `{"query":"q","max_results":null,"paths":["a",1]}`,
		`{"mode":"f\u0061st","options":{"depth":1e400,"x":-0}}`, `{"path":"a","path":1}`, `{}`,
		`{"query":"7","max_results":"12","regex":"true","paths":"[1, [2]]"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		for _, tool := range set.Tools {
			fast := set.Validate(tool.Name, []byte(args))
			fastPath = false
			engine := set.Validate(tool.Name, []byte(args))
			fastPath = true
			if d := cmp.Diff(engine, fast); d != "" {
				t.Fatalf("%s %s: fast path differs from the engine (-engine +fast):\n%s", tool.Name, args, d)
			}
			out, _ := set.Convert(tool.Name, []byte(args))
			if ok, _, _ := checkJSON([]byte(args), 1<<20); ok && kindOf([]byte(args)) == '{' {
				if ok, _, msg := checkJSON(out, 1<<20); !ok {
					t.Fatalf("%s %s: converted to invalid JSON %s: %s", tool.Name, args, out, msg)
				}
			}
		}
	})
}

// TestIsIntegral holds the fast path's reading of numbers to exact arithmetic.
func TestIsIntegral(t *testing.T) {
	for _, n := range []string{"0", "-0", "7", "-12", "1.0", "1.5", "0.5", "1.5e1", "1.25e1", "100e-2", "120e-1", "12e-1",
		"0e-7", "0.000", "1E+2", "1e400", "-3.000e0", "10.10e1", "5e-1", "50e-1", "0.05e2", "0.005e2"} {
		r, ok := new(big.Rat).SetString(n)
		if !ok {
			t.Fatalf("%s is no number", n)
		}
		if got := isIntegral([]byte(n)); got != r.IsInt() {
			t.Errorf("isIntegral(%s) = %v, want %v", n, got, r.IsInt())
		}
	}
}
