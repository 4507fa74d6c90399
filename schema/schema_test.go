package schema_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/caret"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

func loadFile(t *testing.T, name string) *schema.Set {
	t.Helper()
	s, err := schema.LoadFile(filepath.Join("..", "testdata", "schemas", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func strs(ps []schema.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// The same four tools in every shape the package reads load the same, and
// judge calls the same.
func TestShapesLoadTheSame(t *testing.T) {
	calls := []struct{ tool, args string }{
		{"read_file", `{"path":"a","limit":3}`},
		{"search", `{"query":"q","max_results":null,"paths":["a",1]}`},
		{"search", `{"query":"q","max_results":"7"}`},
		{"set_mode", `{"mode":"slow","options":{"depth":"deep"}}`},
	}
	var first *schema.Set
	var firstProblems [][]string
	for _, f := range []string{"openai.json", "anthropic.json", "mcp.json", "plain.json", "responses.json", "gemini.json"} {
		s := loadFile(t, f)
		if got, want := s.Names(), []string{"read_file", "search", "set_mode", "write_file"}; !cmp.Equal(got, want) {
			t.Fatalf("%s: tools %v, want %v (built-in tools skipped)", f, got, want)
		}
		var problems [][]string
		for _, c := range calls {
			problems = append(problems, strs(s.Validate(c.tool, json.RawMessage(c.args))))
		}
		if first == nil {
			first, firstProblems = s, problems
			continue
		}
		if d := cmp.Diff(first.Tools, s.Tools, cmpopts.IgnoreUnexported(schema.Tool{})); d != "" {
			t.Errorf("%s differs from openai.json:\n%s", f, d)
		}
		if d := cmp.Diff(firstProblems, problems); d != "" {
			t.Errorf("%s judges calls otherwise than openai.json:\n%s", f, d)
		}
	}
	want := [][]string{
		nil,
		{`argument "paths[1]": expected string, got number 1`},
		{`argument "max_results": expected integer or null, got string "7"`},
		{`argument "mode": "slow" is not one of "fast", "careful"`, `argument "options.depth": expected number, got string "deep"`},
	}
	if d := cmp.Diff(want, firstProblems); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

func TestOtherWrappings(t *testing.T) {
	for _, in := range []string{
		`{"functionDeclarations": [{"name": "ls", "parameters": {"type": "OBJECT", "properties": {"n": {"type": "INTEGER"}}}}]}`,
		`{"tools": [{"function_declarations": [{"name": "ls", "parameters": {"type": "OBJECT", "properties": {"n": {"type": "INTEGER"}}}}]}]}`,
		`[{"name": "ls", "parameters": {"type": "OBJECT", "properties": {"n": {"type": "INTEGER"}}}}]`,
		`[{"functionDeclarations": [{"name": "ls", "parametersJsonSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]}]`,
		`{"model": "gpt", "tools": [{"type": "function", "name": "ls", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}]}`,
	} {
		s, err := schema.Load([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		got := strs(s.Validate("ls", json.RawMessage(`{"n":"1"}`)))
		if want := []string{`argument "n": expected integer, got string "1"`}; !cmp.Equal(got, want) {
			t.Errorf("%s: problems %q, want %q", in, got, want)
		}
	}
}

func TestGeminiNullable(t *testing.T) {
	s, err := schema.Load([]byte(`[{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT",
		"properties": {"a": {"type": "STRING", "nullable": true}, "b": {"type": "ARRAY", "items": {"type": "NUMBER", "nullable": true}},
		"c": {"type": "TYPE_UNSPECIFIED"}}}}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, p := range s.Tools[0].Parameters.Properties {
		types = append(types, p.Name+": "+p.Schema.TypeString())
	}
	if want := []string{"a: string or null", "b: array of number or null", "c: any"}; !cmp.Equal(types, want) {
		t.Errorf("types %q, want %q", types, want)
	}
	got := strs(s.Validate("f", json.RawMessage(`{"a":null,"b":[1,null,"x"],"c":{}}`)))
	if want := []string{`argument "b[2]": expected number or null, got string "x"`}; !cmp.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

func TestLoadErrors(t *testing.T) {
	tool := func(params string) string { return `[{"name": "t", "parameters": ` + params + `}]` }
	for _, c := range []struct{ in, want string }{
		{`{"tools": 3`, "tool definitions are not valid JSON: unexpected end of JSON input"},
		{`{"nope": []}`, `tool definitions: an object must hold a "tools" array (an MCP tools/list result) or "functionDeclarations" (a Gemini tool)`},
		{`"tools"`, "tool definitions must be an array of tools (OpenAI, Anthropic, Gemini or plain) or an MCP tools/list result"},
		{`[3]`, "tool 1: is a number, not an object"},
		{`[{"description": "x"}]`, `tool 1: has no name (expected "name", or "function": {"name"} for OpenAI Chat tools)`},
		{`[{"type": "function", "function": {"description": "no name here"}}]`, `tool 1: has no name (expected "name", or "function": {"name"} for OpenAI Chat tools)`},
		{`[{"name": "a"}, {"name": "a"}]`, `tool 2: the name "a" is defined twice`},
		{`[{"functionDeclarations": [{"name": "a"}, {"name": "b", "parameters": {"type": "OBJEKT"}}]}]`, `tool 1, declaration 2: b: parameters.type: unknown type "OBJEKT"`},
		{`[{"functionDeclarations": {"name": "a"}}]`, `tool 1: functionDeclarations must be an array`},
		{tool(`{"type": "strnig"}`), `tool 1: t: parameters.type: unknown type "strnig"`},
		{tool(`{"properties": {"x": {"type": 5}}}`), `tool 1: t: parameters.properties.x.type: must be a type name or a list of them`},
		{tool(`{"properties": {"x": {"items": 3}}}`), `tool 1: t: parameters.properties.x.items: a schema must be an object or a boolean, not a number`},
		{tool(`{"properties": {"x": {"minimum": "3"}}}`), `tool 1: t: not a valid JSON Schema: parameters.properties.x.minimum: expected number, got string "3"`},
		{tool(`{"properties": {"x": {"pattern": "(["}}}`), "tool 1: t: not a valid JSON Schema: parameters.properties.x.pattern: expected a valid regex, got \"([\" (error parsing regexp: missing closing ]: `[`)"},
		{tool(`{"properties": {"x": {"$ref": "#/$defs/nope"}}}`), `tool 1: t: parameters: $ref to #/$defs/nope, which the schema does not have`},
		{tool(`{"properties": {"x": {"$ref": "#here"}}}`), `tool 1: t: parameters: $ref to #here, an anchor the schema does not have`},
		{tool(`{"properties": {"x": {"$ref": "https://example.com/x.json"}}}`), `tool 1: t: parameters: refers to "https://example.com/x.json", outside the tool's schema (remote schemas are never fetched)`},
		{tool(`{"properties": {"x": {"$ref": "x.json"}}}`), `tool 1: t: parameters: refers to "toolparse:///x.json", outside the tool's schema (remote schemas are never fetched)`},
		{tool(`{"$schema": "https://example.com/meta"}`), `tool 1: t: parameters: refers to "https://example.com/meta", outside the tool's schema (remote schemas are never fetched)`},
		{tool(`{"$schema": "https://json-schema.org/draft/2099-01/schema"}`), `tool 1: t: parameters: unknown $schema "https://json-schema.org/draft/2099-01/schema"`},
		{tool(`{"properties": {"x": {"items": [{}], "prefixItems": [{}]}}}`), `tool 1: t: parameters: mixes draft-07 keywords (items (an array)) with later drafts' keywords (prefixItems); say which draft with "$schema"`},
		{tool(`{"$defs": {"a": {"$recursiveAnchor": true}}, "properties": {"x": {"$dynamicRef": "#a"}}}`), `tool 1: t: parameters: mixes draft 2019-09 keywords ($recursiveAnchor) with draft 2020-12 keywords ($dynamicRef); say which draft with "$schema"`},
	} {
		_, err := schema.Load([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("Load(%s)\n got: %v\nwant: %s", c.in, err, c.want)
		}
	}
	if _, err := schema.LoadFile(filepath.Join("no", "such.json")); err == nil {
		t.Error("a missing file loaded")
	}
}

// A schema's summary (for prompts) folds in $ref, allOf and anyOf with null.
func TestSummary(t *testing.T) {
	s := loadFile(t, "rich.json")
	got := map[string]string{}
	for _, tool := range s.Tools {
		for _, p := range tool.Parameters.Properties {
			got[tool.Name+"."+p.Name] = p.Schema.TypeString()
		}
	}
	want := map[string]string{
		"edit_file.path": "string", "edit_file.range": "object", "edit_file.text": "string",
		"list_dir.path": "string", "list_dir.depth": "integer or null", "list_dir.hidden": "boolean or null",
		"notify.to": "object", "notify.message": "string",
		"create_branch.name": "string", "create_branch.from": "string",
		"resize.width": "integer", "resize.height": "integer", "resize.scale": "number", "resize.tags": "array of string",
		"set_flags.flags": "object", "set_flags.scope": "any",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	edit, _ := s.Lookup("edit_file")
	rng := edit.Parameters.Properties[1].Schema
	if d := cmp.Diff([]string{"start", "end"}, rng.Required); d != "" {
		t.Errorf("range required: %s", d)
	}
	if recursive, err := schema.Load([]byte(`[{"name": "tree", "parameters": {"$defs": {"node": {"type": "object",
		"properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}, "$ref": "#/$defs/node"}}]`)); err != nil {
		t.Error(err)
	} else if got := recursive.Tools[0].Parameters.Properties[0].Schema.TypeString(); got != "array of object" {
		t.Errorf("recursive schema: kids is %q", got)
	}
}

func TestValidate(t *testing.T) {
	s := loadFile(t, "rich.json")
	for _, c := range []struct {
		tool, args string
		want       []string
	}{
		{"edit_file", `{"path":"a","range":{"start":1,"end":2},"text":""}`, nil},
		{"edit_file", `{"path":"a","range":{"start":0,"stop":2},"text":""}`, []string{
			`argument "range.start": expected at least 1, got 0`,
			`argument "range.stop": unknown argument (the schema allows no others)`,
			`argument "range.end": missing (required)`}},
		{"edit_file", `{"range":"1-2"}`, []string{
			`argument "range": expected object, got string "1-2"`,
			`argument "path": missing (required)`,
			`argument "text": missing (required)`}},
		{"list_dir", `{"path":".","depth":null,"hidden":true}`, nil},
		{"list_dir", `{"path":".","depth":9,"hidden":"no"}`, []string{
			`argument "depth": expected at most 5, got 9`,
			`argument "hidden": expected boolean or null, got string "no"`}},
		{"list_dir", `{"path":".","depth":"2"}`, []string{`argument "depth": expected integer or null, got string "2"`}},
		{"notify", `{"to":{"sms":"+4912345678"},"message":"hi"}`, nil},
		{"notify", `{"to":{"email":"someone"},"message":""}`, []string{
			`argument "to": fits none of the allowed forms: (1) "email": expected a valid email, got "someone" (missing @); (2) "email": unknown argument (the schema allows no others), "sms": missing (required)`,
			`argument "message": expected at least 1 character, got 0: ""`}},
		{"notify", `{"to":"someone@example.com","message":"hi"}`, []string{`argument "to": expected object, got string "someone@example.com"`}},
		{"create_branch", `{"name":"fix-17"}`, nil},
		{"create_branch", `{"name":"Fix 17"}`, []string{`argument "name": expected a string matching the pattern ^[a-z0-9][a-z0-9-]*$, got "Fix 17"`}},
		{"resize", `{"width":800,"height":600,"scale":0.5,"tags":["a","b"]}`, nil},
		{"resize", `{"width":0,"height":5000,"scale":0,"tags":[]}`, []string{
			`argument "width": expected at least 1, got 0`,
			`argument "height": expected at most 4096, got 5000`,
			`argument "scale": expected more than 0, got 0`,
			`argument "tags": expected at least 1 item, got 0`}},
		{"resize", `{"width":1.5,"height":1,"tags":["a","b","a","c"]}`, []string{
			`argument "width": expected integer, got number 1.5`,
			`argument "tags": expected at most 3 items, got 4`,
			`argument "tags": items 0 and 2 are equal; the items must be unique`}},
		{"set_flags", `{"flags":{"beta":true},"scope":"user"}`, nil},
		{"set_flags", `{"flags":{"beta":"yes"},"scope":"team","force":true}`, []string{
			`argument "flags.beta": expected boolean, got string "yes"`,
			`argument "scope": "team" is not one of "user", "project"`,
			`argument "force": unknown argument (the schema allows no others)`}},
		{"nope", `{}`, []string{`unknown tool "nope" (known: create_branch, edit_file, list_dir, notify, resize, set_flags)`}},
		{"resize", `{"width":1,`, []string{`the arguments are not valid JSON: unexpected end of JSON input`}},
		{"resize", `[1]`, []string{`the arguments must be an object, not an array`}},
		// exact arithmetic on such numbers would cost tens of milliseconds each
		{"resize", `{"width":1e999999,"height":1,"tags":["a",-2.5E-1001,{"x":1e1000}]}`, []string{
			`argument "width": expected a number with an exponent of at most 1000, got 1e999999`,
			`argument "tags[1]": expected a number with an exponent of at most 1000, got -2.5E-1001`}},
		{"resize", `{"width":1e3,"height":1.5e1,"scale":1e-1000,"tags":["e1001","E"]}`, nil},
	} {
		got := strs(s.Validate(c.tool, json.RawMessage(c.args)))
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", c.tool, c.args, d)
		}
	}
}

func TestValidateDepth(t *testing.T) {
	s := loadFile(t, "plain.json")
	deep := `{"path":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`
	got := strs(s.Validate("read_file", json.RawMessage(deep)))
	if want := []string{"the arguments nest deeper than 512 levels"}; !cmp.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
	s.MaxDepth = 1000
	got = strs(s.Validate("read_file", json.RawMessage(deep)))
	if want := []string{`argument "path": expected string, got array [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…`}; !cmp.Equal(got, want) {
		t.Errorf("with MaxDepth 1000: problems %q, want %q", got, want)
	}
}

func TestConvert(t *testing.T) {
	s := loadFile(t, "rich.json")
	plain := loadFile(t, "openai.json")
	arrays, err := schema.Load([]byte(`[{"name": "f", "parameters": {"$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
		"properties": {"ids": {"type": "array", "items": {"type": "integer"}},
		"grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}, "tree": {"$ref": "#/$defs/tree"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		set            *schema.Set
		tool, in, want string
		problems       []string
	}{
		// type unions and anyOf with null, through $ref
		{plain, "search", `{"query":"12","max_results":"7","regex":"true","paths":"a"}`, `{"query":"12","max_results":7,"regex":true,"paths":["a"]}`, nil},
		{plain, "search", `{"query":"q","max_results":"null","paths":["a","b"]}`, `{"query":"q","max_results":null,"paths":["a","b"]}`, nil},
		{plain, "search", `{"query":"q","max_results":"7.5","regex":"TRUE"}`, `{"query":"q","max_results":"7.5","regex":"TRUE"}`, nil},
		{s, "list_dir", `{"path":"12","depth":"2","hidden":"null"}`, `{"path":"12","depth":2,"hidden":null}`, nil},
		{s, "list_dir", `{"path":"x","depth":"9"}`, `{"path":"x","depth":9}`, nil}, // read, though too deep: Validate says so
		{s, "list_dir", `{"path":"x","depth":"two"}`, `{"path":"x","depth":"two"}`, nil},
		// objects written as JSON, through $ref and oneOf; their strings stay strings
		{s, "edit_file", `{"path":"a","range":"{\"start\": 3, \"end\": 4}","text":"5"}`, `{"path":"a","range":{"start":3,"end":4},"text":"5"}`, nil},
		{s, "notify", `{"to":"{\"sms\": \"+4912345678\"}","message":"7"}`, `{"to":{"sms":"+4912345678"},"message":"7"}`, nil},
		{s, "set_flags", `{"flags":"{\"beta\": \"true\"}"}`, `{"flags":{"beta":"true"}}`, nil},
		{plain, "set_mode", `{"mode":"fast","options":"not json"}`, `{"mode":"fast","options":"not json"}`, nil},
		// Python's spellings: True, False, None, and objects and arrays written as Python literals
		{plain, "search", `{"query":"q","max_results":"None","regex":"True"}`, `{"query":"q","max_results":null,"regex":true}`, nil},
		{s, "edit_file", `{"path":"a","range":"{'start': 3, 'end': 4,}"}`, `{"path":"a","range":{"start":3,"end":4}}`, nil},
		{arrays, "f", `{"grid":"[[1], (2, 3)]"}`, `{"grid":[[1],[2,3]]}`, nil},
		{plain, "set_mode", `{"mode":"fast","options":"{'a': b}"}`, `{"mode":"fast","options":"{'a': b}"}`, nil}, // a name: no literal, left a string
		// arrays: items converted, a single value becomes one item, JSON text taken as written
		{s, "resize", `{"width":"800","height":"600","scale":"0.5","tags":["1","2"]}`, `{"width":800,"height":600,"scale":0.5,"tags":["1","2"]}`, nil},
		{s, "resize", `{"width":"+1","height":"012","tags":"x"}`, `{"width":"+1","height":12,"tags":["x"]}`, nil},              // a leading zero is read as peers read it; a plus sign is not
		{s, "resize", `{"height":"0` + strings.Repeat("9", 400) + `"}`, `{"height":"0` + strings.Repeat("9", 400) + `"}`, nil}, // leading zeros and no float64 reads it: left a string
		{s, "edit_file", `{"path":"a","range":"3"}`, `{"path":"a","range":"3"}`, nil},                                          // neither JSON nor a single item: left as it is
		{arrays, "f", `{"ids":"7","grid":"7","tree":"x"}`, `{"ids":[7],"grid":[[7]],"tree":"x"}`, nil},
		{arrays, "f", `{"ids":"seven","grid":"[[1], [2, 3]]"}`, `{"ids":"seven","grid":[[1],[2,3]]}`, nil},
		// nesting: the arguments (one level) and the JSON in the string together at most MaxDepth
		{plain, "search", `{"query":"q","paths":"` + deep(511) + `"}`, `{"query":"q","paths":` + deep(511) + `}`, nil},
		{plain, "search", `{"query":"q","paths":"` + deep(512) + `"}`, `{"query":"q","paths":"` + deep(512) + `"}`,
			[]string{`argument "paths": the JSON in this string nests deeper than the arguments may (512 levels): it was not read`}},
		{plain, "unknown", `{"a":"1"}`, `{"a":"1"}`, nil},
		{plain, "set_mode", `{"mode":"fast","options":"{\"depth\": 1e999999}"}`, `{"mode":"fast","options":{"depth":1e999999}}`, nil},
	} {
		got, ps := c.set.Convert(c.tool, json.RawMessage(c.in))
		if string(got) != c.want {
			t.Errorf("Convert(%.80s)\n got: %.120s\nwant: %.120s", c.in, got, c.want)
		}
		if d := cmp.Diff(c.problems, strs(ps)); d != "" {
			t.Errorf("Convert(%.80s): problems (-want +got):\n%s", c.in, d)
		}
	}
}

func TestConvertEnumConstAndOrder(t *testing.T) {
	s, err := schema.Load([]byte(`[{"name": "f", "parameters": {"properties": {
		"e": {"enum": [1, 2, "three"]}, "c": {"const": true},
		"s": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
		"i": {"anyOf": [{"type": "integer", "minimum": 10}, {"type": "string", "pattern": "^#"}]},
		"one": {"oneOf": [{"type": "boolean"}, {"type": "array", "items": {"type": "integer"}}]}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		`{"e":"2","c":"true"}`:  `{"e":2,"c":true}`,
		`{"e":"three"}`:         `{"e":"three"}`,
		`{"s":"5"}`:             `{"s":"5"}`, // a string the schema accepts stays a string
		`{"i":"12","one":"3"}`:  `{"i":12,"one":[3]}`,
		`{"i":"#5","one":"no"}`: `{"i":"#5","one":"no"}`, // "no" is no boolean, nor an integer item
		`{"i":"5"}`:             `{"i":5}`,               // read as 5 though below the minimum: the problem is about 5
	} {
		if got, _ := s.Convert("f", json.RawMessage(in)); string(got) != want {
			t.Errorf("Convert(%s) = %s, want %s", in, got, want)
		}
	}
}

// Check converts per call: caret calls (Strings) are converted, xmljson
// calls are not; every problem is an error event with code schema after its
// call, which is still passed on.
func TestCheck(t *testing.T) {
	s := loadFile(t, "rich.json")
	run := func(syn syntax.Syntax, opts syntax.Options, in string) []string {
		var got []string
		h := s.Check(func(e syntax.Event) {
			// ls is no known tool: not converted, its values stay the strings written
			if e.Type == syntax.Call && e.Strings && e.Name != "ls" {
				t.Errorf("%s: a checked call still says its values are strings", syn.Name)
			}
			got = append(got, e.String())
		})
		p := syn.New(h, opts)
		p.Write([]byte(in))
		p.Close()
		return got
	}
	got := run(caret.Syntax, syntax.Options{MultipleBlocks: true}, "^^^list_dir\npath: src\ndepth: 2\nhidden: null\n^^^\n^^^resize\nwidth: 0\nheight: big\n^^^\n^^^ls\n^^^\n")
	want := []string{
		`{"type":"call","name":"list_dir","args":{"path":"src","depth":2,"hidden":null}}`,
		`{"type":"execute"}`,
		`{"type":"call","name":"resize","args":{"width":0,"height":"big"},"invalid":"argument \"width\": expected at least 1, got 0; argument \"height\": expected integer, got string \"big\""}`,
		`{"type":"error","code":"schema","message":"call \"resize\" does not fit its schema: argument \"width\": expected at least 1, got 0; argument \"height\": expected integer, got string \"big\"","offset":48,"line":6,"column":1}`,
		`{"type":"execute"}`,
		`{"type":"call","name":"ls","args":{},"invalid":"unknown tool \"ls\" (known: create_branch, edit_file, list_dir, notify, resize, set_flags)"}`,
		`{"type":"error","code":"schema","message":"call \"ls\" does not fit its schema: unknown tool \"ls\" (known: create_branch, edit_file, list_dir, notify, resize, set_flags)","offset":83,"line":10,"column":1}`,
		`{"type":"execute"}`,
		`{"type":"end"}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("caret (-want +got):\n%s", d)
	}
	got = run(xmljson.Syntax, syntax.Options{}, `<execute>[{"name":"list_dir","id":"c1","args":{"path":"src","depth":"2"}}]</execute>`)
	want = []string{
		`{"type":"call","name":"list_dir","args":{"path":"src","depth":"2"},"id":"c1","invalid":"argument \"depth\": expected integer or null, got string \"2\""}`,
		`{"type":"error","code":"schema","message":"call \"list_dir\" (c1) does not fit its schema: argument \"depth\": expected integer or null, got string \"2\"","offset":10,"line":1,"column":11}`,
		`{"type":"execute"}`,
		`{"type":"end"}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("xmljson (-want +got):\n%s", d)
	}
}

// Conversion is decided per call, whatever way the syntax was chosen: under
// auto, a caret block's values are converted and an xmljson call's are not.
func TestCheckUnderAuto(t *testing.T) {
	s := loadFile(t, "plain.json")
	auto, err := registry.Lookup("auto")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string][]string{
		"Reading it.\n^^^read_file\npath: a.txt\nlimit: 10\n^^^\n": {
			`{"type":"respond","content":"Reading it."}`,
			`{"type":"call","name":"read_file","args":{"path":"a.txt","limit":10}}`,
			`{"type":"execute"}`,
			`{"type":"end"}`,
		},
		`<execute>[{"name": "read_file", "args": {"path": "a.txt", "limit": "10"}}]</execute>`: {
			`{"type":"call","name":"read_file","args":{"path":"a.txt","limit":"10"},"invalid":"argument \"limit\": expected integer, got string \"10\""}`,
			`{"type":"error","code":"schema","message":"call \"read_file\" does not fit its schema: argument \"limit\": expected integer, got string \"10\"","offset":10,"line":1,"column":11}`,
			`{"type":"execute"}`,
			`{"type":"end"}`,
		},
	} {
		var got []string
		p := auto.New(s.Check(func(e syntax.Event) { got = append(got, e.String()) }), syntax.Options{})
		p.Write([]byte(in))
		p.Close()
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", in, d)
		}
	}
}

// A Set is safe for concurrent use once loaded.
func TestConcurrentUse(t *testing.T) {
	s := loadFile(t, "rich.json")
	want := strs(s.Validate("notify", json.RawMessage(`{"to":{"email":"x"},"message":""}`)))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if got := strs(s.Validate("notify", json.RawMessage(`{"to":{"email":"x"},"message":""}`))); !cmp.Equal(got, want) {
					t.Errorf("problems %q, want %q", got, want)
					return
				}
				if got, _ := s.Convert("list_dir", json.RawMessage(`{"path":"a","depth":"3"}`)); string(got) != `{"path":"a","depth":3}` {
					t.Errorf("converted to %s", got)
					return
				}
			}
		}()
	}
	wg.Wait()
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
	if got, want := set.Validate("ls", json.RawMessage(`{}`)), []schema.Problem{{Path: "path", Msg: "missing (required)"}}; !cmp.Equal(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	if _, err := schema.FromValue(func() {}); err == nil {
		t.Error("a func was accepted")
	}
}

// TestConvertRecursiveSchema: schemas that lead back to themselves through
// "$ref" — a JSON value, a tree whose nodes are one of several forms — are
// legal and common; converting under them ended in a stack overflow that
// killed the process. Each schema's readings are now listed once.
func TestConvertRecursiveSchema(t *testing.T) {
	set, err := schema.Load([]byte(`[{"name":"put","parameters":{"type":"object","$defs":{
		"json":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"array","items":{"$ref":"#/$defs/json"}},{"type":"object","additionalProperties":{"$ref":"#/$defs/json"}},{"$ref":"#/$defs/node"}]},
		"node":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"oneOf":[{"$ref":"#/$defs/leaf"},{"required":["kids"]}]},
		"leaf":{"anyOf":[{"$ref":"#/$defs/node"},{"required":["v"]}]}},
		"properties":{"n":{"$ref":"#/$defs/node"},"j":{"$ref":"#/$defs/json"},"k":{"$ref":"#/$defs/leaf"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"n":"{\"v\":5}","j":"7","k":"{\"v\":1}"}`, `{"n":{"v":5},"j":"7","k":"{\"v\":1}"}`}, // a string fits leaf's second branch
		{`{"n":{"v":"5","kids":["{\"v\":2}"]}}`, `{"n":{"v":5,"kids":[{"v":2}]}}`},
		{`{"n":"x"}`, `{"n":"x"}`},
	} {
		got, _ := set.Convert("put", json.RawMessage(c.in))
		if string(got) != c.want {
			t.Errorf("Convert(%s) = %s, want %s", c.in, got, c.want)
		}
		set.Validate("put", got) // the engine's answer, whatever it is; it must return
	}
}
