package native_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// run parses in, in chunks of n bytes (0: whole), with the fast path or
// without it, and returns the events as JSON lines and how many documents
// the fast path read.
func run(in []byte, opts syntax.Options, n int, general bool) (string, int) {
	var evs []syntax.Event
	h := func(e syntax.Event) { evs = append(evs, e) }
	var p syntax.Parser
	if general {
		p = native.NewGeneral(h, opts)
	} else {
		p = native.Syntax.New(h, opts)
	}
	if n <= 0 {
		n = len(in) + 1
	}
	for _, c := range syntaxtest.Split(in, n) {
		p.Write(c)
	}
	p.Close()
	return string(syntaxtest.EncodeJSONL(evs)), native.FastReads(p)
}

// agree checks that the fast path and the general reader give the same
// events for in, in both modes; it returns the documents the fast path read.
func agree(t *testing.T, name string, in []byte, n int) int {
	t.Helper()
	read := 0
	for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
		opts := syntax.Options{Mode: mode}
		fast, k := run(in, opts, n, false)
		general, _ := run(in, opts, n, true)
		read += k
		if fast != general {
			t.Errorf("%s (%v, %d-byte chunks): the fast path gives\n%s\nthe general reader\n%s\ninput:\n%s", name, mode, n, fast, general, clipped2(in))
		}
	}
	return read
}

