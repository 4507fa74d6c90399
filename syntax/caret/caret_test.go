package caret_test

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/caret"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

func corpus(tb testing.TB) [][]byte { return syntaxtest.Inputs(tb, goldens) }

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, caret.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(caret.Syntax, corpus(t), 3000, 2); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the invariants of every syntax (see syntaxtest.Check) on
// any input, the multiple-blocks option on and off.
func FuzzParse(f *testing.F) {
	syntaxtest.Fuzz(f, caret.Syntax, goldens, func(seed uint64) syntaxtest.Config {
		return syntaxtest.Config{RandomSplits: 3, MaxExhaustive: 64, CompleteAt: caret.Syntax.CompleteAt,
			Options: syntax.Options{MultipleBlocks: seed%2 == 1}}
	})
}

func TestEndsWithFence(t *testing.T) {
	for in, want := range map[string]bool{
		"^^^": true, "a\n^^^": true, "a\n^^^  \r": true, "a\n^^^\n": false, "a^^^": false, "a\n^^^^": false, "": false,
	} {
		if got := caret.Syntax.CompleteAt([]byte(in)); got != want {
			t.Errorf("EndsWithFence(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestOneBlockPerStream(t *testing.T) {
	in := "^^^a\n^^^\n^^^b\n^^^\n"
	var types []string
	for _, e := range syntax.Parse(caret.Syntax, []byte(in), syntax.Options{}) {
		types = append(types, string(e.Type))
	}
	if got := strings.Join(types, " "); got != "call execute error end" {
		t.Fatalf("events %s", got)
	}
}

// TestShippedDialectInvariants checks the invariants, token mode included, on
// blocks that mix the two dialects' forms, a key's values among them.
func TestShippedDialectInvariants(t *testing.T) {
	for _, in := range []string{
		"^^^t\nk ---\na\n--- k\nk:\n  - b\n  - c\n^^^\n",
		"^^^t\nk ---\na\n--- k\nk: |\n  b\n\n^^^\n",
		"^^^t\nk: |+\n  a\n\nk ---\nb\n--- k\nk: c\n^^^\n",
		"^^^t\nk: [\na\n]\nk ---\n\n--- k\nk: [\n]\n^^^\n",
		"^^^t\npath: a\ncontent ---\nx\n--- content\n---\nbody\n^^^\n",
		"^^^t\npath: a\nnote ---\nx\n--- note\n---\nbody\nmore\n^^^\n",
		"^^^t\nnote ---\nx\n--- note\n---\ncontent: |\n  y\n^^^\n",
		"^^^t\nk ---\nx\r\n\r\n--- k\r\n^^^\r\n",
		"^^^t\nk ---\n^^^\n--- k\n^^^\n",
		"^^^t\nk: [\n---\nbody\n^^^\n",
		"^^^t\nk ---\nx\nbad line\n--- k\n\tindented\n^^^\n",
		"^^^t\nk ---\né\n--- k\n^^^",
	} {
		for _, multiple := range []bool{false, true} {
			cfg := syntaxtest.Config{CompleteAt: caret.Syntax.CompleteAt, Options: syntax.Options{MultipleBlocks: multiple}}
			if err := syntaxtest.Check(caret.Syntax, []byte(in), cfg); err != nil {
				t.Errorf("%q: %v", in, err)
			}
		}
	}
}

func bigBlock(size int) []byte {
	var b bytes.Buffer
	b.WriteString("I will write the file.\n^^^write_file\npath: big.go\n---\n")
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "func f%d() { return \"^^^ not a fence\" }\n", n)
	}
	b.WriteString("^^^\nDone.\n")
	return b.Bytes()
}

// bigMultiline is a block in code-assistant's shipped dialect whose
// "content ---" value is about size bytes.
func bigMultiline(size int) []byte {
	var b bytes.Buffer
	b.WriteString("I will write the file.\n^^^write_file\npaths: [\nbig.go\n]\ncontent ---\n")
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "func f%d() { return \"--- other ^^^\" }\n", n)
	}
	b.WriteString("--- content\n^^^\nDone.\n")
	return b.Bytes()
}

func BenchmarkMultiline(b *testing.B) {
	for _, size := range []int{300 << 10, 3 << 20} {
		in := bigMultiline(size)
		for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
			b.Run(fmt.Sprintf("%dKB/%s/chunk4", size>>10, mode), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					p := caret.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
					syntaxtest.Feed(p, in, 4)
				}
			})
		}
	}
}

func benchParse(b *testing.B, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := caret.Syntax.New(func(syntax.Event) {}, syntax.Options{})
		syntaxtest.Feed(p, in, chunk)
	}
}

func BenchmarkBody300K(b *testing.B) {
	in := bigBlock(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, in, 0) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, in, 4) })
}

func BenchmarkBodyScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		in := bigBlock(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, in, 4) })
	}
}

// manyKeys is one block just under size bytes whose header holds short
// distinct keys, one a line ("k1: v").
func manyKeys(size int) []byte {
	var b bytes.Buffer
	b.WriteString("^^^t\n")
	for n := 0; b.Len() < size-32; n++ {
		fmt.Fprintf(&b, "k%d: v\n", n)
	}
	b.WriteString("^^^\n")
	return b.Bytes()
}

// BenchmarkManyKeys8MB: a block just under the default 8 MiB limit made of
// about 770,000 distinct header keys, whole and in 64 KiB chunks. It
// reports the heap's peak and the bytes allocated per parse, in MB and as
// multiples of the block's size.
func BenchmarkManyKeys8MB(b *testing.B) {
	parsebench.PeakHeap(b, caret.Syntax.New, manyKeys(syntax.DefaultMaxBlock))
}

// TestMultilineValues: a "key ---" value is its lines joined with "\n",
// each without its CR, whether its lines end in LF, CRLF or both.
func TestMultilineValues(t *testing.T) {
	for in, want := range map[string]string{
		"^^^t\nk ---\n--- k\n^^^\n":                       `{"k":""}`,
		"^^^t\nk ---\n\n--- k\n^^^\n":                     `{"k":""}`,
		"^^^t\nk ---\na\n\nb\n--- k\n^^^\n":               `{"k":"a\n\nb"}`,
		"^^^t\nk ---\r\na\r\nb\r\n--- k\r\n^^^\r\n":       `{"k":"a\nb"}`,
		"^^^t\nk ---\na\nb\r\nc\n--- k\n^^^\n":            `{"k":"a\nb\nc"}`,
		"^^^t\nk ---\na\r\nb\nc\n--- k\n^^^\n":            `{"k":"a\nb\nc"}`,
		"^^^t\nk ---\na\n--- k\nk ---\nb\r\n--- k\n^^^\n": `{"k":["a","b"]}`,
	} {
		var got []string
		for _, e := range syntax.Parse(caret.Syntax, []byte(in), syntax.Options{}) {
			if e.Type == syntax.Call {
				got = append(got, string(e.Args))
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: calls %q, want one with %s", in, got, want)
		}
	}
}
