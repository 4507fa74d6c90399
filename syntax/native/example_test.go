package native_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

func Example() {
	// An Anthropic stream, as it comes over the wire.
	stream := `event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"is\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use"}}
`
	for _, e := range syntax.Parse(native.Syntax, []byte(stream), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"call","name":"get_weather","args":{"city":"Paris"},"id":"toolu_1"}
	// {"type":"execute"}
	// {"type":"end"}
}
