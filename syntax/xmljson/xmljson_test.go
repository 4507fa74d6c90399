package xmljson_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

func corpus(tb testing.TB) [][]byte { return syntaxtest.Inputs(tb, goldens) }

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, xmljson.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(xmljson.Syntax, corpus(t), 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, xmljson.Syntax, goldens, nil) }

func TestLimitsKeepParsing(t *testing.T) {
	big := `<execute>[{"name": "w", "args": {"c": "` + strings.Repeat("x", 5000) + `"}}]</execute>after<execute>[{"name": "ok"}]</execute>`
	evs := syntax.Parse(xmljson.Syntax, []byte(big), syntax.Options{MaxBlock: 1000})
	var types []string
	for _, e := range evs {
		types = append(types, string(e.Type))
	}
	if got := strings.Join(types, " "); got != "error respond call execute end" {
		t.Fatalf("events %s", got)
	}
	if evs[0].Span != (syntax.Span{Start: 0, End: int64(strings.Index(big, "after"))}) {
		t.Errorf("over-limit error span %v does not cover the block", evs[0].Span)
	}
}

func TestTokenModeStreamsText(t *testing.T) {
	var evs []syntax.Event
	p := xmljson.Syntax.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{Mode: syntax.TokenMode})
	p.Write([]byte("<think>  I need"))
	if len(evs) != 1 || !evs[0].Partial || evs[0].Content != "I need" {
		t.Fatalf("after the first chunk: %v", evs)
	}
	p.Write([]byte(" to look <"))     // '<' may start </think>: held back
	p.Write([]byte("b> closely</th")) // "<b>" is text; "</th" held back
	p.Write([]byte("ink>ok"))
	p.Close()
	var got []string
	for _, e := range evs {
		got = append(got, e.String())
	}
	want := []string{
		`{"type":"think","content":"I need","partial":true}`,
		`{"type":"think","content":" to look ","partial":true}`,
		`{"type":"think","content":"<b> closely","partial":true}`,
		`{"type":"think","content":"I need to look <b> closely"}`,
		`{"type":"respond","content":"ok","partial":true}`,
		`{"type":"respond","content":"ok"}`,
		`{"type":"end"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("token events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// bigCall is one message carrying a write call whose content is about size bytes.
func bigCall(size int) (msg, jsonPart []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"</execute> {[\" + x }\n", line.Len())
	}
	content, _ := json.Marshal(line.String())
	jsonPart = []byte(`[{"name": "write", "args": {"path": "big.go", "content": ` + string(content) + `}}]`)
	msg = []byte("<think>Write the file.</think>\n<execute>\n" + string(jsonPart) + "\n</execute>\nWritten.")
	return msg, jsonPart
}

// transcript is a multi-turn conversation of about size bytes.
func transcript(tb testing.TB, size int) []byte {
	turn, err := os.ReadFile(filepath.Join("..", "..", "testdata", "examples", "xmljson-turn.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	turn = bytes.TrimSuffix(bytes.TrimSpace(turn), []byte("<end>"))
	var b bytes.Buffer
	for b.Len() < size {
		b.Write(turn)
		b.WriteString("\nSome more prose between turns, with a <div> and 3 < 4.\n")
	}
	return b.Bytes()
}

func benchParse(b *testing.B, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		p := xmljson.Syntax.New(func(syntax.Event) { events++ }, syntax.Options{})
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

func BenchmarkCall300K(b *testing.B) {
	msg, js := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, msg, 0) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, msg, 4) })
	b.Run("json.Valid", func(b *testing.B) { benchValid(b, js) })
}

func BenchmarkTranscript(b *testing.B) {
	in := transcript(b, 1<<20)
	b.Run("whole", func(b *testing.B) { benchParse(b, in, 0) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, in, 4) })
}

// BenchmarkCallScaling shows the cost of a call streamed in 4-byte chunks at
// 30 KB, 300 KB and 3 MB: linear cost means constant MB/s.
func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		msg, _ := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, msg, 4) })
	}
}

// TestTextCutAtLimitUTF8: a text run past the limit is cut at the limit, or
// before a character the limit would split, and the cut depends on the bytes
// only, never on the chunking. A stray continuation byte at the limit (0xB0
// after an ASCII '0') continues no character, so the cut stays at the limit
// (a write that ended at the limit cut there, one that did not backed off a
// byte, before the fix). JSON-lines goldens cannot carry invalid UTF-8,
// hence a test here.
func TestTextCutAtLimitUTF8(t *testing.T) {
	zeros := strings.Repeat("0", 64)
	ones := strings.Repeat("1", 63)
	for _, c := range []struct {
		in   string
		want []string
	}{
		{zeros + "\xb0", []string{zeros, "\xb0"}},
		{ones + "é!", []string{ones, "é!"}},             // two bytes across the limit
		{ones[:62] + "€!", []string{ones[:62], "€!"}},   // three
		{ones[:61] + "😀!", []string{ones[:61], "😀!"}},   // four
		{ones + "\xe2\x82", []string{ones, "\xe2\x82"}}, // a character cut off by the end
		{ones + "\xc3!", []string{ones + "\xc3", "!"}},  // a lead byte followed by no continuation
		{ones + "\xc3\xa9\xa9", []string{ones, "é\xa9"}},
		{strings.Repeat("\xa9", 70), []string{strings.Repeat("\xa9", 64), "\xa9\xa9\xa9\xa9\xa9\xa9"}},
		// A lead byte no valid character starts with (F5), or one followed
		// before the limit by a byte that cannot follow it (F0 80): token
		// mode sends such bytes as they are, so the cut is not moved before
		// them (found by a fuzz round: the first piece's fragments held a
		// byte the piece did not). F0 alone before the limit may start a
		// character, and is held back in both.
		{ones + "\xf5\xaf0", []string{ones + "\xf5", "\xaf0"}},
		{ones + "\xf0\x800", []string{ones, "\xf0\x800"}},
		{ones[:62] + "\xf0\x80\x800", []string{ones[:62] + "\xf0\x80", "\x800"}},
		{ones[:62] + "\xf0\x90\x800", []string{ones[:62], "\xf0\x90\x800"}}, // a valid start, cut off
	} {
		opts := syntax.Options{MaxBlock: 64}
		var got []string
		p := xmljson.Syntax.New(func(e syntax.Event) {
			if e.Type == syntax.Respond {
				got = append(got, e.Content)
			}
		}, opts)
		p.Write([]byte(c.in))
		p.Close()
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%q: runs differ (-want +got):\n%s", c.in, d)
		}
		if err := syntaxtest.Check(xmljson.Syntax, []byte(c.in), syntaxtest.Config{Options: opts}); err != nil {
			t.Errorf("%q: %v", c.in, err)
		}
	}
}
