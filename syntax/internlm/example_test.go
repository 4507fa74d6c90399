package internlm_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/internlm"
)

func Example() {
	input := "Let me check. <|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Tokyo\"}}<|action_end|>"
	for _, e := range syntax.Parse(internlm.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Let me check."}
	// {"type":"call","name":"get_weather","args":{"city":"Tokyo"}}
	// {"type":"execute"}
	// {"type":"end"}
}
