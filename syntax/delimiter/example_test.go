package delimiter_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/delimiter"
)

func Example() {
	input := `§call: {"name": "file_list", "args": {"path": "."}}
§execute
[SYSTEM: Found: main.py, config.json]
§respond: Two files.
§end`
	for _, e := range syntax.Parse(delimiter.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"call","name":"file_list","args":{"path":"."}}
	// {"type":"execute"}
	// {"type":"result","tool":"file_list","status":"success","content":"Found: main.py, config.json"}
	// {"type":"respond","content":"Two files."}
	// {"type":"end"}
}
