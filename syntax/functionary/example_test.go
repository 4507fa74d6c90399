package functionary_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/functionary"
)

func Example() {
	input := "all\nLet me check.>>>get_weather\n{\"city\": \"Paris\"}>>>python\nprint(2 + 2)"
	for _, e := range syntax.Parse(functionary.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Let me check."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"call","name":"python","args":{"code":"print(2 + 2)"}}
	// {"type":"execute"}
	// {"type":"end"}
}
