package gcml_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/gcml"
)

func Example() {
	input := `I will check.<｜GCML｜tool_calls><｜GCML｜invoke name="get_weather">` +
		`<｜GCML｜parameter name="city" string="true">Tokyo</｜GCML｜parameter>` +
		`<｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>` +
		`</｜GCML｜invoke></｜GCML｜tool_calls>`
	for _, e := range syntax.Parse(gcml.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"I will check."}
	// {"type":"call","name":"get_weather","args":{"city":"Tokyo","days":3}}
	// {"type":"execute"}
	// {"type":"end"}
}
