package kimi_test

import (
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/kimi"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// look runs kimi's detector over in, byte by byte, and returns the last
// evidence; eof says whether the input ends there.
func look(in string, eof bool, opts syntax.Options) syntax.Evidence {
	d := kimi.Syntax.Detect(opts)
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
		{in: "Ok.<|tool_calls_section_begin|>", eof: true, at: 3, pending: -1, prose: 3},
		{in: "Ok.<|tool_call_section_begin|>", eof: true, at: 3, pending: -1, prose: 3},
		{in: "Ok.<|tool_call_begin|>", eof: true, at: 3, pending: -1, prose: 3},
		{in: "Ok.<|tool_call", at: -1, pending: 3, prose: 3},
		{in: "Ok.<|tool_call", eof: true, at: -1, pending: -1, prose: 14},
		{in: "Ok.<|tool_call_end|> more", eof: true, at: -1, pending: -1, prose: 25}, // text outside a call
		{in: "Ok.<|tool_calls_section_end|>", eof: true, at: -1, pending: -1, prose: 3},
		{in: "<think>x<|tool_calls_section_begin|>", eof: true, at: 8, pending: -1, prose: 0}, // ends the reasoning
		{in: "x<|tool_call_begin|>", eof: true, open: true, at: 1, pending: -1, prose: 0},
	} {
		ev := look(c.in, c.eof, syntax.Options{ThinkOpen: c.open})
		if ev.At != c.at || ev.Pending != c.pending || ev.Prose != c.prose {
			t.Errorf("%q (eof %v, think-open %v): %+v, want at %d pending %d prose %d", c.in, c.eof, c.open, ev, c.at, c.pending, c.prose)
		}
	}
}

// TestDetectAgreesWithGoldens: every golden case has evidence but those in
// no-evidence.
func TestDetectAgreesWithGoldens(t *testing.T) {
	for _, dir := range []string{goldens, noEvidence} {
		gs, err := syntaxtest.ReadGoldens(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			d := kimi.Syntax.Detect(g.Options)
			if ev := d.Look(g.Input, true); (ev.At >= 0) != (dir == goldens) {
				t.Errorf("%s: evidence %+v", g.Path, ev)
			}
		}
	}
}
