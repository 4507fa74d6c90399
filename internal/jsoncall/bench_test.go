package jsoncall

import (
	"testing"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/jsontest"
	"github.com/toolparse/toolparse/syntax"
)

// benchCalls is about 300 KB of call objects in an indented JSON array, as
// an xmljson block holds them.
var benchCalls = jsontest.Calls

// BenchmarkArgStream measures scanning benchCalls while streaming its
// calls' arguments, whole and in 4-byte chunks, beside the scan alone.
func BenchmarkArgStream(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
	}{{"whole", 0}, {"chunk4", 4}} {
		var pieces [][]byte
		if c.size == 0 {
			pieces = [][]byte{benchCalls}
		} else {
			for p := benchCalls; len(p) > 0; p = p[min(c.size, len(p)):] {
				pieces = append(pieces, p[:min(c.size, len(p))])
			}
		}
		b.Run("scan/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(len(benchCalls)))
			var js jsonscan.JSON
			for b.Loop() {
				js.Reset(syntax.DefaultMaxDepth)
				for _, p := range pieces {
					js.Scan(p)
				}
			}
		})
		b.Run("scan+stream/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(len(benchCalls)))
			events := 0
			var js jsonscan.JSON
			a := newBenchStream(&js, func(syntax.Event) { events++ })
			for b.Loop() {
				js.Reset(syntax.DefaultMaxDepth)
				a.Reset()
				for _, p := range pieces {
					benchScan(a, &js, p)
				}
				if !js.Done() {
					b.Fatal(js.Err())
				}
			}
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
		})
	}
}

func newBenchStream(js *jsonscan.JSON, emit func(syntax.Event)) *ArgStream {
	return &ArgStream{Depth: 1, Emit: emit, JSON: js}
}

func benchScan(a *ArgStream, _ *jsonscan.JSON, p []byte) {
	a.Scan(p, 0)
}
