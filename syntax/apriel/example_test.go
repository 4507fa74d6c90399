package apriel_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/apriel"
)

func Example() {
	input := "Paris, then.\n[BEGIN FINAL RESPONSE]\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]</tool_calls>"
	for _, e := range syntax.Parse(apriel.Syntax, []byte(input), syntax.Options{ThinkOpen: true}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Paris, then."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"execute"}
	// {"type":"end"}
}
