package llama3_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/llama3"
)

func Example() {
	p := llama3.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the tokens.
	for _, chunk := range []string{
		`{"name": "get_weather", "parameters": {"city": "Zürich <|eot`,
		`_id|>"}}<|eot_id|><|start_header_id|>ipython<|end_he`,
		"ader_id|>\n\n\"20 degrees\"<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nIt is 20 degrees.",
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"call","name":"get_weather","args":{"city":"Zürich <|eot_id|>"}}
	// {"type":"execute"}
	// {"type":"result","tool":"get_weather","status":"success","content":"20 degrees"}
	// {"type":"respond","content":"It is 20 degrees."}
	// {"type":"end"}
}

func Example_builtin() {
	input := `<|python_tag|>brave_search.call(query="latest price of 1oz gold")<|eom_id|>`
	for _, e := range syntax.Parse(llama3.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"call","name":"brave_search","args":{"query":"latest price of 1oz gold"}}
	// {"type":"execute"}
	// {"type":"end"}
}

func Example_prose() {
	// JSON after prose is text: a Llama 3 call opens the message.
	input := `Here is the call: {"name": "f", "parameters": {}}`
	for _, e := range syntax.Parse(llama3.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Here is the call: {\"name\": \"f\", \"parameters\": {}}"}
	// {"type":"end"}
}
