package native_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// encode writes evs in form v's stream form, and reports whether it wrote
// a refusal as text (a loss it reports).
func encode(t testing.TB, v syntax.Variant, evs []syntax.Event) ([]byte, bool) {
	t.Helper()
	var buf bytes.Buffer
	err := syntax.Render(v.Render(&buf, syntax.Options{Mode: syntax.TokenMode}), evs) // losses: results, errors, hosted tools
	return buf.Bytes(), err != nil && strings.Contains(err.Error(), "a refusal")
}

// streamView is what a stream carries of events: the text of each kind
// (its runs joined by a blank line: forms without blocks join runs, and
// Chat Completions has one content a message, before its calls), then the
// calls (name and arguments as JSON values) in order, but for those whose
// number is in drop. Results, errors and executes are not in a response
// stream.
func streamView(evs []syntax.Event, drop map[int]bool, refusalAsText bool) []string {
	text := map[string]string{}
	var calls []string
	n := 0
	for _, e := range evs {
		if e.Partial {
			continue
		}
		switch e.Type {
		case syntax.Think, syntax.Respond:
			if e.Content == "" {
				continue // a reasoning item's state, read back on a thought of its own
			}
			k := string(e.Type)
			if e.Refusal && !refusalAsText {
				k = "refusal"
			}
			if text[k] != "" {
				text[k] += "\n\n"
			}
			text[k] += strings.TrimSpace(e.Content) // what white space a run keeps: see encoder.text
		case syntax.Call:
			n++
			if drop[n] {
				continue
			}
			var v any
			json.Unmarshal(e.ArgsJSON(), &v)
			a, _ := json.Marshal(v)
			calls = append(calls, fmt.Sprintf("call:%s(%s)", e.Name, a))
		}
	}
	var out []string
	for _, k := range []string{"think", "respond", "refusal"} {
		if text[k] != "" {
			out = append(out, k+":"+text[k])
		}
	}
	slices.Sort(calls) // parallel calls that streamed at once meet in another order
	return append(out, calls...)
}

// lost numbers the calls (1, 2, … in order) a stream cannot deliver: one
// whose parameters streamed a key twice (a stream cannot take back the
// string it began for the key, so the response ends in the form's error),
// and, where calls complete only with their response (callsAtEnd: Chat
// Completions), the calls before such a failure in the same response, or
// before a call that failed after it began to stream (an error, not a cut).
func lost(evs []syntax.Event, callsAtEnd bool) map[int]bool {
	out := map[int]bool{}
	keys := map[string]bool{}
	repeated, streaming := false, false
	var batch []int
	fail := func(cut bool) {
		if callsAtEnd && !cut { // a cut response delivers its complete calls; an error, none

			for _, n := range batch {
				out[n] = true
			}
		}
		batch, streaming = nil, false
	}
	n := 0
	for _, e := range evs {
		switch {
		case e.Type == syntax.Execute:
			batch = nil
		case e.Type == syntax.Error && streaming:
			fail(e.Code == syntax.CodeTruncated || e.Code == syntax.CodeOverLimit)
		case e.Type != syntax.Call:
		case e.Partial && e.Param == "" && e.Delta == "":
			clear(keys)
			repeated, streaming = false, true
		case e.Partial && e.Param != "" && e.Delta == "":
			repeated = repeated || keys[e.Param]
			keys[e.Param] = true
		case !e.Partial:
			n++
			streaming = false
			if repeated {
				out[n], repeated = true, false
				fail(false)
				continue
			}
			batch = append(batch, n)
		}
	}
	return out
}

