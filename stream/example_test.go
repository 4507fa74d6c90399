package stream_test

import (
	"os"

	"github.com/toolparse/toolparse/stream"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

func ExampleText() {
	view := stream.NewText(os.Stdout) // Color stays off: this is not a terminal
	p := xmljson.Syntax.New(func(e syntax.Event) { view.Event(e) }, syntax.Options{})
	p.Write([]byte(`<think>Check first.</think><execute>[{"name": "ls", "args": {"path": "."}}]</execute>`))
	p.Close()
	view.Flush()
	// Output:
	// think   Check first.
	// call    ls {"path":"."}
	// execute ── run the batch ──
	// end
}
