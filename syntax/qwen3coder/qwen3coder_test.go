package qwen3coder_test

import (
	"bytes"
	"flag"
	"fmt"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/qwen3coder"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

func corpus(tb testing.TB) [][]byte { return syntaxtest.Inputs(tb, goldens) }

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, qwen3coder.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(qwen3coder.Syntax, corpus(t), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, qwen3coder.Syntax, goldens, nil) }

func bigValue(size int) []byte {
	var b bytes.Buffer
	b.WriteString("Writing it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nbig.go\n</parameter>\n<parameter=content>\n")
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "func f%d() { if a < b { return \"</parameter>\" } }\n", n)
	}
	b.WriteString("</parameter>\n</function>\n</tool_call>\n")
	return b.Bytes()
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := qwen3coder.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
}

// BenchmarkValue300K: one call with a 300 KB value full of "<" and of
// "</parameter>" that is content, whole and in 4-byte chunks.
func BenchmarkValue300K(b *testing.B) {
	in := bigValue(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, in, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, in, 4, syntax.EventMode) })
}

// TestFamily runs the golden cases of the engine's families qwen3coder belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, qwen3coder.Syntax, qwen3coder.Format) }
