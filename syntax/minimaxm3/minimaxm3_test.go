package minimaxm3_test

import (
	"flag"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/minimaxm3"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, minimaxm3.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(minimaxm3.Syntax, syntaxtest.Inputs(t, goldens), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, minimaxm3.Syntax, goldens, nil) }

// TestFamily runs the golden cases of the engine's families minimaxm3 belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, minimaxm3.Syntax, minimaxm3.Format) }

// TestStrings: M3's values are the strings the model wrote, for a tool
// schema to convert (Event.Strings); a call with no arguments has none.
func TestStrings(t *testing.T) {
	for in, want := range map[string]bool{
		`]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="f">]<]minimax[>[<a>1]<]minimax[>[</a>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>`: true,
		`]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="f">]<]minimax[>[</invoke>]<]minimax[>[</tool_call>`:                                   false,
	} {
		evs := syntax.Parse(minimaxm3.Syntax, []byte(in), syntax.Options{})
		if len(evs) == 0 || evs[0].Type != syntax.Call || evs[0].Strings != want {
			t.Errorf("%s: got %v, want a call with Strings %v", in, evs, want)
		}
	}
}