// TestStreamRoundTrip encodes the token-mode events of every golden case of
// every syntax, at several chunkings, in each provider's stream form, and
// parses the stream back with native: the text and calls come back, a call
// that failed after it started streaming is not one, and a stream with a
// failed call never ends with the calls stop reason.
func TestStreamRoundTrip(t *testing.T) {
	n := 0
	for _, s := range registry.Builtin() {
		gs, err := syntaxtest.ReadGoldens(filepath.Join("..", s.Name, "testdata"))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			if g.Options.Content != nil {
				continue
			}
			topts := g.Options
			topts.Mode = syntax.TokenMode
			whole := syntax.Parse(s, g.Input, g.Options)
			for _, v := range native.Syntax.Variants {
				if v.Render == nil {
					continue
				}
				var first []byte
				for _, size := range []int{len(g.Input) + 1, 1, 3, 17} {
					evs := syntax.ParseChunks(s, syntaxtest.Split(g.Input, size), topts)
					stream, refusalAsText := encode(t, v, evs)
					back := syntax.Parse(native.Syntax, stream, syntax.Options{})
					want, got := streamView(whole, lost(evs, v.Name == "openai"), refusalAsText), streamView(back, nil, refusalAsText)
					if d := cmp.Diff(want, got); d != "" {
						t.Errorf("%s/%s as %s, %d-byte chunks: the stream reads back different (-want +got):\n%s\nstream:\n%s", s.Name, filepath.Base(g.Path), v.Name, size, d, stream)
						break
					}
					// Event mode: the same bytes at every chunking.
					ev, _ := encode(t, v, syntax.ParseChunks(s, syntaxtest.Split(g.Input, size), g.Options))
					if first == nil {
						first = ev
					} else if !bytes.Equal(first, ev) {
						t.Errorf("%s/%s as %s: the event-mode stream differs at %d-byte chunks", s.Name, filepath.Base(g.Path), v.Name, size)
						break
					}
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d streams checked", n)
	}
}

// A value whose schema type is not a string is held back by the schema's
// check (its partial events are not passed on) and arrives with the
// complete call: the stream never starts it as a string it could not take
// back, and the arguments read back are the converted ones.
func TestStreamSchemaTypedValues(t *testing.T) {
	tools, err := schema.LoadFile(filepath.Join("..", "seedoss", "testdata", "calc-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := registry.Lookup("seedoss")
	if err != nil {
		t.Fatal(err)
	}
	in := "<seed:tool_call>\n<function=calculate_area>\n<parameter=shape>rectangle</parameter>\n<parameter=precision>2</parameter>\n<parameter=dimensions>{\"width\": 10}</parameter>\n</function>\n</seed:tool_call>"
	for _, v := range native.Syntax.Variants {
		for _, size := range []int{len(in), 1, 5} {
			var evs []syntax.Event
			p := s.New(tools.CheckStream(func(e syntax.Event) { evs = append(evs, e) }), syntax.Options{Mode: syntax.TokenMode})
			syntaxtest.Feed(p, []byte(in), size)
			stream, _ := encode(t, v, evs)
			if bytes.Contains(stream, []byte(`precision\":\"`)) || bytes.Contains(stream, []byte(`dimensions\":\"`)) {
				t.Errorf("%s: a typed value streamed as a string:\n%s", v.Name, stream)
			}
			back := syntax.Parse(native.Syntax, stream, syntax.Options{})
			if len(back) < 1 || back[0].Type != syntax.Call || string(back[0].Args) != `{"shape":"rectangle","precision":2,"dimensions":{"width":10}}` {
				t.Errorf("%s, %d-byte chunks: read back %v", v.Name, size, back)
			}
		}
	}
}

// BenchmarkEncode300K: one call with a 300 KB value (source code full of
// "<" and of the value closer), parsed in 4-byte chunks in token mode
// (qwen3coder), alone (the baseline) and with each stream encoder writing
// its form as the events arrive. The goal: parse + encode within 2× of
// parse alone.
func BenchmarkEncode300K(b *testing.B) {
	var in bytes.Buffer
	in.WriteString("Writing it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nbig.go\n</parameter>\n<parameter=content>\n")
	for n := 0; in.Len() < 300<<10; n++ {
		fmt.Fprintf(&in, "func f%d() { if a < b { return \"</parameter>\" } }\n", n)
	}
	in.WriteString("</parameter>\n</function>\n</tool_call>\n")
	s, err := registry.Lookup("qwen3coder")
	if err != nil {
		b.Fatal(err)
	}
	opts := syntax.Options{Mode: syntax.TokenMode}
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(in.Len()))
		b.ReportAllocs()
		for b.Loop() {
			syntaxtest.Feed(s.New(func(syntax.Event) {}, opts), in.Bytes(), 4)
		}
	})
	for _, v := range native.Syntax.Variants {
		b.Run("parse+"+v.Name, func(b *testing.B) {
			b.SetBytes(int64(in.Len()))
			b.ReportAllocs()
			for b.Loop() {
				r := v.Render(io.Discard, opts)
				syntaxtest.Feed(s.New(func(e syntax.Event) { r.Event(e) }, opts), in.Bytes(), 4)
				r.Close()
			}
		})
	}
}

// A response cut off while it wrote text (a truncated error outside any
// call) ends in the form's truncation, which reads back as the same text and
// a truncated error; a cut after complete calls leaves them calls.
func TestStreamCutText(t *testing.T) {
	cut := syntax.Event{Type: syntax.Error, Code: syntax.CodeTruncated, Message: "the message was cut off (finish_reason length): its last text is incomplete"}
	text := syntax.Event{Type: syntax.Respond, Content: "The three largest cities are"}
	call := syntax.Event{Type: syntax.Call, Name: "ls", Args: json.RawMessage(`{"path":"."}`), ID: "call_1"}
	end := syntax.Event{Type: syntax.End}
	for _, v := range native.Syntax.Variants {
		if v.Render == nil {
			continue
		}
		for _, c := range []struct {
			name string
			evs  []syntax.Event
			want []syntax.Type
		}{
			{"text", []syntax.Event{text, cut, end}, []syntax.Type{syntax.Respond, syntax.Error, syntax.End}},
			{"nothing", []syntax.Event{cut, end}, []syntax.Type{syntax.End}},
			{"calls", []syntax.Event{text, call, cut, end}, []syntax.Type{syntax.Respond, syntax.Call, syntax.Execute, syntax.End}},
		} {
			stream, _ := encode(t, v, c.evs)
			back := syntax.Parse(native.Syntax, stream, syntax.Options{})
			var got []syntax.Type
			for _, e := range back {
				if e.Type == syntax.Usage {
					continue // the form's counts (zeros): TestStreamUsage
				}
				got = append(got, e.Type)
				if e.Type == syntax.Error && (e.Code != syntax.CodeTruncated || e.Raw != "") {
					t.Errorf("%s/%s: %+v, want a truncated error with no raw", v.Name, c.name, e)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s/%s: read back %v, want %v\nstream:\n%s", v.Name, c.name, got, c.want, stream)
			}
		}
	}
}

// A usage event reaches every stream form's counts, before the calls' stop
// or after it (a Chat stream's usage chunk follows its finish chunk), and
// reads back as the same counts, but those the form has no field for.
func TestStreamUsage(t *testing.T) {
	usage := syntax.Event{Type: syntax.Usage, Value: json.RawMessage(`{"input_tokens":1200,"output_tokens":90,"cached_input_tokens":1024,"reasoning_tokens":40}`)}
	text := syntax.Event{Type: syntax.Respond, Content: "Looking."}
	call := syntax.Event{Type: syntax.Call, Name: "ls", Args: json.RawMessage(`{"path":"."}`), ID: "call_1"}
	execute, end := syntax.Event{Type: syntax.Execute}, syntax.Event{Type: syntax.End}
	want := map[string]string{
		"openai":           `{"input_tokens":1200,"output_tokens":90,"cached_input_tokens":1024,"reasoning_tokens":40}`,
		"openai-responses": `{"input_tokens":1200,"output_tokens":90,"cached_input_tokens":1024,"reasoning_tokens":40}`,
		"gemini":           `{"input_tokens":1200,"output_tokens":90,"cached_input_tokens":1024,"reasoning_tokens":40}`,
		"anthropic":        `{"input_tokens":1200,"output_tokens":90,"cached_input_tokens":1024,"reasoning_tokens":40}`,
		"ollama":           `{"input_tokens":1200,"output_tokens":90}`,
	}
	for _, v := range native.Syntax.Variants {
		if v.Render == nil {
			continue
		}
		for _, evs := range [][]syntax.Event{
			{usage, end}, // an empty reply's counts
			{text, usage, end},
			{text, call, execute, usage, end},
			{text, call, usage, execute, end},
		} {
			stream, _ := encode(t, v, evs)
			var got []string
			calls := 0
			for _, e := range syntax.Parse(native.Syntax, stream, syntax.Options{}) {
				switch e.Type {
				case syntax.Usage:
					got = append(got, string(e.Value))
				case syntax.Call:
					calls++
				}
			}
			wantCalls := 0
			if len(evs) > 3 {
				wantCalls = 1
			}
			if len(got) != 1 || got[0] != want[v.Name] || calls != wantCalls {
				t.Errorf("%s, %d events: usage read back %v (%d calls), want %s\nstream:\n%s", v.Name, len(evs), got, calls, want[v.Name], stream)
			}
		}
	}
}

// TestStreamRepeatedID: two calls of one response with one id (a model's
// greedy sampling repeats its "random" ids) are written with distinct ids in
// every stream form that carries ids — the second made, and reported — so
// that the SDKs take the stream (OpenAI's Node SDK refuses a repeated
// Responses call_id) and the results that answer it can be told apart.
func TestStreamRepeatedID(t *testing.T) {
	evs := []syntax.Event{
		{Type: syntax.Call, Name: "get_weather", Args: json.RawMessage(`{"city":"Seoul"}`), ID: "0000000000"},
		{Type: syntax.Call, Name: "get_time", Args: json.RawMessage(`{"tz":"UTC"}`), ID: "0000000000"},
		{Type: syntax.Execute}, {Type: syntax.End},
	}
	for _, v := range native.Syntax.Variants {
		if v.Render == nil {
			continue
		}
		var buf bytes.Buffer
		err := syntax.Render(v.Render(&buf, syntax.Options{Mode: syntax.TokenMode}), evs)
		var ids []string
		for _, e := range syntax.Parse(native.Syntax, buf.Bytes(), syntax.Options{}) {
			if e.Type == syntax.Call && !e.Partial {
				ids = append(ids, e.ID)
			}
		}
		if len(ids) != 2 {
			t.Errorf("%s: read back calls with ids %q, want two", v.Name, ids)
			continue
		}
		if ids[0] == "" && ids[1] == "" {
			continue // a form with no ids (Gemini, Ollama)
		}
		if ids[0] != "0000000000" || ids[1] == ids[0] {
			t.Errorf("%s: ids %q, want the first kept and the second another", v.Name, ids)
		}
		if err == nil || !strings.Contains(err.Error(), `the id "0000000000" of call get_time repeats`) {
			t.Errorf("%s: report %v", v.Name, err)
		}
	}
}

// TestRenderRepeatedID: the whole renderers write the second of two calls
// of a batch with one id under a made id, say so, and give the results that
// answer the calls, in their order, the ids written.
func TestRenderRepeatedID(t *testing.T) {
	evs := []syntax.Event{
		{Type: syntax.Call, Name: "get_weather", Args: json.RawMessage(`{"city":"Seoul"}`), ID: "0000000000"},
		{Type: syntax.Call, Name: "get_time", Args: json.RawMessage(`{"tz":"UTC"}`), ID: "0000000000"},
		{Type: syntax.Execute},
		{Type: syntax.Result, Tool: "get_weather", ID: "0000000000", Status: syntax.Success, Value: json.RawMessage(`"sunny"`)},
		{Type: syntax.Result, Tool: "get_time", ID: "0000000000", Status: syntax.Success, Value: json.RawMessage(`"noon"`)},
		{Type: syntax.End},
	}
	for _, v := range native.Syntax.Variants {
		if v.Render == nil {
			continue
		}
		var buf bytes.Buffer
		err := syntax.Render(v.Render(&buf, syntax.Options{}), evs)
		var calls, results []string
		for _, e := range syntax.Parse(native.Syntax, buf.Bytes(), syntax.Options{}) {
			switch e.Type {
			case syntax.Call:
				calls = append(calls, e.ID)
			case syntax.Result:
				results = append(results, e.ID)
			}
		}
		if len(calls) != 2 {
			t.Errorf("%s: read back calls with ids %q, want two", v.Name, calls)
			continue
		}
		if calls[0] != "0000000000" || calls[1] == calls[0] {
			t.Errorf("%s: ids %q, want the first kept and the second another", v.Name, calls)
		}
		if len(results) != 2 || results[0] != calls[0] || results[1] != calls[1] {
			t.Errorf("%s: results' ids %q, want the calls' %q", v.Name, results, calls)
		}
		if err == nil || !strings.Contains(err.Error(), `the id "0000000000" of call get_time repeats`) {
			t.Errorf("%s: report %v", v.Name, err)
		}
	}
}
