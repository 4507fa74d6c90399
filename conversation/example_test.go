package conversation_test

import (
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/conversation"
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
