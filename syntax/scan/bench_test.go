package scan_test

import (
	"bytes"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// counter is the smallest syntax: every byte is text, and a chunk without
// '>' cannot complete an event. It measures the core's own cost per write.
type counter struct{ scan.Core }

var gt = scan.Bytes(">")

func newCounter() *counter {
	p := &counter{}
	p.Init(func(syntax.Event) {}, syntax.Options{}, func(data []byte, eof bool) int {
		p.Text(syntax.Respond, data, p.Offset())
		return len(data)
	}, nil)
	p.WakeOn(gt)
	return p
}

// BenchmarkWrite feeds 300 KB of text with a '>' every 64 bytes, whole and
// in 1- and 4-byte chunks: the difference is the core's cost per write.
func BenchmarkWrite(b *testing.B) {
	in := bytes.Repeat(append(bytes.Repeat([]byte("abcdefg "), 8)[:63], '>'), 300<<10/64)
	for _, c := range []struct {
		name  string
		chunk int
	}{{"whole", len(in)}, {"chunk4", 4}, {"chunk1", 1}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				p := newCounter()
				for i := 0; i < len(in); i += c.chunk {
					p.Write(in[i:min(i+c.chunk, len(in))])
				}
				p.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*((len(in)+c.chunk-1)/c.chunk)), "ns/write")
		})
	}
}
