package toolparse_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// The benchmarks here hold every built-in syntax to the same measures:
// throughput on prose-heavy and JSON-heavy input, whole and in small chunks,
// and pathological text, on transcripts each syntax's renderer writes.
// docs/performance.md records the figures.

// run parses in with s, in chunks of chunk bytes (0: whole). The
// transcripts are many turns in one stream, each with one call, so the
// one-block-per-message rule is lifted (caret's: without it every call
// after the first was an error, and its prose figures measured errors).
func run(b *testing.B, s syntax.Syntax, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		p := s.New(func(syntax.Event) { events++ }, syntax.Options{MultipleBlocks: true})
		syntaxtest.Feed(p, in, chunk)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(events, 1)), "ns/event")
}

// clean fails b when in, parsed whole as run parses it, gives an error
// event: a benchmark of transcripts measures what they hold, not errors.
func clean(b *testing.B, s syntax.Syntax, in []byte) {
	var first *syntax.Event
	p := s.New(func(e syntax.Event) {
		if e.Type == syntax.Error && first == nil {
			first = &e
		}
	}, syntax.Options{MultipleBlocks: true})
	syntaxtest.Feed(p, in, 0)
	if first != nil {
		b.Fatalf("%s: the transcript gives an error: %+v", s.Name, *first)
	}
}

var chunkings = []struct {
	name string
	size int
}{{"whole", 0}, {"chunk4", 4}, {"chunk1", 1}}

// BenchmarkProse: transcripts that are mostly text (20 lines of prose per
// short call), 1 MB.
func BenchmarkProse(b *testing.B) {
	for _, s := range builtins() {
		in := transcript(s, 1<<20, 20, "short")
		clean(b, s, in)
		for _, c := range chunkings {
			b.Run(s.Name+"/"+c.name, func(b *testing.B) { run(b, s, in, c.size) })
		}
	}
}

// BenchmarkJSONHeavy: transcripts dominated by call arguments (1 line of
// prose per 8 KB argument), 1 MB, with encoding/json.Valid over a JSON
// document of the same size as the baseline.
func BenchmarkJSONHeavy(b *testing.B) {
	arg := strings.Repeat(`func f() { return "x" } // {braces} and "quotes"`+"\n", 160)
	for _, s := range builtins() {
		in := transcript(s, 1<<20, 1, arg)
		clean(b, s, in)
		for _, c := range chunkings[:2] {
			b.Run(s.Name+"/"+c.name, func(b *testing.B) { run(b, s, in, c.size) })
		}
	}
	doc, _ := json.Marshal(strings.Repeat(arg, 128))
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			json.Valid(doc)
		}
	})
}

// pathological inputs: long runs of what could start a marker.
var pathological = map[string]string{
	"lt": "<", "section": "§", "caret": "^", "brace": "{", "backslash": `\`, "bracket": "[", "newline-caret": "\n^^^",
}

// BenchmarkPathological: 1 MB and 10 MB of each pathological run, in 4-byte
// chunks: linear cost shows as equal MB/s.
func BenchmarkPathological(b *testing.B) {
	for _, s := range builtins() {
		for pname, unit := range pathological {
			for _, size := range []int{1 << 20, 10 << 20} {
				in := bytes.Repeat([]byte(unit), size/len(unit))
				b.Run(fmt.Sprintf("%s/%s/%dMB", s.Name, pname, size>>20), func(b *testing.B) { run(b, s, in, 4) })
			}
		}
	}
}

// BenchmarkCall300K: one call whose content is 300 KB of source code, in
// each syntax as its renderer writes it, whole and in 4- and 1-byte chunks,
// with encoding/json.Valid over the call's arguments as the baseline: the
// table of docs/performance.md's "one 300 KB call, every syntax".
func BenchmarkCall300K(b *testing.B) {
	var code strings.Builder
	for i := 0; code.Len() < 300<<10; i++ {
		fmt.Fprintf(&code, "func f%d(x string) string { return \"<\" + x + \">\\n\" } // {%d}\n", i, i)
	}
	c := call("write", map[string]any{"path": "big.go", "content": code.String()})
	for _, s := range builtins() {
		in := renderEvents(s, []syntax.Event{{Type: syntax.Think, Content: "Write the file."}, c, {Type: syntax.Execute}})
		calls := 0
		for _, e := range syntax.Parse(s, in, syntax.Options{}) {
			if e.Type == syntax.Call && e.Name == c.Name && sameJSON(e.Args, c.Args) {
				calls++
			}
		}
		if calls != 1 {
			b.Fatalf("%s: %d calls read back from its rendering, want the one", s.Name, calls)
		}
		for _, ch := range chunkings {
			b.Run(s.Name+"/"+ch.name, func(b *testing.B) { run(b, s, in, ch.size) })
		}
	}
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(c.Args)))
		for b.Loop() {
			json.Valid(c.Args)
		}
	})
}

// sameJSON reports whether a and b hold the same JSON value (members in any order).
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// BenchmarkManyKeys: one call whose arguments are 15,000 keys with a
// one-letter string each (about 200 KB as JSON), written by each syntax's
// renderer, whole and in 64 KB chunks. It reports the heap's peak as a
// multiple of the input: what a syntax keeps per key beyond the bytes.
// (15,000 keys stay within pythonic's token limit at the default block
// limit.)
func BenchmarkManyKeys(b *testing.B) {
	args := make(map[string]any, 15000)
	for i := range 15000 {
		args["k"+strconv.Itoa(i)] = "v"
	}
	c := call("t", args)
	for _, s := range builtins() {
		in := renderEvents(s, []syntax.Event{c, {Type: syntax.Execute}})
		b.Run(s.Name, func(b *testing.B) { parsebench.PeakHeap(b, s.New, in) })
	}
}
