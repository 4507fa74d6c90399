package minimax_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/minimax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, minimax.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(minimax.Syntax, syntaxtest.Inputs(t, goldens), 2000, 7); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, minimax.Syntax, goldens, nil) }

// TestThinkOpenRoundTrip renders events with ThinkOpen and reads them back.
func TestThinkOpenRoundTrip(t *testing.T) {
	for _, in := range []string{
		"Plan it.</think>Done.",
		"</think>Just text.",
		`Plan.</think><minimax:tool_call><invoke name="ls"></invoke></minimax:tool_call>`,
		"",
	} {
		if err := syntaxtest.RoundTrip(minimax.Syntax, []byte(in), syntax.Options{ThinkOpen: true}); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// bigCall is a write call whose content parameter is about size bytes of
// code full of '<' and of the closer itself, and that value's JSON string.
func bigCall(size int) (msg, value []byte) {
	var b bytes.Buffer
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "func f%d() { if a < b { return \"</parameter> <div>\" } }\n", n)
	}
	value, _ = json.Marshal(b.String())
	msg = []byte("Writing it.\n<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">big.go</parameter>\n<parameter name=\"content\">" + b.String() + "</parameter>\n</invoke>\n</minimax:tool_call>")
	return msg, value
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := minimax.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
}

func BenchmarkCall300K(b *testing.B) {
	msg, value := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, msg, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	b.Run("chunk4-token", func(b *testing.B) { benchParse(b, msg, 4, syntax.TokenMode) })
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(value)))
		for b.Loop() {
			if !json.Valid(value) {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkCallScaling: linear cost means constant MB/s at 30 KB, 300 KB and 3 MB.
func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		msg, _ := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	}
}

// allocated returns the bytes allocated while in is parsed whole.
func allocated(in []byte) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p := minimax.Syntax.New(func(syntax.Event) {}, syntax.Options{})
	p.Write(in)
	p.Close()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A value that the invoke's closer ends is not given room for a
// </parameter> that comes much later, outside its call: the block is sized
// from a closer only when it is the value's own (a review found 4 MB
// reserved, and kept, for a 1-byte value).
func TestValueNotSizedFromAnotherCloser(t *testing.T) {
	prose := bytes.Repeat([]byte("Some prose after the call, with a < or two.\n"), 4<<20/44)
	base := slices.Concat([]byte(`<minimax:tool_call><invoke name="f"><parameter name="a">x</invoke></minimax:tool_call>`), prose)
	in := slices.Concat(base, []byte("</parameter>"))
	// The distant closer costs nothing beyond the prose's own cost (which
	// the race detector's build makes larger).
	if got, without := allocated(in), allocated(base); got > without+uint64(len(in)/8) {
		t.Errorf("parsing %d bytes allocated %d, %d without the closer after the prose", len(in), got, without)
	}
}

// TestFamily runs the golden cases of the engine's families minimax belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, minimax.Syntax, minimax.Format) }
