package commandr_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/commandr"
)

func Example() {
	input := "Plan: search for it.\nAction: ```json\n[\n    {\n        \"tool_name\": \"internet_search\",\n        \"parameters\": {\n            \"query\": \"mountains\"\n        }\n    }\n]```"
	for _, e := range syntax.Parse(commandr.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Plan: search for it."}
	// {"type":"call","name":"internet_search","args":{"query":"mountains"}}
	// {"type":"execute"}
	// {"type":"end"}
}
