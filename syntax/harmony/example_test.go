package harmony_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/harmony"
)

func Example() {
	p := harmony.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	// The call's <|call|> was a stop token: the server did not pass it on.
	for _, chunk := range []string{
		"<|channel|>analysis<|message|>Need the weather.<|e", "nd|><|start|>assistant<|chan",
		`nel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Ber`,
		`lin <|call|>"}`,
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Need the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Berlin <|call|>"}}
	// {"type":"execute"}
	// {"type":"end"}
}
