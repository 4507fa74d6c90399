package hy_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/hy"
)

func Example() {
	input := "Checking.<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n" +
		"<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Beijing</arg_value:opensource>\n" +
		"</tool_call:opensource>\n</tool_calls:opensource>"
	for _, e := range syntax.Parse(hy.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"get_weather","args":{"city":"Beijing"}}
	// {"type":"execute"}
	// {"type":"end"}
}
