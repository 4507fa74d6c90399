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

// Ahead finds each value's closer, and never searches a byte twice: after a
// search that found none, the next starts where that one could no longer
// find a closer.
func TestAhead(t *testing.T) {
	var a scan.Ahead
	closer := []byte("</v>")
	in := []byte("abc</v>de</")
	if got := a.Find(in, 0, closer); got != 3 {
		t.Fatalf("Find = %d, want 3", got)
	}
	if got := a.Find(in[7:], 7, closer); got != -1 {
		t.Fatalf("no closer after 7: Find = %d, want -1", got)
	}
	// The input goes on ("v>" completes the cut closer): the search starts
	// at the cut-off closer's '<', not before.
	more := []byte("</v>x")
	if got := a.Find(append([]byte("de</"), "v>x"...), 7, closer); got != 2 {
		t.Fatalf("closer cut by the last data: Find = %d, want 2", got)
	}
	if got := a.Find(more[4:], 100, closer); got != -1 {
		t.Fatalf("Find = %d, want -1", got)
	}
	// Bytes already searched are not searched again: a closer placed there
	// since (it cannot be, in a stream; here it shows the search skips them)
	// is not found.
	if got := a.Find([]byte("</v></v>"), 97, closer); got != 4 {
		t.Fatalf("search from the clear offset: Find = %d, want 4", got)
	}
	// Nor the bytes before a closer found: values that end before it (the
	// reader sees they are not its own) search from it, not up to it again.
	var b scan.Ahead
	if got := b.Find([]byte("x</i>x</i>y</v>"), 0, closer); got != 11 {
		t.Fatalf("Find = %d, want 11", got)
	}
	if got := b.Find([]byte("x</v>y</v>"), 5, closer); got != 6 {
		t.Fatalf("a later value before the closer found: Find = %d, want 6 (from the closer found, at 11)", got)
	}
}

// Reserve grows the block once for what is to come, never past the limit.
func TestBlockReserve(t *testing.T) {
	var b scan.Block
	b.Keep([]byte("ab"), 100)
	b.Reserve(50, 100)
	if c := cap(b.Bytes); c < 52 {
		t.Fatalf("cap %d after Reserve(50), want at least 52", c)
	}
	before := &b.Bytes[:1][0]
	b.Keep(make([]byte, 50), 100)
	if &b.Bytes[0] != before {
		t.Fatalf("the block grew again after Reserve")
	}
	var c scan.Block
	c.Reserve(1<<30, 10)
	if cap(c.Bytes) > 64 {
		t.Fatalf("Reserve past the limit: cap %d", cap(c.Bytes))
	}
}

// TestPosAtFinish: finish's Pos is where the input ended, at every
// chunking, whether or not a step asked for Pos in the last Write (the
// position tracked within a Write once outlived it: native's fuzz target
// found a truncation reported one byte early when Close stepped over
// held bytes with a step that never asked).
func TestPosAtFinish(t *testing.T) {
	in := []byte("ab\ncd\nef")
	want := syntax.Pos{Offset: 8, Line: 3, Column: 3}
	for chunk := 1; chunk <= len(in); chunk++ {
		for _, ask := range []bool{false, true} {
			var c scan.Core
			var got syntax.Pos
			c.Init(func(syntax.Event) {}, syntax.Options{}, func(data []byte, eof bool) int {
				if ask {
					c.Pos()
				}
				if data[0] == 'f' && !eof {
					return 0 // the last byte waits for Close
				}
				return 1
			}, func(int64) { got = c.Pos() })
			for i := 0; i < len(in); i += chunk {
				c.Write(in[i:min(i+chunk, len(in))])
			}
			c.Close()
			if got != want {
				t.Errorf("chunks of %d, Pos asked in steps %v: finish's Pos is %+v, want %+v", chunk, ask, got, want)
			}
		}
	}
}

// TestIndexLead: lead bytes are bytes, not characters: the first byte of ◁
// (0xE2) is found where bytes.IndexAny, reading the set as UTF-8, finds
// nothing, and ASCII sets keep bytes.IndexAny's answers.
func TestIndexLead(t *testing.T) {
	for _, c := range []struct {
		data, leads string
		want        int
	}{
		{"ab◁c", "\xe2", 2},
		{"ab◁c", "<\xe2", 2},
		{"a<b◁c", "<\xe2", 1},
		{"abc", "\xe2", -1},
		{"a[b<c", "<[", 1},
		{"abc", "<[", -1},
	} {
		if got := scan.IndexLead([]byte(c.data), c.leads); got != c.want {
			t.Errorf("IndexLead(%q, %q) = %d, want %d", c.data, c.leads, got, c.want)
		}
	}
}

func TestMatchAny(t *testing.T) {
	ms := []string{"<a>", "<bb>"}
	if m, wait := scan.MatchAny([]byte("<bb>x"), false, ms); m != "<bb>" || wait {
		t.Errorf("whole: %q %v", m, wait)
	}
	if m, wait := scan.MatchAny([]byte("<b"), false, ms); m != "" || !wait {
		t.Errorf("partial: %q %v", m, wait)
	}
	if m, wait := scan.MatchAny([]byte("<b"), true, ms); m != "" || wait {
		t.Errorf("partial at eof: %q %v", m, wait)
	}
}
