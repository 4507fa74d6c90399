package kimik3_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/kimik3"
)

func Example() {
	input := `<|open|>response<|sep|>Let me run it.<|close|>response<|sep|>` +
		`<|open|>tools<|sep|><|open|>call tool="python" index="1"<|sep|>` +
		`<|open|>argument key="code" type="string"<|sep|>print(1)<|close|>argument<|sep|>` +
		`<|open|>argument key="opts" type="object"<|sep|>{"a": 1}<|close|>argument<|sep|>` +
		`<|close|>call<|sep|><|close|>tools<|sep|>`
	for _, e := range syntax.Parse(kimik3.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Let me run it."}
	// {"type":"call","name":"python","args":{"code":"print(1)","opts":{"a":1}}}
	// {"type":"execute"}
	// {"type":"end"}
}
