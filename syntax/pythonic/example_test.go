package pythonic_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/pythonic"
)

func Example() {
	p := pythonic.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{})
	// A stream may arrive in any pieces; here it is cut inside the list.
	for _, chunk := range []string{
		"<think>Two cities.</think>Checking both.\n[get_weather(city='San Fr",
		"ancisco', metric='celsius'), get_weather(city=\"Martha's Vineyard\", days=3, ",
		"alerts=True, extra=None)]",
	} {
		p.Write([]byte(chunk))
	}
	p.Close()
	// Output:
	// {"type":"think","content":"Two cities."}
	// {"type":"respond","content":"Checking both."}
	// {"type":"call","name":"get_weather","args":{"city":"San Francisco","metric":"celsius"}}
	// {"type":"call","name":"get_weather","args":{"city":"Martha's Vineyard","days":3,"alerts":true,"extra":null}}
	// {"type":"execute"}
	// {"type":"end"}
}

func Example_errors() {
	// A positional argument is an error for its call only.
	input := "[calc(1, 2), get_weather(city='LA')]"
	for _, e := range syntax.Parse(pythonic.Syntax, []byte(input), syntax.Options{}) {
		if e.Type == syntax.Error {
			fmt.Printf("%s: %s\n", e.Pos, e.Message)
			continue
		}
		fmt.Println(e)
	}
	// Output:
	// 1:7: call 1 (calc): argument 1 is positional: a tool call takes keyword arguments only
	// {"type":"call","name":"get_weather","args":{"city":"LA"}}
	// {"type":"execute"}
	// {"type":"end"}
}
