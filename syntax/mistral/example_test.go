package mistral_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/mistral"
)

func Example() {
	p := mistral.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	for _, chunk := range []string{
		"[THINK]Check the weather.[/TH", "INK][TOOL_CALLS]get_weather[AR",
		`GS]{"city": "Paris [TOOL_CALLS]"}[TOOL_CALLS]get_time[CALL_ID]abcDEF123[ARGS]{}`,
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Check the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris [TOOL_CALLS]"}}
	// {"type":"call","name":"get_time","args":{},"id":"abcDEF123"}
	// {"type":"execute"}
	// {"type":"end"}
}

func Example_v3() {
	input := `[TOOL_CALLS][{"name": "special_function", "arguments": {"arg1": 1}, "id": "123456789"}]`
	for _, e := range syntax.Parse(mistral.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"call","name":"special_function","args":{"arg1":1},"id":"123456789"}
	// {"type":"execute"}
	// {"type":"end"}
}
