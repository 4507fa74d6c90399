package qwen25coder_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/qwen25coder"
)

func Example() {
	input := "I will check the weather.\n<tools>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Seoul\"}}\n</tools>"
	for _, e := range syntax.Parse(qwen25coder.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"I will check the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Seoul"}}
	// {"type":"execute"}
	// {"type":"end"}
}
