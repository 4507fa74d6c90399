package kimik3_test

import (
	"flag"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/kimik3"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, kimik3.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(kimik3.Syntax, syntaxtest.Inputs(t, goldens), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, kimik3.Syntax, goldens, nil) }

// TestFamily runs the golden cases of the engine's families kimik3 belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, kimik3.Syntax, kimik3.Format) }

// TestTypedValuesAreNotStrings: K3's arguments carry their types, so a
// call's values are not strings for a tool schema to convert
// (Event.Strings): type="string" 42 stays the string "42".
func TestTypedValuesAreNotStrings(t *testing.T) {
	in := `<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|>` +
		`<|open|>argument key="n" type="string"<|sep|>42<|close|>argument<|sep|>` +
		`<|close|>call<|sep|><|close|>tools<|sep|>`
	evs := syntax.Parse(kimik3.Syntax, []byte(in), syntax.Options{})
	if len(evs) == 0 || evs[0].Type != syntax.Call || string(evs[0].Args) != `{"n":"42"}` || evs[0].Strings {
		t.Fatalf("got %v, want the call with args {\"n\":\"42\"} and Strings false", evs)
	}
}

// TestRenderEscapedArgs: a call whose arguments hold a JSON escape the
// renderer writes as the character ("Z\u00fcrich") is carried: it reads
// back as the same call.
func TestRenderEscapedArgs(t *testing.T) {
	evs := []syntax.Event{{Type: syntax.Call, Name: "f", Args: []byte(`{"city":"Z\u00fcrich","p":"a\/b"}`)}, {Type: syntax.Execute}, {Type: syntax.End}}
	var out strings.Builder
	if err := syntax.Render(kimik3.Syntax.Render(&out, syntax.Options{}), evs); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
