package pythonic_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/pythonic"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, pythonic.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(pythonic.Syntax, syntaxtest.Inputs(t, goldens), 3000, 1); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks, on any input, that the parser does not panic and that
// every invariant of the conformance kit holds (chunking invariance among them).
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, pythonic.Syntax, goldens, nil) }

// TestRenderValues renders calls whose arguments hold every kind of JSON
// value and reads them back.
func TestRenderValues(t *testing.T) {
	for _, args := range []string{
		`{}`,
		`{"s":"it's a \"quote\"\\ \n\t\r\u0001\u007f é 😀 \u2028","n":-12.5e-3,"i":123456789012345678901234567890,"z":-0,"b":true,"f":false,"x":null}`,
		`{"o":{"a b":[1,{"c":[]}],"":{}},"l":[[],[null]],"päth":"x"}`,
		`{"code":"print('</think>') # ]) [f(x=1)]"}`,
	} {
		evs := []syntax.Event{{Type: syntax.Call, Name: "mod.fn", Args: json.RawMessage(args)}, {Type: syntax.Execute}, {Type: syntax.End}}
		var buf bytes.Buffer
		if err := syntax.Render(pythonic.Syntax.Render(&buf, syntax.Options{}), evs); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		back := syntax.Parse(pythonic.Syntax, buf.Bytes(), syntax.Options{})
		if len(back) != 3 || back[0].Type != syntax.Call || !sameJSON(back[0].Args, []byte(args)) {
			t.Errorf("%s: rendered as %s, read back as %v", args, buf.String(), back)
		}
	}
}

func sameJSON(a, b []byte) bool {
	var x, y any
	dx, dy := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	dx.UseNumber()
	dy.UseNumber()
	return dx.Decode(&x) == nil && dy.Decode(&y) == nil && fmt.Sprint(x) == fmt.Sprint(y)
}

// TestRenderReports checks what the renderer cannot carry.
func TestRenderReports(t *testing.T) {
	for _, evs := range [][]syntax.Event{
		{{Type: syntax.Result, Tool: "f", Status: syntax.Success, Value: json.RawMessage(`1`)}},
		{{Type: syntax.Call, Name: "f", ID: "call_1", Args: json.RawMessage(`{}`)}, {Type: syntax.Execute}},
		{{Type: syntax.Call, Name: "f", Args: json.RawMessage(`{"my-key":1}`)}, {Type: syntax.Execute}},
		{{Type: syntax.Call, Name: "f-g", Args: json.RawMessage(`{}`)}, {Type: syntax.Execute}},
		{{Type: syntax.Respond, Content: "see [f(a=1)]"}},
		{{Type: syntax.Think, Content: "a </think> b"}},
		{{Type: syntax.Call, Name: "f", Args: json.RawMessage(`{}`)}},
		{{Type: syntax.Call, Name: "f", Args: json.RawMessage(`{}`)}, {Type: syntax.Execute}, {Type: syntax.Respond, Content: "late"}},
	} {
		var buf bytes.Buffer
		if err := syntax.Render(pythonic.Syntax.Render(&buf, syntax.Options{}), evs); err == nil {
			t.Errorf("%v: rendered as %q with no error", evs, buf.String())
		}
	}
}

// TestTokenModeStreamsText checks that prose streams before a list, and
// that a '[' is held only while it may open one.
func TestTokenModeStreamsText(t *testing.T) {
	var evs []syntax.Event
	p := pythonic.Syntax.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{Mode: syntax.TokenMode})
	p.Write([]byte("Checking a[i] and [link](x) now "))
	if len(evs) == 0 || evs[len(evs)-1].Content != " now " && !strings.HasSuffix(evs[len(evs)-1].Content, "now ") {
		t.Fatalf("prose not streamed: %v", evs)
	}
	n := len(evs)
	p.Write([]byte("[get_wea"))
	if len(evs) != n {
		t.Fatalf("a possible list start was streamed as text: %v", evs[n:])
	}
	p.Write([]byte("ther(city='Paris')]"))
	p.Close()
	var types []string
	for _, e := range evs[n:] {
		types = append(types, fmt.Sprintf("%s/%v", e.Type, e.Partial))
	}
	if got := strings.Join(types, " "); got != "respond/false call/true call/true call/false execute/false end/false" {
		t.Fatalf("events after the list: %s", got)
	}
}

