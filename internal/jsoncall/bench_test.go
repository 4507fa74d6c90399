package jsoncall

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// benchCalls is about 300 KB of call objects in an indented JSON array, as
// an xmljson block holds them.
var benchCalls = func() []byte {
	code := strings.Repeat("func f(s string) {\n\tif s == \"\\\\\" { return }\n\tfmt.Println(\"a\\tb\", s) // é ✓\n}\n", 4)
	var calls []any
	for i := 0; ; i++ {
		calls = append(calls, map[string]any{
			"name": "write",
			"id":   fmt.Sprintf("call_%d", i),
			"args": map[string]any{
				"path":    fmt.Sprintf("src/file_%d.go", i),
				"content": code,
				"lines":   []any{1, 22, 333, -4.5e-3, 1e10},
				"force":   i%2 == 0,
				"owner":   nil,
				"meta":    map[string]any{"tags": []string{"a", "b"}, "depth": map[string]any{"x": []any{[]any{1}, map[string]any{}}}},
			},
		})
		if b, _ := json.MarshalIndent(calls, "", "  "); len(b) >= 300<<10 {
			return b
		}
	}
}()

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
