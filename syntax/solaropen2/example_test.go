package solaropen2_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/solaropen2"
)

func Example() {
	p := solaropen2.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the tokens.
	for _, chunk := range []string{
		"<|think:start|>Check the weather.<|think:e", "nd|>Let me check.<|tool_call:st",
		"art|>get_weather\n<|tool_arg:start|>city<|tool_arg:va",
		"lue|>Seoul<|tool_arg:end|>\n<|tool_call:end|>",
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Check the weather."}
	// {"type":"respond","content":"Let me check."}
	// {"type":"call","name":"get_weather","args":{"city":"Seoul"}}
	// {"type":"execute"}
	// {"type":"end"}
}