// TestTokenModeAnnouncesEachCall checks that a call of a list is announced
// as soon as its element is finished, before the list is.
func TestTokenModeAnnouncesEachCall(t *testing.T) {
	var evs []syntax.Event
	p := pythonic.Syntax.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{Mode: syntax.TokenMode})
	p.Write([]byte("[get_weather(city='LA', metric='C'), get_ti"))
	if len(evs) != 2 || evs[1].Delta != `{"city":"LA","metric":"C"}` || evs[1].Index != 0 {
		t.Fatalf("after the first element: %v", evs)
	}
	p.Write([]byte("me(zone='PST')"))
	p.Close() // the list is cut off: no call, an error
	for _, e := range evs {
		if e.Type == syntax.Call && !e.Partial {
			t.Fatalf("a call from a list cut off: %v", evs)
		}
	}
	if evs[len(evs)-2].Type != syntax.Error {
		t.Fatalf("no error for the list cut off: %v", evs)
	}
}

// bigCall is one message carrying a write call whose content is about
// size bytes, and the same call as a JSON document for the baseline.
func bigCall(size int) (msg, doc []byte) {
	var line bytes.Buffer
	for line.Len() < size {
		fmt.Fprintf(&line, "def f%d(): return \"]) [x(\" + 'y' # </think>\n", line.Len())
	}
	var b bytes.Buffer
	b.WriteString("I'll write the file.\n[write_file(path='big.py', content=")
	b.WriteString(pyQuote(line.String()))
	b.WriteString(")]")
	content, _ := json.Marshal(line.String())
	doc = []byte(`{"name":"write_file","arguments":{"path":"big.py","content":` + string(content) + `}}`)
	return b.Bytes(), doc
}

func pyQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}

func benchParse(b *testing.B, in []byte, chunk int, mode syntax.Mode) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	calls := 0
	for b.Loop() {
		p := pythonic.Syntax.New(func(e syntax.Event) {
			if e.Type == syntax.Call && !e.Partial {
				calls++
			}
		}, syntax.Options{Mode: mode})
		syntaxtest.Feed(p, in, chunk)
	}
	if calls != b.N {
		b.Fatalf("%d calls in %d runs", calls, b.N)
	}
}

func benchValid(b *testing.B, doc []byte) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if !json.Valid(doc) {
			b.Fatal("invalid")
		}
	}
}

// BenchmarkCall300K: one call with a 300 KB string argument, whole and in
// 4-byte chunks, in both modes, with encoding/json.Valid over the same call
// as JSON for scale.
func BenchmarkCall300K(b *testing.B) {
	msg, doc := bigCall(300 << 10)
	b.Run("whole", func(b *testing.B) { benchParse(b, msg, 0, syntax.EventMode) })
	b.Run("chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	b.Run("token/chunk4", func(b *testing.B) { benchParse(b, msg, 4, syntax.TokenMode) })
	b.Run("json.Valid", func(b *testing.B) { benchValid(b, doc) })
}

// BenchmarkCallScaling shows the cost of a call streamed in 4-byte chunks
// at 30 KB, 300 KB and 3 MB: linear cost means constant MB/s.
func BenchmarkCallScaling(b *testing.B) {
	for _, size := range []int{30 << 10, 300 << 10, 3 << 20} {
		msg, _ := bigCall(size)
		b.Run(fmt.Sprintf("%dKB/chunk4", size>>10), func(b *testing.B) { benchParse(b, msg, 4, syntax.EventMode) })
	}
}

// TestTokenLimit: a call list of more tokens than MaxBlock/128 (at least
// 1024) is one over_limit error, not a parse that would take a few hundred
// times its size; one token fewer is a call.
func TestTokenLimit(t *testing.T) {
	opts := syntax.Options{MaxBlock: 2048 * 128}
	list := func(tokens int) []byte { // [f(a=[1,1,…])]: 10 tokens, and 2 a further element
		return []byte("[f(a=[1" + strings.Repeat(",1", (tokens-10)/2) + "])]")
	}
	type ev struct {
		Type syntax.Type
		Code syntax.Code
		Name string
	}
	for _, c := range []struct {
		tokens int
		want   []ev
	}{
		{2048, []ev{{syntax.Call, "", "f"}, {syntax.Execute, "", ""}, {syntax.End, "", ""}}},
		{2050, []ev{{syntax.Error, syntax.CodeOverLimit, ""}, {syntax.End, "", ""}}},
	} {
		for _, chunk := range []int{0, 7} {
			var got []ev
			p := pythonic.Syntax.New(func(e syntax.Event) { got = append(got, ev{e.Type, e.Code, e.Name}) }, opts)
			syntaxtest.Feed(p, list(c.tokens), chunk)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%d tokens in chunks of %d (-want +got):\n%s", c.tokens, chunk, diff)
			}
		}
	}
	// A list of JSON call objects (LFM2) is not read by participle: no
	// token limit.
	var got []ev
	in := `<|tool_call_start|>[{"name":"f","arguments":{"a":[1` + strings.Repeat(",1", 3000) + `]}}]<|tool_call_end|>`
	p := pythonic.Syntax.New(func(e syntax.Event) { got = append(got, ev{e.Type, e.Code, e.Name}) }, opts)
	syntaxtest.Feed(p, []byte(in), 0)
	if diff := cmp.Diff([]ev{{syntax.Call, "", "f"}, {syntax.Execute, "", ""}, {syntax.End, "", ""}}, got); diff != "" {
		t.Errorf("a JSON call list of 6,000 tokens (-want +got):\n%s", diff)
	}
}

