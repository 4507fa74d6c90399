package xmltag_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/memtest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/xmltag"
)

const denseTools = 10000

// toolDense is a transcript of n small tools of three params each, a line of
// prose between them; doc is a JSON document of about the same size holding
// the same calls, for the encoding/json.Valid baseline.
func toolDense(n int) (in, doc []byte) {
	var b, j bytes.Buffer
	j.WriteString("[")
	for i := range n {
		fmt.Fprintf(&b, "Reading part %d.\n<tool:read_file>\n<param:path>src/pkg%d/file.go</param:path>\n<param:start>%d</param:start>\n<param:end>%d</param:end>\n</tool:read_file>\n", i, i%97, i, i+40)
		if i > 0 {
			j.WriteString(",")
		}
		fmt.Fprintf(&j, `{"text":"Reading part %d.","name":"read_file","args":{"path":"src/pkg%d/file.go","start":"%d","end":"%d"}}`, i, i%97, i, i+40)
	}
	j.WriteString("]")
	return b.Bytes(), j.Bytes()
}

// benchParseMode is benchParse in a given mode, reporting the cost per tool
// when tools > 0.
func benchParseMode(b *testing.B, in []byte, chunk int, mode syntax.Mode, tools int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	for b.Loop() {
		p := xmltag.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
	if tools > 0 {
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(b.N*tools), "allocs/tool")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tools), "ns/tool")
	}
}

func benchValid(b *testing.B, doc []byte) {
	if !json.Valid(doc) {
		b.Fatal("baseline document is not JSON")
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		json.Valid(doc)
	}
}

// BenchmarkToolDense: 10,000 tools of three params each (about 1.3 MB),
// with encoding/json.Valid over a JSON document of the same calls.
func BenchmarkToolDense(b *testing.B) {
	in, doc := toolDense(denseTools)
	b.Run("whole", func(b *testing.B) { benchParseMode(b, in, 0, syntax.EventMode, denseTools) })
	b.Run("chunk4", func(b *testing.B) { benchParseMode(b, in, 4, syntax.EventMode, denseTools) })
	b.Run("token/chunk4", func(b *testing.B) { benchParseMode(b, in, 4, syntax.TokenMode, denseTools) })
	b.Run("json.Valid", func(b *testing.B) { benchValid(b, doc) })
}

// BenchmarkValue300KModes: one tool with a 300 KB value, event and token
// mode, with encoding/json.Valid over the same call as JSON.
func BenchmarkValue300KModes(b *testing.B) {
	in := bigValue(300 << 10)
	start := bytes.Index(in, []byte("<param:content>\n")) + len("<param:content>\n")
	end := bytes.Index(in, []byte("</param:content>"))
	doc, _ := json.Marshal(map[string]any{"name": "write_file", "args": map[string]string{"path": "big.go", "content": string(in[start:end])}})
	b.Run("whole", func(b *testing.B) { benchParseMode(b, in, 0, syntax.EventMode, 0) })
	b.Run("chunk4", func(b *testing.B) { benchParseMode(b, in, 4, syntax.EventMode, 0) })
	b.Run("token/whole", func(b *testing.B) { benchParseMode(b, in, 0, syntax.TokenMode, 0) })
	b.Run("token/chunk4", func(b *testing.B) { benchParseMode(b, in, 4, syntax.TokenMode, 0) })
	b.Run("json.Valid", func(b *testing.B) { benchValid(b, doc) })
}

// emptyParams is one tool block of about size bytes holding nothing but
// empty params: the most params a block of that size can hold.
func emptyParams(size int) []byte {
	const param = "<param:a></param:a>"
	open, end := "<tool:t>", "</tool:t>"
	n := (size - len(open) - len(end)) / len(param)
	return []byte(open + strings.Repeat(param, n) + end)
}

// BenchmarkEmptyParams8MB: one block just under the default 8 MiB limit
// made of about 440,000 empty params. It reports the heap's peak and the
// bytes allocated per parse, in MB and as multiples of the block's size.
func BenchmarkEmptyParams8MB(b *testing.B) {
	in := emptyParams(syntax.DefaultMaxBlock)
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
					p := xmltag.Syntax.New(func(e syntax.Event) {
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
