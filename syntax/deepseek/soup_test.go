package deepseek_test

import (
	"math/rand/v2"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/deepseek"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// TestMarkerSoup runs the conformance kit on random strings of the
// syntax's markers and pieces of them (the fuzz target does the same at
// random, slowly on a shared machine).
func TestMarkerSoup(t *testing.T) {
	ds := []string{"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>", "function", "\n", "```json\n", "```", "{", "}", `"a"`, ":", "1", "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>", "<｜tool▁outputs▁begin｜>", "<｜tool▁outputs▁end｜>", "<think>", "</think>", "<｜DSML｜function_calls>", "</｜DSML｜function_calls>", `<｜DSML｜invoke name="f">`, "</｜DSML｜invoke>", `<｜DSML｜parameter name="k" string="true">`, `<｜DSML｜parameter name="k" string="false">`, "</｜DSML｜parameter>", " ", "x", "<", "é", "get"}
	for _, c := range []struct {
		s      syntax.Syntax
		pieces []string
	}{{deepseek.Syntax, ds}} {
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
