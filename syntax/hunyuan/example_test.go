package hunyuan_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/hunyuan"
)

func Example() {
	input := "<think>\nBoston, then.\n</think>\n<answer>\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Boston\"}}]</tool_calls>\n</answer>"
	for _, e := range syntax.Parse(hunyuan.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Boston, then."}
	// {"type":"respond","content":"<answer>"}
	// {"type":"call","name":"get_weather","args":{"city":"Boston"}}
	// {"type":"respond","content":"</answer>"}
	// {"type":"execute"}
	// {"type":"end"}
}
