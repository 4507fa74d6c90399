package markup

import (
	"strings"
	"testing"

	"github.com/toolparse/toolparse/syntax/scan"
)

func TestKeepUntil(t *testing.T) {
	for _, c := range []struct {
		in     string
		eof    bool
		n      int
		closed bool
	}{
		{"abc</x>def", false, 7, true},
		{"abc</", false, 3, false}, // a partial closer waits
		{"abc</", true, 5, false},
		{"</", false, 0, false},
		{"", true, 0, false},
	} {
		var blk scan.Block
		n, closed := KeepUntil(&blk, 1<<20, []byte(c.in), c.eof, "</x>")
		if n != c.n || closed != c.closed || string(blk.Bytes) != c.in[:n] {
			t.Errorf("KeepUntil(%q, eof %v) = %d, %v, kept %q; want %d, %v", c.in, c.eof, n, closed, blk.Bytes, c.n, c.closed)
		}
	}
}

func TestBatch(t *testing.T) {
	var b Batch
	if !b.Add(5) || b.Add(9) || b.N != 2 || b.Start != 5 {
		t.Fatalf("after two calls: %+v", b)
	}
}

func TestWriteThought(t *testing.T) {
	var w strings.Builder
	openers := []string{"<call>"}
	if m := WriteThought(&w, "plan <call>", false, "<think>", "</think>", "\n", openers); m != "" || w.String() != "<think>plan <call></think>\n" {
		t.Errorf("explicit: %q, wrote %q", m, w.String())
	}
	w.Reset()
	if m := WriteThought(&w, "plan <call>", true, "<think>", "</think>", "\n", openers); m != "<call>" || w.Len() != 0 {
		t.Errorf("inside, holding an opener: %q, wrote %q", m, w.String())
	}
	if m := WriteThought(&w, "a</think>", false, "<think>", "</think>", "\n", openers); m != "</think>" || w.Len() != 0 {
		t.Errorf("holding the closer: %q, wrote %q", m, w.String())
	}
	if m := WriteThought(&w, "plan", true, "<think>", "</think>", "\n", openers); m != "" || w.String() != "plan</think>\n" {
		t.Errorf("inside: %q, wrote %q", m, w.String())
	}
}
