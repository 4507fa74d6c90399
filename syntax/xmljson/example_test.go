package xmljson_test

import (
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

func Example() {
	p := xmljson.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	for _, chunk := range []string{
		"<think>Read it first</th", "ink>\n<exec",
		`ute>[{"name": "read", "args": {"file": "a </execute> b"}}]</execute>`,
		"\nDone.",
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Read it first"}
	// {"type":"call","name":"read","args":{"file":"a </execute> b"}}
	// {"type":"execute"}
	// {"type":"respond","content":"Done."}
	// {"type":"end"}
}

func Example_errors() {
	input := "<execute>[{\"name\": \"read\" \"args\": {}}]</execute>\nretrying"
	for _, e := range syntax.Parse(xmljson.Syntax, []byte(input), syntax.Options{}) {
		if e.Type == syntax.Error {
			fmt.Printf("%s: %s\n", e.Pos, e.Message)
			continue
		}
		fmt.Println(e.Type, strings.TrimSpace(e.Content))
	}
	// Output:
	// 1:1: <execute> block at 1:27: invalid JSON: invalid character '"' after object key:value pair
	// respond retrying
	// end
}
