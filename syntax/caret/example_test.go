package caret_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/caret"
)

func Example() {
	input := "Reading both.\n^^^read_files\npath: src/main.rs\npath: Cargo.toml\n^^^"
	for _, e := range syntax.Parse(caret.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Reading both."}
	// {"type":"call","name":"read_files","args":{"path":["src/main.rs","Cargo.toml"]}}
	// {"type":"execute"}
	// {"type":"end"}
}
