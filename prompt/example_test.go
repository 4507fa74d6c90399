package prompt_test

import (
	"fmt"

	"github.com/toolparse/toolparse/prompt"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax/delimiter"
)

func Example() {
	set, _ := schema.Load([]byte(`[{"name": "now", "description": "The time."}]`))
	p, err := prompt.Build(delimiter.Syntax, set)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Examples[0].Title)
	fmt.Print(p.Examples[0].Text)
	// Output:
	// Calling now
	// §call: {"name":"now","args":{}}
	// §execute
}
