package qwen3coder_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/qwen3coder"
)

func Example() {
	input := `<think>
Need the weather.
</think>
<tool_call>
<function=get_weather>
<parameter=city>
Dallas
</parameter>
</function>
</tool_call>`
	for _, e := range syntax.Parse(qwen3coder.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Need the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Dallas"}}
	// {"type":"execute"}
	// {"type":"end"}
}

// With ThinkOpen the prompt opened the reasoning; Qwen3.5 often leaves it
// unclosed before a call, and the call opener ends it.
func Example_thinkOpen() {
	input := "Need weather lookup<tool_call><function=get_weather><parameter=location>\nSF\n</parameter></function></tool_call>"
	for _, e := range syntax.Parse(qwen3coder.Syntax, []byte(input), syntax.Options{ThinkOpen: true}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Need weather lookup"}
	// {"type":"call","name":"get_weather","args":{"location":"SF"}}
	// {"type":"execute"}
	// {"type":"end"}
}
