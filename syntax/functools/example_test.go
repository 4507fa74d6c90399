package functools_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/functools"
)

func Example() {
	input := `Checking. functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]`
	for _, e := range syntax.Parse(functools.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"get_weather","args":{"city":"Tokyo"}}
	// {"type":"execute"}
	// {"type":"end"}
}
