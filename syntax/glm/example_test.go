package glm_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/glm"
)

func Example() {
	input := `<think>Need the weather.</think>
<tool_call>get_weather
<arg_key>city</arg_key>
<arg_value>Beijing</arg_value>
</tool_call>`
	for _, e := range syntax.Parse(glm.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Need the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Beijing"}}
	// {"type":"execute"}
	// {"type":"end"}
}
