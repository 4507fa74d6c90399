package glimmer_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/glimmer"
)

func Example() {
	p := glimmer.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the markers.
	// The last <|eot|> was a stop token: the server did not pass it on.
	for _, chunk := range []string{
		" to=self<|message|>Need the weather.<|e", "om|><|start|>assistant to=get_wea",
		"ther<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">\n",
		"<atem:parameter name=\"city\">Berlin <|eot|></atem:parameter>\n</atem:invoke>\n</atem:function_calls>",
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Need the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Berlin <|eot|>"}}
	// {"type":"execute"}
	// {"type":"end"}
}
