package inkling_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/inkling"
)

func Example() {
	input := `<|content_thinking|>Check the weather.<|end_message|><|message_model|>get_weather<|content_invoke_tool_json|>{"name":"get_weather","args":{"city":"SF"}}<|end_message|>`
	for _, e := range syntax.Parse(inkling.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Check the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"SF"}}
	// {"type":"execute"}
	// {"type":"end"}
}
