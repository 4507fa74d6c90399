package delimiter_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/delimiter"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

func corpus(tb testing.TB) [][]byte { return syntaxtest.Inputs(tb, goldens) }

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, delimiter.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(delimiter.Syntax, corpus(t), 3000, 3); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the conformance kit's invariants on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, delimiter.Syntax, goldens, nil) }

// Many unterminated [SYSTEM: lines must not make the parser rescan the rest
// of the input for each of them.
func TestManyUnterminatedSystemLines(t *testing.T) {
	in := bytes.Repeat([]byte("[SYSTEM: no end here\n"), 20000)
	evs := syntax.ParseChunks(delimiter.Syntax, syntaxtest.Split(in, 7), syntax.Options{})
	if len(evs) != 2 || evs[0].Type != syntax.Respond || evs[1].Type != syntax.End {
		t.Fatalf("got %d events, want one respond and the end", len(evs))
	}
}

func TestTokenModeSkipsSpaceAfterDelimiter(t *testing.T) {
	for _, chunk := range []int{1, 2, 3, 100} {
		var frags []string
		p := delimiter.Syntax.New(func(e syntax.Event) {
			if e.Partial {
				frags = append(frags, e.Content)
			}
		}, syntax.Options{Mode: syntax.TokenMode})
		for _, c := range syntaxtest.Split([]byte("§think:   \n  hello"), chunk) {
			p.Write(c)
		}
		p.Close()
		if got := strings.Join(frags, ""); got != "hello" {
			t.Errorf("chunks of %d: fragments %q, want no leading white space", chunk, frags)
		}
	}
}

func bigCall(size int) []byte {
	var b bytes.Buffer
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "func f%d() { return \"§end {[\" }\n", n)
	}
	content, _ := json.Marshal(b.String())
	return []byte(`§think: write it
§call: {"name": "write", "args": {"path": "big.go", "content": ` + string(content) + `}}
§execute
§end`)
}

func benchParse(b *testing.B, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := delimiter.Syntax.New(func(syntax.Event) {}, syntax.Options{})
		syntaxtest.Feed(p, in, chunk)
	}
}

func BenchmarkCall300K(b *testing.B) {
	in := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, in, 0) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, in, 4) })
}

func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		in := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, in, 4) })
	}
}
