package gemma_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/gemma"
)

func Example() {
	p := gemma.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	// Strings between <|"|> are raw: the backslashes are kept.
	for _, chunk := range []string{
		"<|channel>thought\nOpen the file.<chan", "nel|><|tool_", `call>call:open_file{path:<|"|>C:\users\bob<|`,
		`"|>,lines:[1,20]}<tool_call|>`,
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Open the file."}
	// {"type":"call","name":"open_file","args":{"path":"C:\\users\\bob","lines":[1,20]}}
	// {"type":"execute"}
	// {"type":"end"}
}
