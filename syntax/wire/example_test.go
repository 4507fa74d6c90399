package wire_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// lines is the other half of a toy renderer: one line per unit.
type lines struct{ b strings.Builder }

func (l *lines) Text(t syntax.Type, s string) error {
	fmt.Fprintf(&l.b, "%s: %s\n", t, s)
	return nil
}

func (l *lines) Calls(calls []syntax.Event) error {
	for _, c := range calls {
		fmt.Fprintf(&l.b, "call %s %s (id %s)\n", c.Name, c.Args, c.ID)
	}
	return nil
}

func (l *lines) Execute() error { l.b.WriteString("run them\n"); return nil }

func (l *lines) Results([]syntax.Event) error {
	return wire.CannotCarry("lines", "results (no form for them): not written")
}

func (l *lines) End() error { return nil }

// A renderer is a wire.Renderer over a syntax's Units: it groups the
// events, gives calls ids when asked, and reports what the Units cannot
// carry — nothing is dropped without a word.
func Example() {
	u := &lines{}
	r := wire.New("lines", u)
	r.IDs = true
	err := syntax.Render(r, []syntax.Event{
		{Type: syntax.Respond, Content: "Reading both."},
		{Type: syntax.Call, Name: "read", Args: json.RawMessage(`{"file":"a"}`)},
		{Type: syntax.Call, Name: "read", Args: json.RawMessage(`{"file":"b"}`)},
		{Type: syntax.Execute},
		{Type: syntax.Result, Tool: "read", Status: syntax.Success, Value: json.RawMessage(`"A"`)},
		{Type: syntax.End},
	})
	fmt.Print(u.b.String())
	fmt.Println(err)
	// Output:
	// respond: Reading both.
	// call read {"file":"a"} (id call_1)
	// call read {"file":"b"} (id call_2)
	// run them
	// lines cannot carry: results (no form for them): not written
}
