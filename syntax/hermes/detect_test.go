package hermes_test

import (
	"regexp"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/hermes"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// look runs hermes's detector over in, byte by byte, and returns the last
// evidence; eof says whether the input ends there.
func look(in string, eof bool, opts syntax.Options) syntax.Evidence {
	d := hermes.Syntax.Detect(opts)
	var ev syntax.Evidence
	for i := 1; i <= len(in); i++ {
		ev = d.Look([]byte(in[:i]), false)
	}
	if eof {
		ev = d.Look([]byte(in), true)
	}
	return ev
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		in          string
		eof, open   bool
		at, pending int
		prose       int
	}{
		{in: `Sure.<tool_call>{"name": "x"}`, eof: true, at: 5, pending: -1, prose: 5},
		{in: "Sure.<tool_call>\n  {", eof: true, at: 5, pending: -1, prose: 5},
		{in: "Sure.<tool_call>\n", at: -1, pending: 5, prose: 5},             // white space so far: the next byte tells
		{in: "Sure.<tool_call>\n", eof: true, at: -1, pending: -1, prose: 5}, // a truncated call, no evidence
		{in: "Sure.<tool_ca", at: -1, pending: 5, prose: 5},
		{in: "<tool_call>\n<function=f>", eof: true, at: -1, pending: -1, prose: 24},                       // Qwen3-Coder's call: text to hermes
		{in: "<tool_call>get_weather\n<arg_key>city</arg_key>", eof: true, at: -1, pending: -1, prose: 46}, // GLM's, the same
		{in: "<tool_call>\n<function=f>", at: -1, pending: -1, prose: 24},                                  // decided: more input cannot make it a call
		{in: `<think>x <tool_call>{"a"</think>`, eof: true, at: -1, pending: -1, prose: 0},                 // a thought
		{in: `<tool_response>{"a"} <tool_call>{</tool_response>`, eof: true, at: -1, pending: -1, prose: 0},
		{in: `<think>x</think><tool_call>{`, eof: true, at: 16, pending: -1, prose: 0},
		{in: `I think<tool_call>{"name"`, eof: true, open: true, at: 7, pending: -1, prose: 0}, // ends the reasoning
		{in: `I think </think><tool_call>{`, eof: true, open: true, at: 16, pending: -1, prose: 0},
	} {
		ev := look(c.in, c.eof, syntax.Options{ThinkOpen: c.open})
		if ev.At != c.at || ev.Pending != c.pending || ev.Prose != c.prose {
			t.Errorf("%q (eof %v, think-open %v): %+v, want at %d pending %d prose %d", c.in, c.eof, c.open, ev, c.at, c.pending, c.prose)
		}
	}
}

// TestDetectAgreesWithGoldens: the detector finds evidence in a golden case
// when it holds a <tool_call> before '{' (none of them holds one only inside
// a thought or a result), and none in the others.
func TestDetectAgreesWithGoldens(t *testing.T) {
	opener := regexp.MustCompile(`<tool_call>\s*\{`)
	for _, dir := range []string{goldens, noEvidence} {
		gs, err := syntaxtest.ReadGoldens(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			d := hermes.Syntax.Detect(g.Options)
			if ev, want := d.Look(g.Input, true), opener.Match(g.Input); (ev.At >= 0) != want {
				t.Errorf("%s: evidence %+v, want some: %v", g.Path, ev, want)
			}
		}
	}
}
