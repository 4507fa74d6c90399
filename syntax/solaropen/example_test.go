package solaropen_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/solaropen"
)

func Example() {
	p := solaropen.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	for _, chunk := range []string{
		"<|think|>Check the weather.<|en", "d|><|begin|>assistant<|tool_ca",
		"lls|><|tool_call:begin|>a1b2c3d4e5<|tool_call:name|>get_weather<|tool_call:ar",
		`gs|>{"city": "Seoul"}<|tool_call:end|><|calls|>`,
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Check the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Seoul"},"id":"a1b2c3d4e5"}
	// {"type":"execute"}
	// {"type":"end"}
}
