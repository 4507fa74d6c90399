package syntaxtest_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

// Check any syntax — a built-in one or your own — against the invariants.
func ExampleCheck() {
	input := []byte("<think>plan</think><execute>[{\"name\": \"ls\"}]</execute>done")
	err := syntaxtest.Check(xmljson.Syntax, input, syntaxtest.Config{})
	fmt.Println(err)
	// Output:
	// <nil>
}
