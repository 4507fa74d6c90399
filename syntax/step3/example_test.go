package step3_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/step3"
)

func Example() {
	input := "The user wants Tokyo's weather.</think>Checking.<｜tool_calls_begin｜>\n" +
		"<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\">\n" +
		"<steptml:parameter name=\"city\">Tokyo</steptml:parameter>\n" +
		"</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>"
	for _, e := range syntax.Parse(step3.Syntax, []byte(input), syntax.Options{ThinkOpen: true}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"The user wants Tokyo's weather."}
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"get_weather","args":{"city":"Tokyo"}}
	// {"type":"execute"}
	// {"type":"end"}
}
