package batch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/toolparse/toolparse/batch"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

// The whole agent loop in a few lines: parse the model's output, run each
// batch with your tools, and get the results back in call order.
func Example() {
	tools := map[string]batch.Tool{
		"read": func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var a struct{ File string }
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return json.Marshal("contents of " + a.File)
		},
	}
	runner := batch.Runner{Tools: tools}
	collector := batch.Collector{OnBatch: func(b batch.Batch) {
		for _, r := range runner.Run(context.Background(), b) {
			fmt.Println(r)
		}
	}}

	model := `<execute>[{"name": "read", "args": {"file": "a.txt"}}, {"name": "delete", "args": {}}]</execute>`
	syntax.ParseReader(xmljson.Syntax, strings.NewReader(model), 0, syntax.Options{}, collector.Event)
	// Output:
	// {"type":"result","tool":"read","status":"success","content":"contents of a.txt"}
	// {"type":"result","tool":"delete","status":"failure","content":"unknown tool \"delete\""}
}

// Results go back to the model in the syntax's own form, through its renderer.
func Example_renderResults() {
	runner := batch.Runner{Tools: map[string]batch.Tool{
		"now": func(context.Context, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`"12:00"`), nil
		},
	}}
	var batches []batch.Batch
	collector := batch.Collector{OnBatch: func(b batch.Batch) { batches = append(batches, b) }}
	syntax.ParseReader(xmljson.Syntax, strings.NewReader(`<execute>[{"name": "now"}]</execute>`), 0, syntax.Options{}, collector.Event)

	r := xmljson.Syntax.Render(os.Stdout, syntax.Options{})
	for _, res := range runner.Run(context.Background(), batches[0]) {
		r.Event(res)
	}
	r.Close()
	// Output:
	// <results>
	// [{"tool":"now","status":"success","content":"12:00"}]
	// </results>
}
