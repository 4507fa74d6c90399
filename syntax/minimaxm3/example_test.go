package minimaxm3_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/minimaxm3"
)

func Example() {
	const ns = "]<]minimax[>["
	input := "I will check.\n" + ns + "<tool_call>\n" +
		ns + `<invoke name="get_weather">` + ns + "<city>Paris" + ns + "</city>" + ns + "<days>" + ns + "<item>mon" + ns + "</item>" + ns + "<item>tue" + ns + "</item>" + ns + "</days>" + ns + "</invoke>\n" +
		ns + "</tool_call>"
	for _, e := range syntax.Parse(minimaxm3.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"I will check."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris","days":["mon","tue"]}}
	// {"type":"execute"}
	// {"type":"end"}
}
