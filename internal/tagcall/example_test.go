package tagcall_test

import (
	"fmt"
	"os"

	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// A new format of the family is a description: its tags, its name form and
// its parameter form. The engine makes its parser, detector and renderer,
// and the conformance kit checks them at every chunking, in both modes,
// with a round trip through the renderer.
func Example_newFormat() {
	f := &tagcall.Format{
		Name:     "mytags",
		Think:    tagcall.Tags{Open: "<reasoning>", Close: "</reasoning>"},
		Scope:    tagcall.Tags{Open: "<call>", Close: "</call>"},
		Function: tagcall.Tags{Open: "<fn=", Close: "</fn>"},
		Param:    tagcall.Param{Open: "<arg=", KeyClose: ">", Close: "</arg>", TrimNewline: true},
		Own:      true, // <reasoning> and <call> are no other format's: each is evidence for auto
	}
	s := syntax.Syntax{Name: f.Name, New: f.New, Detect: f.Detect, Render: f.Render}

	input := []byte("<reasoning>Need the weather.</reasoning>\n<call>\n<fn=get_weather>\n<arg=city>\nParis\n</arg>\n</fn>\n</call>")
	if err := syntaxtest.Check(s, input, syntaxtest.Config{}); err != nil {
		fmt.Println(err)
	}
	for _, e := range syntax.Parse(s, input, syntax.Options{}) {
		fmt.Println(e)
	}

	// The renderer writes events back in the format.
	r := s.Render(os.Stdout, syntax.Options{})
	r.Event(syntax.Event{Type: syntax.Call, Name: "read_file", Args: []byte(`{"path":"a.txt"}`)})
	r.Event(syntax.Event{Type: syntax.Execute})
	r.Close()
	// Output:
	// {"type":"think","content":"Need the weather."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"}}
	// {"type":"execute"}
	// {"type":"end"}
	// <call>
	// <fn=read_file>
	// <arg=path>
	// a.txt
	// </arg>
	// </fn>
	// </call>
}
