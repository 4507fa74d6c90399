package nemotron_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/nemotron"
)

func Example() {
	input := `<think>Tokyo, then.</think><TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</TOOLCALL>`
	for _, e := range syntax.Parse(nemotron.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Tokyo, then."}
	// {"type":"call","name":"get_weather","args":{"city":"Tokyo"}}
	// {"type":"execute"}
	// {"type":"end"}
}
