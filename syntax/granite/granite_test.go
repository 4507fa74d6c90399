package granite_test

import (
	"flag"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax/granite"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, granite.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(granite.Syntax, syntaxtest.Inputs(t, goldens), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, granite.Syntax, goldens, nil) }

// TestPhi4LlamacppRoundTrip writes every golden case's events in the
// phi4-llamacpp form (one call object a block, closed by <|/tool_call|>)
// and parses them back: whatever the form can carry comes back the same.
func TestPhi4LlamacppRoundTrip(t *testing.T) {
	s := granite.Syntax
	s.Render = s.Variants[0].Render
	carried, closed, n := syntaxtest.RoundTripForm(t, s, goldens, []byte("<|/tool_call|>"))
	if carried < n/2 || closed < n/3 {
		t.Errorf("phi4-llamacpp carried %d of %d cases, %d of them with a closer", carried, n, closed)
	}
}

// TestFamily runs the golden cases of the engine's families granite belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, granite.Syntax, granite.Format) }
