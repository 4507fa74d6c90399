package scan_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// wakerFunc is a Waker that is a func: not comparable, which WakeWith must
// not need.
type wakerFunc func([]byte) bool

func (f wakerFunc) Wakes(p []byte) bool { return f(p) }

// TestWakeWithFunc: a syntax that sets a func Waker after every step reads
// the same runs whole and in chunks of every size, and setting it again and
// again does not panic.
func TestWakeWithFunc(t *testing.T) {
	in := []byte("abc>defgh>ij>>klmnopqrstuvwxyz")
	want := []string{"abc", "defgh", "ij", "klmnopqrstuvwxyz"}
	wakes := wakerFunc(func(p []byte) bool { return bytes.IndexByte(p, '>') >= 0 })
	for chunk := 1; chunk <= len(in); chunk++ {
		var got []string
		var c scan.Core
		c.Init(func(e syntax.Event) {
			if e.Type == syntax.Respond {
				got = append(got, e.Content)
			}
		}, syntax.Options{}, func(data []byte, eof bool) int {
			defer c.WakeWith(wakes)
			return runsTo(&c)(data, eof)
		}, nil)
		c.WakeWith(wakes)
		for i := 0; i < len(in); i += chunk {
			c.Write(in[i:min(i+chunk, len(in))])
		}
		c.Close()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("chunks of %d (-want +got):\n%s", chunk, diff)
		}
	}
}

// Fit gives what the block can take and one byte more, so that keeping
// what a reader took of it goes over at the limit and not past it.
func TestBlockFit(t *testing.T) {
	var b scan.Block
	p := []byte("0123456789")
	if got := b.Fit(p, 4); string(got) != "01234" {
		t.Fatalf("empty block, limit 4: Fit gives %q, want %q", got, "01234")
	}
	b.Keep([]byte("ab"), 4)
	if got := b.Fit(p, 4); string(got) != "012" {
		t.Fatalf("2 bytes kept, limit 4: Fit gives %q, want %q", got, "012")
	}
	if got := b.Fit(p[:2], 4); string(got) != "01" {
		t.Fatalf("room enough: Fit gives %q, want all of it", got)
	}
	b.Keep(b.Fit(p, 4), 4)
	if !b.Over || b.Len != 5 {
		t.Fatalf("keeping what Fit gave: Over %v, Len %d; want over at 5 bytes", b.Over, b.Len)
	}
	if got := b.Fit(p, 4); string(got) != string(p) {
		t.Fatalf("over the limit: Fit gives %q, want all of it", got)
	}
}
