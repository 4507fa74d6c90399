package toolparse_test

import (
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// Example is the README's program: look a syntax up (auto detects it from
// the input), read an input, and act on its calls.
func Example() {
	s, err := registry.Lookup("auto")
	if err != nil {
		panic(err)
	}
	input := `<think>List the files.</think><execute>[{"name":"ls","args":{"dir":"."}}]</execute>`
	for e, err := range syntax.All(s, strings.NewReader(input), syntax.Options{}) {
		if err != nil {
			panic(err)
		}
		if e.Type == syntax.Call {
			fmt.Printf("call %s %s\n", e.Name, e.Args)
		}
	}
	// Output: call ls {"dir":"."}
}
