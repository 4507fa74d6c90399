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
