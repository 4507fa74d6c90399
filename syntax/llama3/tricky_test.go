package llama3_test

import (
	"math/rand/v2"
	"testing"

	"github.com/toolparse/toolparse/syntax/llama3"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// tricky are inputs beyond the golden cases that the kit's invariants must
// hold on: markers cut and repeated, separators and errors at the ends of
// messages, headers without their end, results without calls.
var tricky = []string{
	`{"name": "a", "parameters": {}};`,
	`{"name": "a", "parameters": 1};`,
	`{"name": "a", "parameters": 1}; ;<|eot_id|>`,
	`{"name": "a"`,
	`{"x": 1`,
	`{"x": 1, "name"`,
	`{`,
	`<|python_tag|>`,
	`<|python_tag|>{`,
	`<|python_tag|>brave_search.call(`,
	`<|python_tag|>brave_search.call(query="a") trailing`,
	`<|python_tag|>brave_search.ca`,
	`<|python_tag|>x` + "\n" + `<|python_tag|>y`,
	`<|pyth`,
	`<|start_header_id|>`,
	`<|start_header_id|>ipython`,
	`<|start_header_id|>ipython<|end_header_id|>`,
	`<|start_header_id|>ipython<|end_header_id|>{"a":1}`,
	`<|start_header_id|>` + "0123456789012345678901234567890123456789012345678901234567890123456789",
	`text<|eot_id|>{"name": "a", "parameters": {}}<|eom_id|><|start_header_id|>ipython<|end_header_id|>` + "\n\nok<|eot_id|>",
	`{"name": "a", "parameters": {}} {"name": "b", "parameters": {}}`,
	`{"name": "a", "parameters": {}}<|python_tag|>{"name": "b", "parameters": {}}`,
	`{"name": "a", "parameters": {}, "name": "b", "arguments": {"x": 1}}`,
	`{"arguments": {"x": "é"}, "name": "late"}`,
	`{"name": "", "parameters": {}}`,
	`{"name": 5, "parameters": {}}`,
	`<|python_tag|>wolfram_alpha.call(query='it\'s', n=-1.5e3, ok=True, none=None)`,
	`<|python_tag|>wolfram_alpha.call(query="a", query="b")`,
	`<|python_tag|>wolfram_alpha.call(query="a\u00e9\x41\101")`,
	`; {"name": "a", "parameters": {}}`,
	"\n\n  {\"name\": \"a\", \"parameters\": {\"s\": \"\xff\"}}",
	`{"name": "a", "parameters": {}}<|eot_id|><|eot_id|><|eom_id|>hi`,
	`<|eot_id|>`,
}

func TestTricky(t *testing.T) {
	for _, in := range tricky {
		if err := syntaxtest.Check(llama3.Syntax, []byte(in), syntaxtest.Config{}); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestMarkerSoup runs the kit on random inputs made of pieces of the
// syntax's markers, JSON and text.
func TestMarkerSoup(t *testing.T) {
	pieces := []string{"<|python_tag|>", "<|eom_id|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>", "ipython",
		"assistant", "user", "{", "}", `"`, ";", " ", "\n", "x", `{"name": "f"`, `, "parameters": {"x": 1}}`, `"arguments"`,
		`{"k": "v"}`, "<|eo", "é", "null", ":", "brave_search.call(", `query="q"`, ")", ",", "'"}
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 400 {
		var in []byte
		for k := rng.IntN(12); k >= 0; k-- {
			in = append(in, pieces[rng.IntN(len(pieces))]...)
		}
		if err := syntaxtest.Check(llama3.Syntax, in, syntaxtest.Config{RandomSplits: 3, MaxExhaustive: 64, Seed: uint64(i)}); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
	}
}
