package hermes_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/hermes"
)

func Example() {
	p := hermes.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	for _, chunk := range []string{
		"<think>\nRead it first.\n</th", "ink>\n\n<tool_",
		`call>` + "\n" + `{"name": "read", "arguments": {"file": "a </tool_call> b"}}` + "\n</tool_call>",
		"\n<tool_call>\n", `{"name": "now", "arguments": "{}"}` + "\n</tool_call>",
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Read it first."}
	// {"type":"call","name":"read","args":{"file":"a </tool_call> b"}}
	// {"type":"call","name":"now","args":{}}
	// {"type":"execute"}
	// {"type":"end"}
}

// With Options.ThinkOpen the output starts in reasoning, which a call ends.
func Example_thinkOpen() {
	input := `The user wants Paris.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`
	for _, e := range syntax.Parse(hermes.Syntax, []byte(input), syntax.Options{ThinkOpen: true}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"The user wants Paris."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"execute"}
	// {"type":"end"}
}
