package syntax_test

import (
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

func ExampleAll() {
	r := strings.NewReader("<think>check</think>Hello <end>")
	for e, err := range syntax.All(xmljson.Syntax, r, syntax.Options{}) {
		if err != nil {
			panic(err)
		}
		fmt.Println(e.Type, e.Content)
	}
	// Output:
	// think check
	// respond Hello
	// end
}

func ExampleParser() {
	// Push-style: feed chunks as they arrive; the handler sees each event as
	// soon as a chunk completes it.
	p := xmljson.Syntax.New(func(e syntax.Event) { fmt.Println(e) }, syntax.Options{Mode: syntax.TokenMode})
	p.Write([]byte("Let me "))
	p.Write([]byte("check <th"))
	p.Write([]byte("ink>hm</think>"))
	p.Close()
	// Output:
	// {"type":"respond","content":"Let me ","partial":true}
	// {"type":"respond","content":"check ","partial":true}
	// {"type":"respond","content":"Let me check"}
	// {"type":"think","content":"hm","partial":true}
	// {"type":"think","content":"hm"}
	// {"type":"end"}
}
