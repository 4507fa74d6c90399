package llama3_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/llama3"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, llama3.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(llama3.Syntax, syntaxtest.Inputs(t, goldens), 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, llama3.Syntax, goldens, nil) }

// bigCall is one message carrying a write call whose content is about size
// bytes, and the JSON object alone.
func bigCall(size int) (msg, obj []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"<|eot_id|> {[\" + x }\n", line.Len())
	}
	content, _ := json.Marshal(line.String())
	obj = []byte(`{"name": "write", "parameters": {"path": "big.go", "content": ` + string(content) + `}}`)
	return append(append([]byte("<|python_tag|>"), obj...), "<|eom_id|>"...), obj
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		p := llama3.Syntax.New(func(syntax.Event) { events++ }, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}

// BenchmarkCall300K parses a 300 KB call whole and in 4-byte chunks, in
// event and token mode, beside encoding/json.Valid on its JSON object.
func BenchmarkCall300K(b *testing.B) {
	msg, obj := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, msg, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	b.Run("token/chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.TokenMode) })
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(obj)))
		b.ReportAllocs()
		for b.Loop() {
			if !json.Valid(obj) {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkCallScaling shows the cost of a call streamed in 4-byte chunks at
// 30 KB, 300 KB and 3 MB: linear cost means constant MB/s.
func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		msg, _ := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	}
}

// TestXLAMRoundTrip writes every golden case's events in xLAM's form (a
// message's calls as one JSON array opening it) and parses them back:
// whatever the form can carry comes back the same, in arrays.
func TestXLAMRoundTrip(t *testing.T) {
	s := llama3.Syntax
	s.Render = s.Variants[0].Render
	carried, arrays, n := syntaxtest.RoundTripForm(t, s, goldens, []byte(`[{"name": `))
	if carried < n/2 || arrays < 10 {
		t.Errorf("xlam carried %d of %d cases, %d of them with an array", carried, n, arrays)
	}
}

// TestCallObjectID: an "id" a call object holds is kept, though Llama 3's
// calls have none, in both modes and on the streamed call too (the
// renderer writes none, and reports it). No golden holds it: the kit's
// round trip requires the renderer to carry what a golden reads.
func TestCallObjectID(t *testing.T) {
	for _, in := range []string{`{"name": "f", "id": "x1", "parameters": {"a": 1}}`, `<|python_tag|>{"id": "x1", "name": "f", "parameters": {"a": 1}}`} {
		for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
			for _, e := range syntax.Parse(llama3.Syntax, []byte(in), syntax.Options{Mode: mode}) {
				if e.Type == syntax.Call && (e.ID != "x1" && (!e.Partial || e.Delta == "")) {
					t.Errorf("%s (%s): call event %v without the id x1", in, mode, e)
				}
			}
		}
	}
}
