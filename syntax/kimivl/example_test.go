package kimivl_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/kimivl"
)

func Example() {
	input := "◁think▷Let me consider this carefully◁/think▷The answer is 42."
	for _, e := range syntax.Parse(kimivl.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Let me consider this carefully"}
	// {"type":"respond","content":"The answer is 42."}
	// {"type":"end"}
}
