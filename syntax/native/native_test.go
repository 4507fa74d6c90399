package native_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

func corpus(tb testing.TB) [][]byte { return syntaxtest.Inputs(tb, goldens) }

// goldens is the folder of the syntax's golden cases.
const goldens = "testdata"

var _ = flag.Bool("update", false, "rewrite the golden cases' expected events from the parser's output")

// TestGoldens runs every golden case of the syntax at every chunking, in
// both modes, with the conformance kit's checks and a round trip.
func TestGoldens(t *testing.T) { syntaxtest.RunGoldens(t, native.Syntax, goldens) }

func TestGarbage(t *testing.T) {
	if err := syntaxtest.Garbage(native.Syntax, corpus(t), 3000, 5); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks the conformance kit's invariants on any input.
func FuzzParse(f *testing.F) { syntaxtest.Fuzz(f, native.Syntax, goldens, nil) }

// openAIDeltas is a Chat Completions stream whose one call's arguments arrive
// one character per chunk.
func openAIDeltas(args string) []byte {
	var b bytes.Buffer
	b.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":""}}]},"finish_reason":null}]}` + "\n\n")
	for _, r := range args {
		frag, _ := json.Marshal(string(r))
		fmt.Fprintf(&b, `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":%s}}]},"finish_reason":null}]}`+"\n\n", frag)
	}
	b.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n")
	return b.Bytes()
}

// anthropicDeltas is the same as an Anthropic stream.
func anthropicDeltas(args string) []byte {
	var b bytes.Buffer
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write\",\"input\":{}}}\n\n")
	for _, r := range args {
		frag, _ := json.Marshal(string(r))
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":%s}}\n\n", frag)
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n")
	return b.Bytes()
}

func bigArgs(n int) string {
	content := strings.Repeat("x", n)
	return `{"path":"big.txt","content":"` + content + `"}`
}

// The quirk of arguments streamed as 100,000 one-character deltas, in both
// shapes: one call with all of them, byte for byte.
func TestHundredThousandDeltas(t *testing.T) {
	args := bigArgs(100_000)
	for name, in := range map[string][]byte{"openai": openAIDeltas(args), "anthropic": anthropicDeltas(args)} {
		evs := syntax.ParseChunks(native.Syntax, syntaxtest.Split(in, 4096), syntax.Options{})
		if len(evs) != 3 || evs[0].Type != syntax.Call || evs[1].Type != syntax.Execute {
			t.Fatalf("%s: %d events, first %v", name, len(evs), evs[0].Type)
		}
		if string(evs[0].Args) != args {
			t.Errorf("%s: arguments differ (%d bytes, want %d)", name, len(evs[0].Args), len(args))
		}
	}
}

func benchParse(b *testing.B, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p := native.Syntax.New(func(syntax.Event) {}, syntax.Options{})
		syntaxtest.Feed(p, in, chunk)
	}
}

// BenchmarkOneCharDeltas streams a call's arguments as one-character deltas:
// 100 KB and 1 MB of arguments, so linear cost shows as equal MB/s.
func BenchmarkOneCharDeltas(b *testing.B) {
	for _, size := range []int{100_000, 1_000_000} {
		args := bigArgs(size)
		b.Run(fmt.Sprintf("openai/%dKB", size/1000), func(b *testing.B) { benchParse(b, openAIDeltas(args), 64<<10) })
		b.Run(fmt.Sprintf("anthropic/%dKB", size/1000), func(b *testing.B) { benchParse(b, anthropicDeltas(args), 64<<10) })
	}
}

// TestOllamaStreamCut: an Ollama stream cut off inside the line of its
// second call. The first call was whole when it came, so it is a call; the
// cut line is a truncated document, never a call; the message, never done,
// gets no execute. (Not a golden case: calls without an execute cannot be
// rendered back, and golden cases are held to a round trip.) Shape as in
// Ollama's API documentation; values ours.
func TestOllamaStreamCut(t *testing.T) {
	in := []byte(`{"model":"qwen3","created_at":"2025-06-01T10:00:00Z","message":{"role":"assistant","content":"Reading it."},"done":false}
{"model":"qwen3","created_at":"2025-06-01T10:00:01Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"read_file","arguments":{"path":"a.txt"}}}]},"done":false}
{"model":"qwen3","created_at":"2025-06-01T10:00:02Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"write_file","arguments":{"path":"b.t`)
	want := `{"type":"respond","content":"Reading it."}
{"type":"call","name":"read_file","args":{"path":"a.txt"}}
{"type":"error","code":"truncated","message":"truncated JSON document: the stream ended inside it","offset":311,"line":3,"column":1,"raw":"{\"model\":\"qwen3\",\"created_at\":\"2025-06-01T10:00:02Z\",\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"write_file\",\"arguments\":{\"path\":\"b.t"}
{"type":"error","code":"truncated","message":"the stream ended before the message did: its 1 call(s) get no execute","offset":122,"line":2,"column":1}
{"type":"end"}
`
	for _, n := range []int{len(in), 1, 7} {
		got := syntaxtest.EncodeJSONL(syntax.ParseChunks(native.Syntax, syntaxtest.Split(in, n), syntax.Options{}))
		if string(got) != want {
			t.Errorf("in %d-byte chunks:\n%s\nwant:\n%s", n, got, want)
		}
	}
}

