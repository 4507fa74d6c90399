package deepseek_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/deepseek"
)

func Example() {
	// DeepSeek-R1: the prompt opened the reasoning, so only </think> appears.
	input := "The user wants the weather.</think>Checking." +
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n" +
		"```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	for _, e := range syntax.Parse(deepseek.Syntax, []byte(input), syntax.Options{ThinkOpen: true}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"The user wants the weather."}
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"execute"}
	// {"type":"end"}
}
