package xmltag_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/xmltag"
)

func corpus(tb testing.TB) [][]byte {
	gs, err := syntaxtest.ReadGoldens(filepath.Join("..", "..", "testdata", "xmltag"))
	if err != nil {
		tb.Fatal(err)
	}
	var c [][]byte
	for _, g := range gs {
		c = append(c, g.Input)
	}
	return c
}

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(xmltag.Syntax, corpus(t), 3000, 4); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the invariants of SPEC §2 on any input.
func FuzzParse(f *testing.F) {
	for _, in := range corpus(f) {
		f.Add(in, uint64(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		cfg := syntaxtest.Config{Seed: seed, RandomSplits: 3, MaxExhaustive: 256}
		if err := syntaxtest.Check(xmltag.Syntax, in, cfg); err != nil {
			t.Fatal(err)
		}
	})
}

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
		p := xmltag.New(func(syntax.Event) {}, syntax.Options{})
		if chunk <= 0 {
			p.Write(in)
		} else {
			for i := 0; i < len(in); i += chunk {
				p.Write(in[i:min(i+chunk, len(in))])
			}
		}
		p.Close()
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
