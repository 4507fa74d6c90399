package xmltag_test

import (
	"bytes"
	"flag"
	"fmt"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/xmltag"
)

func corpus(tb testing.TB) [][]byte { return syntaxtest.Inputs(tb, goldens) }

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, xmltag.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(xmltag.Syntax, corpus(t), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, xmltag.Syntax, goldens, nil) }

// The known bug: "Hello", " ", "world" came out as "Helloworld".
func TestWhitespaceChunkKept(t *testing.T) {
	evs := syntax.ParseChunks(xmltag.Syntax, [][]byte{[]byte("Hello"), []byte(" "), []byte("world")}, syntax.Options{})
	if len(evs) != 2 || evs[0].Content != "Hello world" {
		t.Fatalf("events %v", evs)
	}
}

func bigValue(size int) []byte {
	var b bytes.Buffer
	b.WriteString("Writing it.\n<tool:write_file>\n<param:path>big.go</param:path>\n<param:content>\n")
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "func f%d() { if a < b { return \"<div>\" } }\n", n)
	}
	b.WriteString("</param:content>\n</tool:write_file>\nDone.")
	return b.Bytes()
}

func benchParse(b *testing.B, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := xmltag.Syntax.New(func(syntax.Event) {}, syntax.Options{})
		syntaxtest.Feed(p, in, chunk)
	}
}

func BenchmarkValue300K(b *testing.B) {
	in := bigValue(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, in, 0) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, in, 4) })
}

func BenchmarkValueScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		in := bigValue(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, in, 4) })
	}
}
