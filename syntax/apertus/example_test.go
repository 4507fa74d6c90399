package apertus_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/apertus"
)

func Example() {
	input := `Checking.<|tools_prefix|>[{"get_weather": {"city": "Paris"}}, {"get_time": {}}]<|tools_suffix|>`
	for _, e := range syntax.Parse(apertus.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"call","name":"get_time","args":{}}
	// {"type":"execute"}
	// {"type":"end"}
}
