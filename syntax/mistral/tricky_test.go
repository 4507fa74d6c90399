package mistral_test

import (
	"math/rand/v2"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/mistral"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// tricky are inputs beyond the golden cases that the kit's invariants must
// hold on, with and without ThinkOpen.
var tricky = []string{
	`[TOOL_CALLS]`,
	`[TOOL_CALLS][`,
	`[TOOL_CALLS][]`,
	`[TOOL_CALLS][ , ]`,
	`[TOOL_CALLS][1, {"name": "a"}]`,
	`[TOOL_CALLS][{"name": "a"},{"name": "b"}] ,`,
	`[TOOL_CALLS][{"name": "a"} {"name": "b"}]`,
	`[TOOL_CALLS]a[CALL_ID]`,
	`[TOOL_CALLS]a[CALL_ID][ARGS]{}`,
	`[TOOL_CALLS]a[CALL_ID]x y[ARGS]{}`,
	`[TOOL_CALLS]a[ARGS] `,
	`[TOOL_CALLS]a[ARGS]"x"`,
	`[TOOL_CALLS]a[ARGS]{}[TOOL_CALLS]`,
	`[TOOL_CALLS]a[AR`,
	`[TOOL_CALLS][THINK]x[/THINK]`,
	`[TOOL_CALLS][TOOL_CALLS]a{}`,
	`[THINK]`,
	`[/THINK]x[THINK]y`,
	`<think>[TOOL_CALLS]a{}</think>[TOOL_CALLS]b{}`,
	`[TOOL_RESULTS]`,
	`[TOOL_RESULTS]x[TOOL_CONTENT][/TOOL_RESULTS]`,
	`[TOOL_RESULTS] {"call_id": "q", "content": "c"}[/TOOL_RESULTS][TOOL_RESULTS]z[/TOOL_RESULTS]`,
	`a</s>b</s>[TOOL_CALLS]c{}</s>d`,
	`[TOOL_CALLS]` + "\xff" + `{}`,
	`[TOOL_CALLS]a{"s": "é`,
	"x\n[TOOL_CALLS]  \n  a[ARGS]  {\"k\": [1, {\"n\": null}]}  trailing [TOOL_",
	`</think>[TOOL_CALLS]a{}`,
}

func TestTricky(t *testing.T) {
	for _, think := range []bool{false, true} {
		for _, in := range tricky {
			if err := syntaxtest.Check(mistral.Syntax, []byte(in), syntaxtest.Config{Options: syntax.Options{ThinkOpen: think}}); err != nil {
				t.Errorf("%q (think-open %v): %v", in, think, err)
			}
		}
	}
}

// TestMarkerSoup runs the kit on random inputs made of pieces of the
// syntax's markers, JSON and text.
func TestMarkerSoup(t *testing.T) {
	pieces := []string{"[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "[THINK]", "[/THINK]", "<think>", "</think>", "[TOOL_RESULTS]",
		"[/TOOL_RESULTS]", "[TOOL_CONTENT]", "</s>", "[", "]", "{", "}", `"`, ",", " ", "\n", "a", "id9", `{"name": "f"`,
		`, "arguments": {"x": 1}}`, `{"k": "v"}`, "[TOOL_", "é", "null", `"s"`, ":"}
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 400 {
		var in []byte
		for k := rng.IntN(12); k >= 0; k-- {
			in = append(in, pieces[rng.IntN(len(pieces))]...)
		}
		opts := syntax.Options{ThinkOpen: i%3 == 0}
		if err := syntaxtest.Check(mistral.Syntax, in, syntaxtest.Config{Options: opts, RandomSplits: 3, MaxExhaustive: 64, Seed: uint64(i)}); err != nil {
			t.Fatalf("%q (think-open %v): %v", in, opts.ThinkOpen, err)
		}
	}
}
