package solaropen_test

import (
	"flag"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax/solaropen"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

// noEvidence holds golden cases with nothing in them that is Solar Open's
// alone (reasoning cut off): they are solaropen's reading, but
// auto-detection cannot choose solaropen for them, so they stand apart
// from the cases the registry's TestAutoOnEveryGolden runs.
const noEvidence = "testdata/no-evidence"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) {
	syntaxtest.RunGoldens(t, solaropen.Syntax, goldens)
	syntaxtest.RunGoldens(t, solaropen.Syntax, noEvidence)
}

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(solaropen.Syntax, append(syntaxtest.Inputs(t, goldens), syntaxtest.Inputs(t, noEvidence)...), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, solaropen.Syntax, goldens, nil) }

// TestFamily runs the golden cases of the engine's families solaropen belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, solaropen.Syntax, solaropen.Format) }
