package functools_test

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"

	"github.com/toolparse/toolparse/syntax/functools"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, functools.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(functools.Syntax, syntaxtest.Inputs(t, goldens), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, functools.Syntax, goldens, nil) }

// Text that ends in the word, then text that starts with '[': written so,
// they would read back as a call block, so the renderer says it cannot
// (found by fuzzing round trips).
func TestRenderWordThenBracket(t *testing.T) {
	var b strings.Builder
	err := syntax.Render(functools.Syntax.Render(&b, syntax.Options{}), []syntax.Event{
		{Type: syntax.Respond, Content: "Then import functools"}, {Type: syntax.Respond, Content: "[1, 2] is a list."}, {Type: syntax.End}})
	if err == nil || !errors.Is(err, wire.ErrCannotCarry) {
		t.Errorf("rendered %q with no report (%v)", b.String(), err)
	}
	for _, e := range syntax.Parse(functools.Syntax, []byte(b.String()), syntax.Options{}) {
		if e.Type == syntax.Call {
			t.Errorf("the text reads back as a call: %q", b.String())
		}
	}
}

// TestFamily runs the golden cases of the engine's families functools belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, functools.Syntax, functools.Format) }
