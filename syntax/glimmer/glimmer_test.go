package glimmer_test

import (
	"flag"
	"testing"

	"github.com/toolparse/toolparse/syntax/glimmer"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, glimmer.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(glimmer.Syntax, syntaxtest.Inputs(t, goldens), 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, glimmer.Syntax, goldens, nil) }
