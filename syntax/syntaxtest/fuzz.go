package syntaxtest

import (
	"testing"

	"github.com/toolparse/toolparse/syntax"
)

// Inputs returns the transcripts of the golden cases in dir, to seed fuzz
// targets and garbage tests.
func Inputs(tb testing.TB, dir string) [][]byte {
	tb.Helper()
	gs, err := ReadGoldens(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var ins [][]byte
	for _, g := range gs {
		ins = append(ins, g.Input)
	}
	return ins
}

// Fuzz is a syntax's fuzz target: seeded from the golden cases in dir, it
// runs [Check] on every input the fuzzer makes, with random splits drawn
// from the fuzzed seed (and exhaustive splits and cuts only up to 64 bytes,
// sampled beyond, to keep each run short: the fuzzer also reruns every
// interesting input many times to minimise it); an odd seed sets
// Options.ThinkOpen. cfg, if set, gives the configuration for a seed instead.
func Fuzz(f *testing.F, s syntax.Syntax, dir string, cfg func(seed uint64) Config) {
	for _, in := range Inputs(f, dir) {
		f.Add(in, uint64(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		// An odd seed also starts the stream inside reasoning the prompt
		// opened (Options.ThinkOpen).
		c := Config{RandomSplits: 3, MaxExhaustive: 64, Options: syntax.Options{ThinkOpen: seed&1 == 1}}
		if cfg != nil {
			c = cfg(seed)
		}
		c.Seed = seed
		if err := Check(s, in, c); err != nil {
			t.Fatal(err)
		}
	})
}

// Feed writes in to p in chunks of chunk bytes (all at once when chunk <= 0)
// and closes it: the loop of a benchmark.
func Feed(p syntax.Parser, in []byte, chunk int) {
	if chunk <= 0 {
		p.Write(in)
	} else {
		for i := 0; i < len(in); i += chunk {
			p.Write(in[i:min(i+chunk, len(in))])
		}
	}
	p.Close()
}
