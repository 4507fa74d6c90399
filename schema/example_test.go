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
	p := caret.New(h, syntax.Options{MultipleBlocks: true})
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
