package hermes_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/hermes"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

// noEvidence holds golden cases with no evidence of hermes in them (no
// <tool_call> followed by '{'): reasoning opened by the prompt, prose that
// mentions the tag, a tag cut off at the end. They are hermes's reading,
// but auto-detection cannot choose hermes for them (it falls back to
// xmljson), so they stand apart from the cases the registry's
// TestAutoOnEveryGolden runs.
const noEvidence = "testdata/no-evidence"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) {
	syntaxtest.RunGoldens(t, hermes.Syntax, goldens)
	syntaxtest.RunGoldens(t, hermes.Syntax, noEvidence)
}

func TestGarbage(t *testing.T) {
	corpus := append(syntaxtest.Inputs(t, goldens), syntaxtest.Inputs(t, noEvidence)...)
	if err := syntaxtest.Garbage(hermes.Syntax, corpus, 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, hermes.Syntax, goldens, nil) }

// FuzzParseThinkOpen is FuzzParse with the output starting in reasoning.
func FuzzParseThinkOpen(f *testing.F) {
	syntaxtest.Fuzz(f, hermes.Syntax, goldens, func(uint64) syntaxtest.Config {
		return syntaxtest.Config{RandomSplits: 3, MaxExhaustive: 64, Options: syntax.Options{ThinkOpen: true}}
	})
}

// bigCall is one message carrying a write call whose content is about size
// bytes, and the call's JSON alone.
func bigCall(size int) (msg, jsonPart []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"</tool_call> {[\" + x }\n", line.Len())
	}
	content, _ := json.Marshal(line.String())
	jsonPart = []byte(`{"name": "write", "arguments": {"path": "big.go", "content": ` + string(content) + `}}`)
	msg = []byte("<think>\nWrite the file.\n</think>\n\n<tool_call>\n" + string(jsonPart) + "\n</tool_call>")
	return msg, jsonPart
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		p := hermes.Syntax.New(func(syntax.Event) { events++ }, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}

func benchValid(b *testing.B, in []byte) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if !json.Valid(in) {
			b.Fatal("invalid")
		}
	}
}

// BenchmarkCall300K parses one 300 KB call whole and in 4-byte chunks
// (event and token mode), with encoding/json.Valid on the call's JSON as
// the baseline.
func BenchmarkCall300K(b *testing.B) {
	msg, js := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, msg, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	b.Run("token/chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.TokenMode) })
	b.Run("json.Valid", func(b *testing.B) { benchValid(b, js) })
}

// BenchmarkCallScaling shows the cost of a call streamed in 4-byte chunks at
// 30 KB, 300 KB and 3 MB: linear cost means constant MB/s.
func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		msg, _ := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	}
}

// TestRestatedOpenerBeforeCall: with ThinkOpen, a <think> restated at the
// start and followed at once by a call gives no thought and no error (the
// reasoning holds no text), and the call. Found by mutating the goldens.
func TestRestatedOpenerBeforeCall(t *testing.T) {
	in := []byte("<think><tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>\n")
	var got []string
	for _, e := range syntax.Parse(hermes.Syntax, in, syntax.Options{ThinkOpen: true}) {
		got = append(got, e.String())
	}
	want := []string{`{"type":"call","name":"now","args":{}}`, `{"type":"execute"}`, `{"type":"end"}`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if err := syntaxtest.Check(hermes.Syntax, in, syntaxtest.Config{Options: syntax.Options{ThinkOpen: true}}); err != nil {
		t.Fatal(err)
	}
}

// TestThoughtStartingWithOpener: a first thought, under ThinkOpen, whose
// text starts with <think> would read back as the opener restated: the
// renderer reports it rather than write it.
func TestThoughtStartingWithOpener(t *testing.T) {
	var b bytes.Buffer
	err := syntax.Render(hermes.Syntax.Render(&b, syntax.Options{ThinkOpen: true}), []syntax.Event{
		{Type: syntax.Think, Content: "<think>x"}, {Type: syntax.Respond, Content: "y"}, {Type: syntax.End},
	})
	if err == nil {
		t.Fatalf("no error; wrote %q, which reads back as %v", b.String(), syntax.Parse(hermes.Syntax, b.Bytes(), syntax.Options{ThinkOpen: true}))
	}
}

// TestFamily runs the golden cases of the engine's families hermes belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, hermes.Syntax, hermes.Format) }
