package functioncall_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/functioncall"
)

func Example() {
	input := `<functioncall>{"name": "get_weather", "arguments": {"city": "Paris"}}`
	for _, e := range syntax.Parse(functioncall.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"execute"}
	// {"type":"end"}
}
