package seedoss_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/seedoss"
)

func Example() {
	input := "<seed:think>Need the weather.</seed:think>\n<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona, Spain</parameter>\n</function>\n</seed:tool_call>"
	for _, e := range syntax.Parse(seedoss.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Need the weather."}
	// {"type":"call","name":"get_weather","args":{"location":"Barcelona, Spain"}}
	// {"type":"execute"}
	// {"type":"end"}
}
