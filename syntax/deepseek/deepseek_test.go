package deepseek_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall/tagcalltest"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/deepseek"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, deepseek.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(deepseek.Syntax, syntaxtest.Inputs(t, goldens), 2000, 7); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the event model's invariants (syntaxtest.Check) on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, deepseek.Syntax, goldens, nil) }

// TestThinkOpenRoundTrip renders events with ThinkOpen and reads them back.
func TestThinkOpenRoundTrip(t *testing.T) {
	for _, in := range []string{
		"Plan it.</think>Done.",
		"</think>Just text.",
		"Plan.</think><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>ls<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		"",
	} {
		if err := syntaxtest.RoundTrip(deepseek.Syntax, []byte(in), syntax.Options{ThinkOpen: true}); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// bigCall is one message carrying a write call whose content is about size
// bytes, in the V3.1 form, and the JSON of its arguments.
func bigCall(size int) (msg, args []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"<｜tool▁call▁end｜> {[\" + x }\n", line.Len())
	}
	content, _ := json.Marshal(line.String())
	args = []byte(`{"path": "big.go", "content": ` + string(content) + `}`)
	msg = []byte("Writing it.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write<｜tool▁sep｜>" + string(args) + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>")
	return msg, args
}

// bigDSML is a V3.2 call whose one string parameter is about size bytes.
func bigDSML(size int) []byte {
	var b bytes.Buffer
	b.WriteString("<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write\">\n<｜DSML｜parameter name=\"path\" string=\"true\">big.go</｜DSML｜parameter>\n<｜DSML｜parameter name=\"content\" string=\"true\">")
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "func f%d() { if a < b { return \"</｜DSML｜parameter>\" } }\n", n)
	}
	b.WriteString("</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>")
	return b.Bytes()
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := deepseek.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
}

func BenchmarkCall300K(b *testing.B) {
	msg, args := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, msg, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	b.Run("chunk4-token", func(b *testing.B) { benchParse(b, msg, 4, syntax.TokenMode) })
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(args)))
		for b.Loop() {
			if !json.Valid(args) {
				b.Fatal("invalid")
			}
		}
	})
}

func BenchmarkDSML300K(b *testing.B) {
	in := bigDSML(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, in, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, in, 4, syntax.EventMode) })
	b.Run("chunk4-token", func(b *testing.B) { benchParse(b, in, 4, syntax.TokenMode) })
}

// BenchmarkCallScaling: linear cost means constant MB/s at 30 KB, 300 KB and 3 MB.
func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		msg, _ := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	}
}

// With ThinkOpen, output that ends before </think> is a thought, then a
// truncated error (ollama/ollama model/parsers/deepseek3_test.go,
// TestDeepSeekParser_EdgeCases "partial_think_tag_at_end_with_thinking").
// Not a golden case: it holds no DeepSeek marker, so auto-detection, which
// cannot know that the prompt opened the reasoning, reads it otherwise.
func TestThinkOpenUnterminated(t *testing.T) {
	in := []byte("Thinking content</th")
	opts := syntax.Options{ThinkOpen: true}
	evs := syntax.Parse(deepseek.Syntax, in, opts)
	want := []string{
		`{"type":"think","content":"Thinking content</th"}`,
		`{"type":"error","code":"truncated","message":"unterminated reasoning (opened by the prompt): the stream ended before </think>","offset":0,"line":1,"column":1}`,
		`{"type":"end"}`,
	}
	if len(evs) != len(want) {
		t.Fatalf("events %v", evs)
	}
	for i, e := range evs {
		if e.String() != want[i] {
			t.Errorf("event %d: %s, want %s", i, e, want[i])
		}
	}
	if err := syntaxtest.Check(deepseek.Syntax, in, syntaxtest.Config{Options: opts}); err != nil {
		t.Fatal(err)
	}
}

// TestVariantsRoundTrip writes every golden case's events in each variant
// form (V3 / R1, DSML, V4) and parses them back: whatever the form can
// carry comes back the same.
func TestVariantsRoundTrip(t *testing.T) {
	for _, v := range deepseek.Syntax.Variants {
		s := deepseek.Syntax
		s.Render = v.Render
		if carried, _, n := syntaxtest.RoundTripForm(t, s, goldens, nil); carried < n/2 {
			t.Errorf("%s carried only %d of %d cases", v.Name, carried, n)
		}
	}
}

// TestFamily runs the token form's golden cases in DeepSeek's markers.
func TestFamily(t *testing.T) { tagcalltest.RunFamily(t, deepseek.Syntax, deepseek.Format) }
