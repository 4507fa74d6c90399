package native_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// A costed stream is n documents made one at a time by gen (so that a
// stream of a million documents is never held whole), between head and tail
// documents, each sent as an SSE data line.
type costed struct {
	head, tail []string
	gen        func(dst []byte, i int) []byte
}

// feed writes the stream to p in 64 KiB writes.
func (s costed) feed(p syntax.Parser, n int) {
	buf := make([]byte, 0, 80<<10)
	doc := make([]byte, 0, 512)
	put := func(d []byte) {
		buf = append(buf, "data: "...)
		buf = append(buf, d...)
		buf = append(buf, "\n\n"...)
		if len(buf) >= 64<<10 {
			p.Write(buf)
			buf = buf[:0]
		}
	}
	for _, h := range s.head {
		put([]byte(h))
	}
	for i := range n {
		doc = s.gen(doc[:0], i)
		put(doc)
	}
	for _, t := range s.tail {
		put([]byte(t))
	}
	p.Write(buf)
	p.Close()
}

// valid is the baseline: encoding/json.Valid over the same documents, made
// the same way.
func (s costed) valid(n int) bool {
	ok := true
	for _, h := range s.head {
		ok = json.Valid([]byte(h)) && ok
	}
	doc := make([]byte, 0, 512)
	for i := range n {
		doc = s.gen(doc[:0], i)
		ok = json.Valid(doc) && ok
	}
	for _, t := range s.tail {
		ok = json.Valid([]byte(t)) && ok
	}
	return ok
}

var costStreams = map[string]costed{
	// One call whose name comes in pieces, one a chunk (a name must not be
	// concatenated anew for each piece).
	"name-pieces": {
		head: []string{`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"n","arguments":""}}]}}]}`},
		gen: func(dst []byte, i int) []byte {
			return append(dst, `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"x"}}]}}]}`...)
		},
		tail: []string{`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`},
	},
	// One call whose arguments come one character a chunk.
	"arg-deltas": {
		head: []string{`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":"{\"s\":\""}}]}}]}`},
		gen: func(dst []byte, i int) []byte {
			return append(dst, `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}}]}`...)
		},
		tail: []string{`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}}]}`,
			`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`},
	},
	// Calls that each start, get their input and stop, in one message:
	// each content_block_stop must find its call without a search, and
	// the id → name table stays within MaxBlock. Three documents a call.
	"anthropic-calls": {
		head: []string{`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`},
		gen: func(dst []byte, i int) []byte {
			k := i / 3
			switch i % 3 {
			case 0:
				dst = append(dst, `{"type":"content_block_start","index":`...)
				dst = strconv.AppendInt(dst, int64(k), 10)
				dst = append(dst, `,"content_block":{"type":"tool_use","id":"toolu_`...)
				dst = strconv.AppendInt(dst, int64(k), 10)
				return append(dst, `","name":"read","input":{}}}`...)
			case 1:
				dst = append(dst, `{"type":"content_block_delta","index":`...)
				dst = strconv.AppendInt(dst, int64(k), 10)
				return append(dst, `,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`...)
			}
			dst = append(dst, `{"type":"content_block_stop","index":`...)
			dst = strconv.AppendInt(dst, int64(k), 10)
			return append(dst, `}`...)
		},
		tail: []string{`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`, `{"type":"message_stop"}`},
	},
	// The same in an OpenAI Responses stream: output_item.done ends each.
	"responses-calls": {
		gen: func(dst []byte, i int) []byte {
			k := int64(i / 3)
			switch i % 3 {
			case 0:
				dst = append(dst, `{"type":"response.output_item.added","output_index":`...)
				dst = strconv.AppendInt(dst, k, 10)
				dst = append(dst, `,"item":{"type":"function_call","id":"fc_`...)
				dst = strconv.AppendInt(dst, k, 10)
				dst = append(dst, `","call_id":"call_`...)
				dst = strconv.AppendInt(dst, k, 10)
				return append(dst, `","name":"read","arguments":""}}`...)
			case 1:
				dst = append(dst, `{"type":"response.function_call_arguments.delta","output_index":`...)
				dst = strconv.AppendInt(dst, k, 10)
				dst = append(dst, `,"item_id":"fc_`...)
				dst = strconv.AppendInt(dst, k, 10)
				return append(dst, `","delta":"{\"a\":1}"}`...)
			}
			dst = append(dst, `{"type":"response.output_item.done","output_index":`...)
			dst = strconv.AppendInt(dst, k, 10)
			dst = append(dst, `,"item":{"type":"function_call","id":"fc_`...)
			dst = strconv.AppendInt(dst, k, 10)
			dst = append(dst, `","call_id":"call_`...)
			dst = strconv.AppendInt(dst, k, 10)
			return append(dst, `","name":"read","arguments":"{\"a\":1}"}}`...)
		},
		tail: []string{`{"type":"response.completed","response":{"status":"completed"}}`},
	},
	// Calls that are all open at once until the response completes: past
	// MaxBlock, each further one is an over_limit error, and memory stays
	// bounded.
	"open-calls": {
		gen: func(dst []byte, i int) []byte {
			dst = append(dst, `{"type":"response.output_item.added","output_index":`...)
			dst = strconv.AppendInt(dst, int64(i), 10)
			dst = append(dst, `,"item":{"type":"function_call","id":"fc_`...)
			dst = strconv.AppendInt(dst, int64(i), 10)
			dst = append(dst, `","call_id":"call_`...)
			dst = strconv.AppendInt(dst, int64(i), 10)
			return append(dst, `","name":"read","arguments":"{}"}}`...)
		},
		tail: []string{`{"type":"response.completed","response":{"status":"completed"}}`},
	},
}

