package scan_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// counter is the smallest syntax: every byte is text, '>' ends a run (as a
// marker would), and a chunk without '>' cannot complete an event. It
// measures the core's own cost per write.
type counter struct{ scan.Core }

var gt = scan.Bytes(">")

func newCounter() *counter {
	p := &counter{}
	p.Init(func(syntax.Event) {}, syntax.Options{}, runsTo(&p.Core), nil)
	p.WakeOn(gt)
	return p
}

// runsTo is the step of a syntax whose text runs end at '>' (consumed, and
// in no run).
func runsTo(c *scan.Core) scan.StepFunc {
	return func(data []byte, eof bool) int {
		n := c.TextBefore(syntax.Respond, data, '>')
		if n == 0 {
			c.EndRunAt(c.Offset() + 1)
			return 1
		}
		return n
	}
}

// BenchmarkWrite feeds 300 KB of text with a '>' every 64 bytes, whole and
// in 1- and 4-byte chunks: the difference is the core's cost per write.
func BenchmarkWrite(b *testing.B) {
	in := bytes.Repeat(append(bytes.Repeat([]byte("abcdefg "), 256)[:2047], '>'), 300<<10/2048)
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

// keeper is the floor under any parser's Write: it only keeps each chunk.
type keeper struct {
	buf [4 << 10]byte
	n   int
}

func (k *keeper) Write(p []byte) (int, error) {
	if k.n+len(p) > len(k.buf) {
		k.n = 0
	}
	k.n += copy(k.buf[k.n:], p)
	return len(p), nil
}

func (k *keeper) Close() error { return nil }

// BenchmarkWriteFloor is what a Write through the syntax.Parser interface
// costs when it does nothing but keep the chunk: the floor BenchmarkWrite's
// chunked runs stand on.
func BenchmarkWriteFloor(b *testing.B) {
	in := bytes.Repeat([]byte("abcdefg "), 300<<10/8)
	for _, chunk := range []int{4, 1} {
		b.Run(fmt.Sprintf("chunk%d", chunk), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				var p syntax.Parser = &keeper{}
				for i := 0; i < len(in); i += chunk {
					p.Write(in[i:min(i+chunk, len(in))])
				}
				p.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(len(in)/chunk)), "ns/write")
		})
	}
}
