package harmony_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/harmony"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, harmony.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(harmony.Syntax, syntaxtest.Inputs(t, goldens), 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, harmony.Syntax, goldens, nil) }

func events(in string, opts syntax.Options) string {
	var b strings.Builder
	for _, e := range syntax.Parse(harmony.Syntax, []byte(in), opts) {
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestCompleteAt(t *testing.T) {
	for in, want := range map[string]bool{
		`<|channel|>commentary to=functions.f<|message|>{"a":1}`:     true,
		`<|channel|>commentary to=functions.f<|message|>{"a":1}  `:   true,
		`<|channel|>commentary to=functions.f<|message|>{"a":1`:      false,
		`<|channel|>commentary to=functions.f<|message|>{"a":1}<|ca`: false,
		`<|channel|>commentary to=functions.f<|message|>`:            false,
		`<|channel|>final<|message|>{"a":1}`:                         false,
		`<|channel|>analysis to=browser.search<|message|>{"q":"x"}`:  true,
		`<|channel|>analysis to=python code<|message|>print(1)`:      false,
	} {
		if got := harmony.Syntax.CompleteAt([]byte(in)); got != want {
			t.Errorf("CompleteAt(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestLimitsKeepParsing(t *testing.T) {
	big := `<|channel|>commentary to=functions.w<|message|>{"c": "` + strings.Repeat("x", 5000) + `"}<|call|>` +
		`<|start|>assistant<|channel|>commentary to=functions.ok<|message|>{}<|call|>`
	got := events(big, syntax.Options{MaxBlock: 1000})
	var types []string
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		var e struct{ Type string }
		json.Unmarshal([]byte(l), &e)
		types = append(types, e.Type)
	}
	if strings.Join(types, " ") != "error call execute end" {
		t.Fatalf("events:\n%s", got)
	}
	long := "<|start|>assistant" + strings.Repeat(" x", 600) + "<|channel|>final<|message|>hi<|end|>ok"
	if got := events(long, syntax.Options{}); !strings.Contains(got, `"code":"over_limit"`) || !strings.Contains(got, `"content":"ok"`) {
		t.Fatalf("a long header: events:\n%s", got)
	}
}

// bigCall is one message carrying a write call whose content is about size bytes.
func bigCall(size int) (msg, jsonPart []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"<|call|> {[\" + x }\n", line.Len())
	}
	content, _ := json.Marshal(line.String())
	jsonPart = []byte(`{"path": "big.go", "content": ` + string(content) + `}`)
	msg = []byte("<|channel|>analysis<|message|>Write the file.<|end|><|start|>assistant<|channel|>commentary to=functions.write <|constrain|>json<|message|>" +
		string(jsonPart) + "<|call|>")
	return msg, jsonPart
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := harmony.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
}

func BenchmarkCall300K(b *testing.B) {
	msg, js := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, msg, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	b.Run("token/chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.TokenMode) })
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(js)))
		for b.Loop() {
			if !json.Valid(js) {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkCallScaling shows the cost of a call streamed in 4-byte chunks at
// 30 KB, 300 KB and 3 MB: linear cost means constant MB/s.
func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		msg, _ := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	}
}

// TestSharedMarkersAreNoEvidence: <|start|> and <|message|> are Muse
// Glimmer's tokens too, so a message with no token of harmony's own is no
// evidence of harmony (auto read Glimmer's reasoning, " to=self", as a
// harmony call named self); one of harmony's own tokens later makes the
// first such message the evidence.
func TestSharedMarkersAreNoEvidence(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{" to=self<|message|>Think.<|eom|><|start|>assistant to=read<|message|><atem:function_calls>\n</atem:function_calls><|eot|>", -1},
		{"Hi <|start|>assistant to=user<|message|>Hello<|eot|>", -1},
		{"Hi <|start|>assistant<|message|>Hello<|end|>", 3},
		{" to=functions.f<|channel|>commentary<|message|>{}<|call|>", 15},
		{"<|channel|>final<|message|>Hello<|return|>", 0},
		{"x<|start|>assistant<|message|>a<|start|>assistant<|channel|>final<|message|>b", 1},
	} {
		d := harmony.Syntax.Detect(syntax.Options{})
		for i := 0; i <= len(c.in); i++ { // byte by byte: the verdict must not depend on the chunking
			ev := d.Look([]byte(c.in[:i]), i == len(c.in))
			if i == len(c.in) && ev.At != c.want {
				t.Errorf("%q: evidence at %d, want %d", c.in, ev.At, c.want)
			}
		}
	}
}