// BenchmarkCost feeds each costed stream with 1k to 1M documents (deltas
// or call events) and reports the time per document: flat when no cost
// grows with the number of calls or pieces seen. Beside each, the baseline:
// encoding/json.Valid over the same documents, made the same way.
func BenchmarkCost(b *testing.B) {
	for _, name := range []string{"name-pieces", "arg-deltas", "anthropic-calls", "responses-calls", "open-calls"} {
		s := costStreams[name]
		for _, n := range []int{1_000, 10_000, 100_000, 1_000_000} {
			b.Run(fmt.Sprintf("%s/%d/native", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s.feed(native.Syntax.New(func(syntax.Event) {}, syntax.Options{}), n)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/doc")
			})
			b.Run(fmt.Sprintf("%s/%d/json.Valid", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if !s.valid(n) {
						b.Fatal("invalid document")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/doc")
			})
		}
	}
}

// count counts events by type, keeping none.
func count(into map[syntax.Type]int) syntax.Handler {
	return func(e syntax.Event) { into[e.Type]++ }
}

// TestOpenCallsBounded: 160,000 calls open at once at MaxBlock 100000 (it
// took 259 MB when open calls were not counted): those past the limit are
// over_limit errors, the others calls, and the heap grows by a few MB at
// most.
func TestOpenCallsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("160,000 documents")
	}
	n := 160_000
	evs := map[syntax.Type]int{}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p := native.Syntax.New(count(evs), syntax.Options{MaxBlock: 100_000})
	s := costStreams["open-calls"]
	s.tail = nil // measured while every call is open
	s.feed(&holdClose{p: p}, n)
	runtime.GC()
	runtime.ReadMemStats(&after)
	p.Write([]byte("data: " + costStreams["open-calls"].tail[0] + "\n\n"))
	p.Close()
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d open calls at MaxBlock 100000: heap grew %.1f MB; %d calls, %d errors", n, float64(grew)/1e6, evs[syntax.Call], evs[syntax.Error])
	if grew > 16<<20 {
		t.Errorf("the heap grew by %d bytes", grew)
	}
	if evs[syntax.Call]+evs[syntax.Error] != n || evs[syntax.Call] == 0 || evs[syntax.Execute] != 1 {
		t.Errorf("want every call a call or an error, and one execute: %v", evs)
	}
}

// holdClose passes writes on, but not Close.
type holdClose struct{ p syntax.Parser }

func (h *holdClose) Write(b []byte) (int, error) { return h.p.Write(b) }
func (h *holdClose) Close() error                { return nil }

