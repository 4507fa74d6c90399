package gemma_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/gemma"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, gemma.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(gemma.Syntax, syntaxtest.Inputs(t, goldens), 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, gemma.Syntax, goldens, nil) }

func TestLimitsKeepParsing(t *testing.T) {
	big := `<|tool_call>call:w{c:<|"|>` + strings.Repeat("x", 5000) + `<|"|>}<tool_call|>after<|tool_call>call:ok{}<tool_call|>`
	var types []string
	for _, e := range syntax.Parse(gemma.Syntax, []byte(big), syntax.Options{MaxBlock: 1000}) {
		types = append(types, string(e.Type))
	}
	if got := strings.Join(types, " "); got != "error respond call execute end" {
		t.Fatalf("events %s", got)
	}
}

// bigCall is one message carrying a write call whose content is about size
// bytes, and the same arguments as JSON.
func bigCall(size int) (msg, jsonPart []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"<tool_call|> {[\" + x }\n", line.Len())
	}
	content, _ := json.Marshal(line.String())
	jsonPart = []byte(`{"path": "big.go", "content": ` + string(content) + `}`)
	msg = []byte("<|channel>thought\nWrite the file.<channel|><|tool_call>call:write{path:<|\"|>big.go<|\"|>,content:" + string(content) + "}<tool_call|>")
	return msg, jsonPart
}

// bigRaw is the same call with the content as a raw <|"|> string, as Gemma
// writes it.
func bigRaw(size int) []byte {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "func f%d() { return \"{[\" + x }\n", line.Len())
	}
	return []byte("<|tool_call>call:write{path:<|\"|>big.go<|\"|>,content:<|\"|>" + line.String() + "<|\"|>}<tool_call|>")
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := gemma.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
}

func BenchmarkCall300K(b *testing.B) {
	msg, js := bigCall(300 << 10)
	raw := bigRaw(300 << 10)
	b.Run("json-string/whole", func(b *testing.B) { benchParse(b, msg, 0, syntax.EventMode) })
	b.Run("json-string/chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	b.Run("raw-string/whole", func(b *testing.B) { benchParse(b, raw, 0, syntax.EventMode) })
	b.Run("raw-string/chunk4", func(b *testing.B) { benchParse(b, raw, 4, syntax.EventMode) })
	b.Run("raw-string/token/chunk4", func(b *testing.B) { benchParse(b, raw, 4, syntax.TokenMode) })
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(js)))
		for b.Loop() {
			if !json.Valid(js) {
				b.Fatal("invalid")
			}
		}
	})
}

// A value over the limit is read no further than the limit, then a window
// at a time (see gemma.go): a <|"|> cut by the limit, or by a window's end,
// is read as a whole marker. The string's closer is put at every place
// around the limit and around the first window's end; the events are the
// same whole and in chunks: a call while the block fits, then an
// over_limit error, and the text after the block either way.
func TestValueReadPastTheLimitInWindows(t *testing.T) {
	const limit = 100
	open := `<|tool_call>call:write{c:<|"|>`
	after := `<|"|>}<tool_call|>after`
	calls, over := 0, 0
	for _, r := range [][2]int{{20, 100}, {64<<10 - 40, 64<<10 + 140}} {
		for n := r[0]; n <= r[1]; n++ {
			in := []byte(open + strings.Repeat("a", n) + after)
			opts := syntax.Options{MaxBlock: limit}
			whole := syntaxtest.EncodeJSONL(syntax.Parse(gemma.Syntax, in, opts))
			switch {
			case bytes.HasPrefix(whole, []byte(`{"type":"call"`)):
				calls++
			case bytes.HasPrefix(whole, []byte(`{"type":"error","code":"over_limit"`)):
				over++
			default:
				t.Fatalf("value of %d bytes: want a call or an over_limit error; got\n%s", n, whole)
			}
			if !bytes.Contains(whole, []byte(`{"type":"respond","content":"after"}`)) {
				t.Fatalf("value of %d bytes: the text after the block is not read:\n%s", n, whole)
			}
			for _, size := range []int{1, 7, 4096} {
				got := syntaxtest.EncodeJSONL(syntax.ParseChunks(gemma.Syntax, syntaxtest.Split(in, size), opts))
				if !bytes.Equal(got, whole) {
					t.Fatalf("value of %d bytes, %d-byte chunks:\n%s\nwhole:\n%s", n, size, got, whole)
				}
			}
		}
	}
	if calls == 0 || over == 0 {
		t.Fatalf("%d calls and %d over_limit errors: the values do not reach across the limit", calls, over)
	}
}

// A raw string that a block's closer cuts off is not given room for a
// <|"|> that comes much later (another call's), and a large buffer of a
// failed value is not handed to the next call: a review found 4 MB
// reserved for "x" and then carried by the next call's Args.
func TestStringNotSizedFromAnotherCloser(t *testing.T) {
	prose := bytes.Repeat([]byte("Some prose after the call, with a < or two.\n"), 4<<20/44)
	parse := func(last string) (args []byte, allocated uint64) {
		in := slices.Concat([]byte(`<|tool_call>call:f{a:<|"|>x<tool_call|>`), prose, []byte(last))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p := gemma.Syntax.New(func(e syntax.Event) {
			if e.Type == syntax.Call && e.Name == "g" {
				args = e.Args
			}
		}, syntax.Options{})
		p.Write(in)
		p.Close()
		runtime.ReadMemStats(&after)
		return args, after.TotalAlloc - before.TotalAlloc
	}
	args, got := parse(`<|tool_call>call:g{a:<|"|>y<|"|>}<tool_call|>`)
	if string(args) != `{"a":"y"}` {
		t.Fatalf("call g has args %s, want {\"a\":\"y\"}", args)
	}
	if cap(args) > 64<<10 {
		t.Errorf("call g's Args hold %d bytes of capacity", cap(args))
	}
	// The distant <|"|> costs nothing beyond the prose's own cost (which
	// the race detector's build makes larger).
	if _, without := parse(`<|tool_call>call:g{a:5}<tool_call|>`); got > without+uint64(len(prose)/8) {
		t.Errorf("parsing %d bytes of prose allocated %d, %d with no raw string after it", len(prose), got, without)
	}
}

// TestFunctionGemmaRoundTrip writes every golden case's events in
// FunctionGemma's form and parses them back: whatever the form can carry
// (no thoughts) comes back the same, in FunctionGemma's tokens.
func TestFunctionGemmaRoundTrip(t *testing.T) {
	s := gemma.Syntax
	s.Render = s.Variants[0].Render
	carried, calls, n := syntaxtest.RoundTripForm(t, s, goldens, []byte("<start_function_call>call:"))
	if carried < n/2 || calls < n/3 {
		t.Errorf("functiongemma carried %d of %d cases, %d of them with calls", carried, n, calls)
	}
	if _, g4, _ := syntaxtest.RoundTripForm(t, s, goldens, []byte("<|tool_call>call:")); g4 > 0 {
		t.Errorf("%d cases written with Gemma 4's call token", g4)
	}
}
