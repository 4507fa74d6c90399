package gigachat_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/gigachat"
)

func Example() {
	input := `Checking.<|function_call|>{"name": "get_weather", "arguments": {"city": "Paris"}}`
	for _, e := range syntax.Parse(gigachat.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"execute"}
	// {"type":"end"}
}
