package kimi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/kimi"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

// noEvidence holds golden cases with no evidence of kimi in them (no
// tool-call section opener): plain text, reasoning opened by the prompt,
// stray markers. They are kimi's reading,
// but auto-detection cannot choose kimi for them (it falls back to
// xmljson), so they stand apart from the cases the registry's
// TestAutoOnEveryGolden runs.
const noEvidence = "testdata/no-evidence"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) {
	syntaxtest.RunGoldens(t, kimi.Syntax, goldens)
	syntaxtest.RunGoldens(t, kimi.Syntax, noEvidence)
}

func TestGarbage(t *testing.T) {
	corpus := append(syntaxtest.Inputs(t, goldens), syntaxtest.Inputs(t, noEvidence)...)
	if err := syntaxtest.Garbage(kimi.Syntax, corpus, 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, kimi.Syntax, goldens, nil) }

// FuzzParseThinkOpen is FuzzParse with the output starting in reasoning.
func FuzzParseThinkOpen(f *testing.F) {
	syntaxtest.Fuzz(f, kimi.Syntax, goldens, func(uint64) syntaxtest.Config {
		return syntaxtest.Config{RandomSplits: 3, MaxExhaustive: 64, Options: syntax.Options{ThinkOpen: true}}
	})
}

// bigCall is one message carrying a write call whose content is about size
// bytes, and the call's JSON arguments alone.
func bigCall(size int) (msg, jsonPart []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"<|tool_call_end|> {[\" + x }\n", line.Len())
	}
	content, _ := json.Marshal(line.String())
	jsonPart = []byte(`{"path": "big.go", "content": ` + string(content) + `}`)
	msg = []byte("<think>Write the file.</think>I'll write it.<|tool_calls_section_begin|><|tool_call_begin|>functions.write:0<|tool_call_argument_begin|>" +
		string(jsonPart) + "<|tool_call_end|><|tool_calls_section_end|>")
	return msg, jsonPart
}
func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		p := kimi.Syntax.New(func(syntax.Event) { events++ }, syntax.Options{Mode: mode})
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

// TestRenderIDKept: an id that reads back as itself naming its call is
// written as it is, whatever else it holds (</think> ends no id), and one
// holding a marker that ends an id is replaced by a made one, reported.
func TestRenderIDKept(t *testing.T) {
	for _, c := range []struct{ id, want, report string }{
		{"functions.get</think>_news:0", "functions.get</think>_news:0", ""},
		{"functions.a<|x|>:0", "functions.a<|x|>:0", ""},
		{"functions.a<|tool_call_end|>:0", "functions.a:0", `the id "functions.a<|tool_call_end|>:0" of call a`},
	} {
		name, _, _ := strings.Cut(strings.TrimPrefix(c.want, "functions."), ":")
		var out bytes.Buffer
		r := kimi.Syntax.Render(&out, syntax.Options{})
		err := errors.Join(r.Event(syntax.Event{Type: syntax.Call, Name: name, ID: c.id, Args: []byte(`{}`)}),
			r.Event(syntax.Event{Type: syntax.Execute}), r.Close())
		got := syntax.Parse(kimi.Syntax, out.Bytes(), syntax.Options{})
		if len(got) == 0 || got[0].Type != syntax.Call || got[0].ID != c.want || got[0].Name != name {
			t.Errorf("id %q: wrote %q, read back %v", c.id, out.String(), got)
		}
		if c.report == "" && err != nil || c.report != "" && (err == nil || !strings.Contains(err.Error(), c.report)) {
			t.Errorf("id %q: report %v, want %q", c.id, err, c.report)
		}
	}
}

// TestFamily runs the golden cases of the engine's families kimi belongs to,
// in its markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, kimi.Syntax, kimi.Format) }
