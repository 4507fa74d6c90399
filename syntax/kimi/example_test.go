package kimi_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/kimi"
)

func Example() {
	p := kimi.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	for _, chunk := range []string{
		"<think>Check first.</th", "ink>Let me check.<|tool_calls_sec",
		"tion_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argu",
		`ment_begin|>{"city": "Beijing", "note": "a <|tool_call_end|> b"}<|tool_call_end|>`,
		"<|tool_calls_section_end|>",
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Check first."}
	// {"type":"respond","content":"Let me check."}
	// {"type":"call","name":"get_weather","args":{"city":"Beijing","note":"a <|tool_call_end|> b"},"id":"functions.get_weather:0"}
	// {"type":"execute"}
	// {"type":"end"}
}
