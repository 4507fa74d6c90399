// Package parsebench holds the benchmark bodies that the syntaxes' parse
// and memory benchmarks share; each syntax makes its own input and passes
// its parser's constructor.
package parsebench

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/toolparse/toolparse/internal/memtest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// New makes a syntax's parser.
type New func(syntax.Handler, syntax.Options) syntax.Parser

// Parse benchmarks parsing in, fed in chunks of chunk bytes (0: whole), in
// the given mode, reporting the cost per tool when tools > 0.
func Parse(b *testing.B, newParser New, in []byte, chunk int, mode syntax.Mode, tools int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	for b.Loop() {
		p := newParser(func(syntax.Event) {}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
	if tools > 0 {
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(b.N*tools), "allocs/tool")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tools), "ns/tool")
	}
}

// Valid benchmarks encoding/json.Valid over doc, the baseline.
func Valid(b *testing.B, doc []byte) {
	if !json.Valid(doc) {
		b.Fatal("baseline document is not JSON")
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		json.Valid(doc)
	}
}

// PeakHeap benchmarks parsing in, which holds one call, whole and in
// chunks of 64 KiB. It reports the heap's peak and the bytes allocated per
// parse, in MB and as multiples of the input's size.
func PeakHeap(b *testing.B, newParser New, in []byte) {
	for _, c := range []struct {
		name  string
		chunk int
	}{{"whole", 0}, {"chunk64K", 64 << 10}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			var peak, total uint64
			for b.Loop() {
				calls := 0
				pk, tot := memtest.PeakHeap(func() {
					p := newParser(func(e syntax.Event) {
						if e.Type == syntax.Call {
							calls++
						}
					}, syntax.Options{})
					syntaxtest.Feed(p, in, c.chunk)
				})
				if calls != 1 {
					b.Fatalf("%d calls, want 1", calls)
				}
				peak, total = max(peak, pk), max(total, tot)
			}
			b.ReportMetric(float64(peak)/1e6, "peak-MB")
			b.ReportMetric(float64(total)/1e6, "alloc-MB")
			b.ReportMetric(float64(peak)/float64(len(in)), "peak/block")
			b.ReportMetric(float64(total)/float64(len(in)), "alloc/block")
		})
	}
}