func clipped2(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

// deltaStreams are streams of the shapes the fast path reads, with the
// variations it must leave alone or read as the general reader does.
var deltaStreams = []string{
	// Chat: text, reasoning of each kind, parallel calls, ids and names again,
	// a name in pieces, arguments with escapes, no index, finish.
	`data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{"reasoning_content":"Let me think.","reasoning":"Let me think."}}]}

data: {"choices":[{"index":0,"delta":{"reasoning":" More.","content":null}}]}

data: {"choices":[{"index":0,"delta":{"thinking":" And \u00e9\n."}}]}

data: {"choices":[{"index":0,"delta":{"content":"Hi \"there\"\u2028!"}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get","arguments":""}},{"index":1,"id":"call_2","function":{"name":"pu","arguments":"{\"a\""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"get","arguments":"{\"q\":\"\u00e9\\n\"}"}},{"index":1,"function":{"name":"t","arguments":":1}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":""}}]}}]}

data: {"choices":[],"usage":{"total_tokens":3}}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]
`,
	// Chat: two calls sharing an index with different ids, an index of -1.
	`data: {"choices":[{"delta":{"tool_calls":[{"index":-1,"id":"a","function":{"name":"x","arguments":"{}"}}]}}]}
data: {"choices":[{"delta":{"tool_calls":[{"index":-1,"id":"b","function":{"name":"y","arguments":"{\"k\":"}}]}}]}
data: {"choices":[{"delta":{"tool_calls":[{"index":-1,"function":{"arguments":"2}"}}]}}]}
data: {"choices":[{"delta":{},"finish_reason":"stop"}]}
`,
	// Anthropic: text, thinking, a call's input in pieces, stops.
	`event: message_start
data: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[]}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}

data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm \u00e9."}}

data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}

data: {"type":"content_block_stop","index":0}

data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Sure \"x\"."}}

data: {"type":"content_block_stop","index":1}

data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t1","name":"get","input":{}}}

data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}

data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"q\": \"a\\\"b\"}"}}

data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"x"}}

data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"no index"}}

data: {"type":"content_block_stop","index":2}

data: {"type":"message_delta","delta":{"stop_reason":"tool_use"}}

data: {"type":"message_stop"}
`,
	// Responses: text, reasoning, a call by item id and one by output index.
	`data: {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"get","arguments":""}}
data: {"type":"response.reasoning_summary_text.delta","item_id":"rs","output_index":0,"delta":"Think."}
data: {"type":"response.reasoning_text.delta","delta":"More."}
data: {"type":"response.output_text.delta","item_id":"msg","output_index":1,"content_index":0,"delta":"Hello \u00e9"}
data: {"type":"response.output_text.delta","delta":null}
data: {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"a\":"}
data: {"type":"response.function_call_arguments.delta","output_index":0,"delta":"1"}
data: {"type":"response.function_call_arguments.delta","item_id":"zz","output_index":0,"delta":"}"}
data: {"type":"response.function_call_arguments.delta","item_id":"none","delta":"x"}
data: {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"get","arguments":"{\"a\":1}"}}
data: {"type":"response.completed","response":{"status":"completed"}}
`,
	// Ollama /api/chat and /api/generate.
	`{"model":"m","created_at":"t","message":{"role":"assistant","content":"","thinking":"Hmm."},"done":false}
{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi \u00e9"},"done":false}
{"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get","arguments":{"q":1}}}]},"done":false}
{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}
{"model":"m","created_at":"t","response":"Gen","thinking":"T","done":false}
{"model":"m","created_at":"t","response":"","done":null}
{"model":"m","created_at":"t","response":"","done":true}
`,
}

// TestFastPathAgrees holds the fast path to the general reader: on every
// golden input, on streams of the delta shapes, and on each of their
// documents with one value changed (to each kind, null, an escape, a
// number that is no integer), one member repeated (the first counts), one
// key escaped, or one array element repeated (a second choice, a fifth
// call), the events are the same. It also checks that the fast path reads
// the delta streams' documents at all.
func TestFastPathAgrees(t *testing.T) {
	gs, err := syntaxtest.ReadGoldens(goldens)
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{}
	for _, g := range gs {
		inputs[g.Path] = g.Input
	}
	for i, s := range deltaStreams {
		name := fmt.Sprintf("deltaStreams[%d]", i)
		inputs[name] = []byte(s)
		if read := agree(t, name, []byte(s), 0); read == 0 {
			t.Errorf("%s: the fast path read no document", name)
		}
	}
	repl := []string{`"x"`, `""`, `"\u00e9\"\\n"`, `0`, `7`, `-1`, `1.5`, `1e2`, `123456789012345678901`, `true`, `false`, `null`, `{}`, `{"a":1}`, `[]`, `["x",{}]`}
	if !syntaxtest.Full() || testing.Short() { // every replacement when CI asks for the full suite (TOOLPARSE_FULL)
		repl = []string{`"x"`, `7`, `1.5`, `null`, `{}`, `[]`}
	}
	var variants, fastRead atomic.Int64
	t.Run("inputs", func(t *testing.T) {
		for name, in := range inputs {
			t.Run(filepath.Base(name), func(t *testing.T) {
				t.Parallel() // each input is independent: the test uses every core
				for _, n := range []int{0, 7} {
					agree(t, name, in, n)
				}
				for _, doc := range documents(in) {
					if !strings.Contains(string(doc), `"choices"`) && !strings.Contains(string(doc), `"type"`) && !strings.Contains(string(doc), `"done"`) {
						continue
					}
					for _, v := range values(in, doc) {
						var muts [][]byte
						for _, r := range repl {
							muts = append(muts, splice(in, v.start, v.end, r))
						}
						if v.keyStart >= 0 {
							key := string(in[v.keyStart:v.keyEnd])
							// The member again after itself, with another value;
							// before itself; the key escaped.
							muts = append(muts,
								splice(in, v.end, v.end, `,"`+key+`":"dup"`),
								splice(in, v.keyStart-1, v.keyStart-1, `"`+key+`":"dup",`),
								splice(in, v.keyStart, v.keyStart+1, fmt.Sprintf(`\u%04x`, key[0])))
						} else {
							muts = append(muts, splice(in, v.end, v.end, ","+string(in[v.start:v.end])))
						}
						for _, m := range muts {
							if bytes.Equal(m, in) {
								continue
							}
							variants.Add(1)
							fastRead.Add(int64(agree(t, name+" (mutated)", m, 0)))
							if t.Failed() {
								return
							}
						}
					}
				}
			})
		}
	})
	t.Logf("%d variants; the fast path read %d documents of them", variants.Load(), fastRead.Load())
}

// FuzzFastPath: on any input, the fast path gives the events the general
// reader gives (seeded with the delta streams, whose documents it reads).
func FuzzFastPath(f *testing.F) {
	for _, s := range deltaStreams {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
			opts := syntax.Options{Mode: mode}
			fast, _ := run(in, opts, 0, false)
			general, _ := run(in, opts, 0, true)
			if fast != general {
				t.Fatalf("%v: the fast path gives\n%s\nthe general reader\n%s", mode, fast, general)
			}
		}
	})
}