// A call's span and raw text end at its closing parenthesis, not at the
// white space after it (the lexer yields no white space, so participle's
// end position for a call is where the next token starts).
func TestCallEndsAtItsParenthesis(t *testing.T) {
	type ev struct {
		typ  string
		span syntax.Span
		raw  string
	}
	for _, c := range []struct {
		in   string
		want []ev
	}{
		{"[f(a=1) , g(b=2)]", []ev{{"call", syntax.Span{Start: 0, End: 7}, ""}, {"call", syntax.Span{Start: 7, End: 17}, ""}, {"execute", syntax.Span{Start: 17, End: 17}, ""}, {"end", syntax.Span{Start: 17, End: 17}, ""}}},
		{"[f(1)  , g(x=1)]", []ev{{"error", syntax.Span{Start: 0, End: 5}, "f(1)"}, {"call", syntax.Span{Start: 5, End: 16}, ""}, {"execute", syntax.Span{Start: 16, End: 16}, ""}, {"end", syntax.Span{Start: 16, End: 16}, ""}}},
		{"[f(a=1, a=2) \\\n]", []ev{{"error", syntax.Span{Start: 0, End: 16}, "f(a=1, a=2)"}, {"end", syntax.Span{Start: 16, End: 16}, ""}}},
	} {
		var got []ev
		for _, e := range syntax.Parse(pythonic.Syntax, []byte(c.in), syntax.Options{}) {
			got = append(got, ev{string(e.Type), e.Span, e.Raw})
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q:\n got %v\nwant %v", c.in, got, c.want)
		}
	}
}

// TestOlmo3RoundTrip writes every golden case's events in the olmo3 form
// (calls one per line in <function_calls>) and parses them back: whatever
// the form can carry comes back the same, and the calls are in blocks.
func TestOlmo3RoundTrip(t *testing.T) {
	s := pythonic.Syntax
	s.Render = s.Variants[0].Render
	carried, blocks, n := syntaxtest.RoundTripForm(t, s, goldens, []byte("<function_calls>"))
	if carried < n/2 || blocks < n/3 {
		t.Errorf("olmo3 carried %d of %d cases, %d of them with a block", carried, n, blocks)
	}
}

// TestMiniCPMRoundTrip writes every golden case's events in the minicpm4
// form (thoughts in <|thought_start|>, calls one per line in a ```python
// fence) and parses them back: whatever the form can carry comes back the
// same, and the calls are in fences.
func TestMiniCPMRoundTrip(t *testing.T) {
	s := pythonic.Syntax
	s.Render = s.Variants[1].Render
	carried, fenced, n := syntaxtest.RoundTripForm(t, s, goldens, []byte("<|tool_call_start|>\n```python\n"))
	if carried < n/2 || fenced < n/3 {
		t.Errorf("minicpm4 carried %d of %d cases, %d of them with a fence", carried, n, fenced)
	}
}
