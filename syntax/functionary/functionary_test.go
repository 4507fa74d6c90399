package functionary_test

import (
	"flag"
	"testing"

	"github.com/toolparse/toolparse/syntax/functionary"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, functionary.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(functionary.Syntax, syntaxtest.Inputs(t, goldens), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, functionary.Syntax, goldens, nil) }

// TestV2RoundTrip writes every golden case's events in Functionary v2's
// form and parses them back: whatever the form carries comes back the
// same, in v2's segments.
func TestV2RoundTrip(t *testing.T) {
	s := functionary.Syntax
	s.Render = s.Variants[0].Render
	carried, v2, n := syntaxtest.RoundTripForm(t, s, goldens, []byte("<|content|>"))
	if carried < n/2 || v2 < carried*9/10 {
		t.Errorf("functionary-v2 carried %d of %d cases, %d of them in v2's form", carried, n, v2)
	}
}
