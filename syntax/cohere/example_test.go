package cohere_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/cohere"
)

func Example() {
	input := `<|START_THINKING|>Add them.<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "add", "parameters": {"a": 6, "b": 7}}]<|END_ACTION|>`
	for _, e := range syntax.Parse(cohere.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Add them."}
	// {"type":"call","name":"add","args":{"a":6,"b":7},"id":"0"}
	// {"type":"execute"}
	// {"type":"end"}
}
