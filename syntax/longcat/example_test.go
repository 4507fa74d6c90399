package longcat_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/longcat"
)

func Example() {
	input := "<longcat_tool_call>get_weather\n<longcat_arg_key>city</longcat_arg_key>\n<longcat_arg_value>Tokyo</longcat_arg_value>\n</longcat_tool_call>\n" +
		`<longcat_tool_call>{"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}</longcat_tool_call>`
	for _, e := range syntax.Parse(longcat.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"call","name":"get_weather","args":{"city":"Tokyo"}}
	// {"type":"call","name":"get_time","args":{"timezone":"Asia/Tokyo"}}
	// {"type":"execute"}
	// {"type":"end"}
}
