package minimax_test

import (
	"math/rand/v2"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/minimax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// TestMarkerSoup runs the conformance kit on random strings of the
// syntax's markers and pieces of them (the fuzz target does the same at
// random, slowly on a shared machine).
func TestMarkerSoup(t *testing.T) {
	mm := []string{"<minimax:tool_call>", "</minimax:tool_call>", "<function_calls>", "</function_calls>", `<invoke name="f">`, "</invoke>", `<parameter name="k">`, "</parameter>", "<function_results>", "</function_results>", "<result>", "</result>", "<tool_name>t</tool_name>", "<stdout>", "</stdout>", "<error>", "</error>", "<think>", "</think>", "\n", " ", "x", "<", "é", "<invoke", `<parameter name=`}
	for _, c := range []struct {
		s      syntax.Syntax
		pieces []string
	}{{minimax.Syntax, mm}} {
		rng := rand.New(rand.NewPCG(9, 10))
		for i := 0; i < 300; i++ {
			var in []byte
			for k := rng.IntN(10); k >= 0; k-- {
				in = append(in, c.pieces[rng.IntN(len(c.pieces))]...)
			}
			opts := syntax.Options{ThinkOpen: rng.IntN(3) == 0}
			if err := syntaxtest.Check(c.s, in, syntaxtest.Config{Options: opts, RandomSplits: 2, MaxExhaustive: 64, Seed: uint64(i)}); err != nil {
				t.Fatalf("%s %q (%+v): %v", c.s.Name, in, opts, err)
			}
		}
	}
}
