package conversation_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

func Example() {
	stored := `[
 {"role": "user", "content": "What is in a.txt?"},
 {"role": "assistant", "content": "<execute>[{\"name\": \"read\", \"args\": {\"file\": \"a.txt\"}}]</execute>"},
 {"role": "user", "content": "<results>[{\"tool\": \"read\", \"status\": \"success\", \"content\": \"hello\"}]</results>"}
]`
	msgs, _ := conversation.Decode(strings.NewReader(stored))
	c := conversation.Read(msgs, xmljson.Syntax, syntax.Options{})
	for _, e := range c.Events() {
		fmt.Println(e)
	}
	back, _ := conversation.Write(c, xmljson.Syntax, syntax.Options{})
	fmt.Printf("%s: %q\n", back[2].Role, back[2].Content)
	// Output:
	// {"type":"call","name":"read","args":{"file":"a.txt"}}
	// {"type":"execute"}
	// {"type":"result","tool":"read","status":"success","content":"hello"}
	// {"type":"end"}
	// user: "<results>\n[{\"tool\":\"read\",\"status\":\"success\",\"content\":\"hello\"}]\n</results>"
}

// An OpenAI Chat log, read as it is and written as Anthropic messages.
func ExampleWrite_native() {
	log := `[
 {"role": "user", "content": "What's the weather like in Paris today?"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris\"}"}}]},
 {"role": "tool", "tool_call_id": "call_1", "content": "15°C"}
]`
	native, _ := registry.Lookup("native")
	anthropic, _ := registry.Lookup("anthropic")
	msgs, _ := conversation.Decode(strings.NewReader(log))
	back, _ := conversation.Write(conversation.Read(msgs, native, syntax.Options{}), anthropic, syntax.Options{})
	for _, m := range back {
		b, _ := json.Marshal(m)
		fmt.Println(string(b))
	}
	// Output:
	// {"role":"user","content":"What's the weather like in Paris today?"}
	// {"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":{"location":"Paris"}}]}
	// {"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"15°C"}]}
}
