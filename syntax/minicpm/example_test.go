package minicpm_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/minicpm"
)

func Example() {
	input := "Checking.\n<function name=\"run\"><param name=\"code\"><![CDATA[if a < b:\n    print(a)]]></param><param name=\"timeout\">30</param></function>"
	for _, e := range syntax.Parse(minicpm.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"run","args":{"code":"if a < b:\n    print(a)","timeout":"30"}}
	// {"type":"execute"}
	// {"type":"end"}
}