// BenchmarkWholeResponse reads one whole response holding one call of 300
// KB of Go source (quotes, braces, backslashes, newlines) in each
// provider's form, as native's renderers write it, checked to read back as
// exactly that call; beside each, encoding/json.Valid over the same
// response, and over the response and its arguments, in the same run. The
// Chat and Responses forms carry the arguments as a JSON string (decoded,
// then read as JSON), the others as an object.
func BenchmarkWholeResponse(b *testing.B) {
	var code strings.Builder
	for i := 0; code.Len() < 300<<10; i++ {
		fmt.Fprintf(&code, "func f%d(x string) string { return \"<\" + x + \">\\n\" } // {%d}\n", i, i)
	}
	args, _ := json.Marshal(map[string]string{"path": "big.go", "content": code.String()})
	evs := []syntax.Event{{Type: syntax.Call, Name: "write", ID: "call_1", Args: args}, {Type: syntax.Execute}}
	for _, f := range native.Syntax.Variants { // anthropic, openai, openai-responses, gemini, ollama
		if f.Render == nil {
			continue
		}
		var buf bytes.Buffer
		if err := syntax.Render(f.Render(&buf, syntax.Options{}), evs); err != nil {
			b.Fatal(err)
		}
		in := buf.Bytes()
		got := syntax.Parse(native.Syntax, in, syntax.Options{})
		if len(got) != 3 || got[0].Type != syntax.Call || string(got[0].Args) != string(args) {
			b.Fatalf("%s: the response does not read back as its call: %d events, first %v", f.Name, len(got), got[0])
		}
		b.Run(f.Name+"/native", func(b *testing.B) { benchParse(b, in, len(in)) })
		b.Run(f.Name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if !json.Valid(in) {
					b.Fatal("not one JSON document")
				}
			}
		})
		// What a reader must do at least where the arguments are a JSON
		// string: check the response, and the arguments in it as JSON.
		b.Run(f.Name+"/json.Valid+arguments", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if !json.Valid(in) || !json.Valid(args) {
					b.Fatal("not JSON")
				}
			}
		})
	}
}

// TestWriteNotKept: a long document read where it is, in the bytes of
// one Write, leaves nothing in the parser pointing into them (a Write
// must not keep its caller's buffer): the buffer is collected while the
// parser lives on.
func TestWriteNotKept(t *testing.T) {
	var evs []syntax.Event
	p := native.Syntax.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{})
	freed := make(chan struct{})
	func() {
		in := fmt.Appendf(nil, `{"type":"message","role":"assistant","content":[{"type":"text","text":"%s"},{"type":"tool_use","id":"toolu_1","name":"write","input":{"content":"%s"}}],"stop_reason":"tool_use"}`,
			strings.Repeat("Some text. ", 1000), strings.Repeat("x", 8000))
		runtime.AddCleanup(&in[0], func(ch chan struct{}) { close(ch) }, freed)
		p.Write(in)
	}()
	for range 5 {
		runtime.GC()
		select {
		case <-freed:
			if len(evs) != 3 || evs[1].Type != syntax.Call {
				t.Fatalf("the response did not read as text and a call: %v", evs)
			}
			runtime.KeepAlive(p)
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatal("the written bytes were not collected: the parser keeps a pointer into them")
}

// TestKitCatchesSilentDrop: a parser that drops what a document holds
// without a word (as native once did with a Gemini Content on its own line)
// gives, for that document alone, nothing either; the kit's nothing-lost
// check catches it anyway, through Syntax.Quiet, which says what may be
// silent.
func TestKitCatchesSilentDrop(t *testing.T) {
	in := []byte(`{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}}]}` + "\n" +
		`{"type":"ping"}` + "\n")
	faulty := native.Syntax
	faulty.New = func(h syntax.Handler, opts syntax.Options) syntax.Parser {
		return native.Syntax.New(func(e syntax.Event) {
			if e.Type == syntax.Call || e.Type == syntax.Execute {
				return // dropped without a word
			}
			h(e)
		}, opts)
	}
	err := syntaxtest.Check(faulty, in, syntaxtest.Config{})
	if err == nil || !strings.Contains(err.Error(), "silent drop") {
		t.Errorf("the kit did not catch the dropped call: %v", err)
	}
	if err := syntaxtest.Check(native.Syntax, in, syntaxtest.Config{}); err != nil {
		t.Errorf("native: %v", err)
	}
}
