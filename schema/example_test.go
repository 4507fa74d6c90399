package schema_test

import (
	"fmt"

	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/caret"
)

func Example() {
	set, err := schema.Load([]byte(`[{"name": "read_file", "input_schema": {"type": "object",
		"properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["path"]}}]`))
	if err != nil {
		panic(err)
	}
	// Caret values are strings: the schema converts "10" to 10, and flags "ten".
	h := set.Check(func(e syntax.Event) { fmt.Println(e) })
	p := caret.Syntax.New(h, syntax.Options{MultipleBlocks: true})
	p.Write([]byte("^^^read_file\npath: a.txt\nlimit: 10\n^^^\n^^^read_file\nlimit: ten\n^^^\n"))
	p.Close()
	// Output:
	// {"type":"call","name":"read_file","args":{"path":"a.txt","limit":10}}
	// {"type":"execute"}
	// {"type":"call","name":"read_file","args":{"limit":"ten"},"invalid":"argument \"limit\": expected integer, got string \"ten\"; argument \"path\": missing (required)"}
	// {"type":"error","code":"schema","message":"call \"read_file\" does not fit its schema: argument \"limit\": expected integer, got string \"ten\"; argument \"path\": missing (required)","offset":39,"line":5,"column":1}
	// {"type":"execute"}
	// {"type":"end"}
}

func ExampleSet_Validate() {
	set, err := schema.Load([]byte(`[{"type": "function", "name": "list_dir", "parameters": {"type": "object",
		"$defs": {"Depth": {"type": "integer", "minimum": 0, "maximum": 5}},
		"properties": {"path": {"type": "string", "pattern": "^[^~]"},
			"depth": {"anyOf": [{"$ref": "#/$defs/Depth"}, {"type": "null"}]}},
		"required": ["path"], "additionalProperties": false}}]`))
	if err != nil {
		panic(err)
	}
	for _, p := range set.Validate("list_dir", []byte(`{"path": "~/src", "depth": 9, "all": true}`)) {
		fmt.Println(p)
	}
	// Output:
	// argument "path": expected a string matching the pattern ^[^~], got "~/src"
	// argument "depth": expected at most 5, got 9
	// argument "all": unknown argument (the schema allows no others)
}

func ExampleSet_Convert() {
	set, err := schema.Load([]byte(`[{"name": "list_dir", "input_schema": {"type": "object", "properties": {
		"depth": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
		"paths": {"type": "array", "items": {"type": "string"}},
		"range": {"type": "object", "properties": {"start": {"type": "integer"}}}}}}]`))
	if err != nil {
		panic(err)
	}
	// The values as caret or xmltag give them: the strings the model wrote.
	args, problems := set.Convert("list_dir", []byte(`{"depth":"2","paths":"src","range":"{\"start\": 3}"}`))
	fmt.Println(string(args), problems)
	// Output:
	// {"depth":2,"paths":["src"],"range":{"start":3}} []
}
