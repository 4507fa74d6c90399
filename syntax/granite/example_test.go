package granite_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/granite"
)

func Example() {
	input := `<|tool_call|>[{"arguments": {"city": "Tokyo"}, "name": "get_weather"}]`
	for _, e := range syntax.Parse(granite.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"call","name":"get_weather","args":{"city":"Tokyo"}}
	// {"type":"execute"}
	// {"type":"end"}
}