// TestNamePiecesLinear: a name streamed in 160,000 pieces (it took 15 s
// when each piece made the name anew) is one name of 160,001 bytes.
func TestNamePiecesLinear(t *testing.T) {
	var got []syntax.Event
	p := native.Syntax.New(func(e syntax.Event) { got = append(got, e) }, syntax.Options{})
	costStreams["name-pieces"].feed(p, 160_000)
	if len(got) != 3 || got[0].Type != syntax.Call || len(got[0].Name) != 160_001 {
		t.Fatalf("want one call named by 160,001 bytes, then execute and end; got %d events, first %v", len(got), got[0].Type)
	}
}

// smallDeltas is a stream of n documents, each a delta of 1 to 4
// characters (in turn) of the arguments of one call or of text, in a
// provider's shape: the stream as SSE data lines, and its documents.
func smallDeltas(shape string, n int) (stream []byte, docs [][]byte) {
	const src = `{"path":"src/main.go","content":"package main\n\nfunc main() {\n\tprintln(\"héllo\")\n}\n"}`
	var head, tail []string
	var doc func(piece []byte) string
	switch shape {
	case "chat-args":
		head = []string{`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":""}}]},"finish_reason":null}]}`}
		doc = func(p []byte) string {
			return `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":` + string(p) + `}}]},"finish_reason":null}]}`
		}
		tail = []string{`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`}
	case "chat-text":
		doc = func(p []byte) string {
			return `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":` + string(p) + `},"finish_reason":null}]}`
		}
		tail = []string{`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`}
	case "anthropic-args":
		head = []string{`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"write","input":{}}}`}
		doc = func(p []byte) string {
			return `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":` + string(p) + `}}`
		}
		tail = []string{`{"type":"content_block_stop","index":0}`, `{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`, `{"type":"message_stop"}`}
	case "anthropic-text":
		head = []string{`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`}
		doc = func(p []byte) string {
			return `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + string(p) + `}}`
		}
		tail = []string{`{"type":"content_block_stop","index":0}`, `{"type":"message_stop"}`}
	case "responses-args":
		head = []string{`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"write","arguments":""}}`}
		doc = func(p []byte) string {
			return `{"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_1","output_index":0,"delta":` + string(p) + `}`
		}
		tail = []string{`{"type":"response.completed","response":{"status":"completed"}}`}
	case "ollama-text":
		doc = func(p []byte) string {
			return `{"model":"qwen3","created_at":"2025-06-01T10:00:00Z","message":{"role":"assistant","content":` + string(p) + `},"done":false}`
		}
		tail = []string{`{"model":"qwen3","created_at":"2025-06-01T10:00:00Z","message":{"role":"assistant","content":""},"done":true}`}
	default:
		panic(shape)
	}
	runes := []rune(src)
	var b []byte
	put := func(d string) {
		docs = append(docs, []byte(d))
		b = append(b, "data: "...)
		b = append(b, d...)
		b = append(b, "\n\n"...)
	}
	for _, h := range head {
		put(h)
	}
	at := 0
	for i := range n {
		k := 1 + i%4
		var piece []rune
		for range k {
			piece = append(piece, runes[at%len(runes)])
			at++
		}
		q, _ := json.Marshal(string(piece))
		put(doc(q))
	}
	for _, t := range tail {
		put(t)
	}
	return b, docs
}

// BenchmarkSmallDeltas: streams of 1-to-4-character deltas of a call's
// arguments or of text, in each provider's shape (issue 21: within 1.5× of
// encoding/json.Valid over the same documents), fed in 64 KiB writes, with
// the baseline in the same run. ns/doc is per document.
func BenchmarkSmallDeltas(b *testing.B) {
	const n = 100_000
	for _, shape := range []string{"chat-args", "chat-text", "anthropic-args", "anthropic-text", "responses-args", "ollama-text"} {
		stream, docs := smallDeltas(shape, n)
		for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
			b.Run(fmt.Sprintf("%s/native-%s", shape, mode), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p := native.Syntax.New(func(syntax.Event) {}, syntax.Options{Mode: mode})
					for s := stream; len(s) > 0; {
						k := min(len(s), 64<<10)
						p.Write(s[:k])
						s = s[k:]
					}
					p.Close()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
			})
		}
		b.Run(shape+"/json.Valid", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range docs {
					if !json.Valid(d) {
						b.Fatal("invalid document")
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
		})
	}
}
