package apriel_test

import (
	"flag"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax/apriel"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, apriel.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(apriel.Syntax, syntaxtest.Inputs(t, goldens), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, apriel.Syntax, goldens, nil) }

// TestFamily runs the golden cases of the engine's families apriel belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, apriel.Syntax, apriel.Format) }
