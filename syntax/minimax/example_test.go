package minimax_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/minimax"
)

func Example() {
	input := `<think>I should check the weather.</think>
<minimax:tool_call>
<invoke name="get_weather">
<parameter name="location">Tokyo</parameter>
<parameter name="days">5</parameter>
</invoke>
</minimax:tool_call>`
	for _, e := range syntax.Parse(minimax.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"I should check the weather."}
	// {"type":"call","name":"get_weather","args":{"location":"Tokyo","days":"5"}}
	// {"type":"execute"}
	// {"type":"end"}
}
