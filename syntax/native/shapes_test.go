package native_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// events parses in at several chunkings, checks that they all give the same
// events, and returns those as JSON lines (without spans).
func events(t *testing.T, in string) string {
	t.Helper()
	whole := syntaxtest.EncodeJSONL(syntax.Parse(native.Syntax, []byte(in), syntax.Options{}))
	for _, n := range []int{1, 2, 7, 64} {
		got := syntaxtest.EncodeJSONL(syntax.ParseChunks(native.Syntax, syntaxtest.Split([]byte(in), n), syntax.Options{}))
		if !bytes.Equal(got, whole) {
			t.Fatalf("chunks of %d give other events:\n%s\nthan the whole input:\n%s", n, got, whole)
		}
	}
	return string(whole)
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// expect checks that in gives want at every chunking.
func expect(t *testing.T, in, want string) {
	t.Helper()
	if got := events(t, in); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

func TestGeminiStreamedArgs(t *testing.T) {
	part := func(fc string) string {
		return `data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":` + fc + `}]}}]}` + "\n\n"
	}
	stop := `data: {"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}` + "\n\n"
	whole := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"edit","args":{"path":"a.go","lines":[3,4],"dry":false,"note":null,"opts":{"mode":"fast"}}}}]},"finishReason":"STOP"}]}` + "\n"
	streamed := part(`{"name":"edit","willContinue":true}`) +
		part(`{"partialArgs":[{"jsonPath":"$.path","stringValue":"a.","willContinue":true}],"willContinue":true}`) +
		part(`{"partialArgs":[{"jsonPath":"$.path","stringValue":"go"}],"willContinue":true}`) +
		part(`{"partialArgs":[{"jsonPath":"$.lines[0]","numberValue":3},{"jsonPath":"$.lines[1]","numberValue":4}],"willContinue":true}`) +
		part(`{"partialArgs":[{"jsonPath":"$.dry","boolValue":false},{"jsonPath":"$.note","nullValue":"NULL_VALUE"}],"willContinue":true}`) +
		part(`{"partialArgs":[{"jsonPath":"$['opts'].mode","stringValue":"fast"}],"willContinue":true}`) +
		part(`{}`) + stop
	want := lines(`{"type":"call","name":"edit","args":{"path":"a.go","lines":[3,4],"dry":false,"note":null,"opts":{"mode":"fast"}}}`,
		`{"type":"execute"}`, `{"type":"end"}`)
	t.Run("whole", func(t *testing.T) { expect(t, whole, want) })
	t.Run("streamed", func(t *testing.T) { expect(t, streamed, want) })

	t.Run("closing part with the name", func(t *testing.T) {
		in := part(`{"name":"edit","willContinue":true}`) +
			part(`{"partialArgs":[{"jsonPath":"$.path","stringValue":"a.go"}],"willContinue":true}`) +
			part(`{"name":"edit"}`) + stop
		expect(t, in, lines(`{"type":"call","name":"edit","args":{"path":"a.go"}}`, `{"type":"execute"}`, `{"type":"end"}`))
	})
	t.Run("a new call before the last one closed", func(t *testing.T) {
		in := part(`{"name":"edit","willContinue":true}`) +
			part(`{"partialArgs":[{"jsonPath":"$.path","stringValue":"a.go"}],"willContinue":true}`) +
			part(`{"name":"read","willContinue":true}`) +
			part(`{"partialArgs":[{"jsonPath":"$.path","stringValue":"b.go"}]}`) + stop
		got := events(t, in)
		if !strings.Contains(got, `"code":"truncated"`) || !strings.Contains(got, `{"type":"call","name":"read","args":{"path":"b.go"}}`) || strings.Contains(got, `"name":"edit","args"`) {
			t.Errorf("want the unclosed call as a truncated error and the next one as a call:\n%s", got)
		}
	})
	t.Run("finish before the closing part", func(t *testing.T) {
		in := part(`{"name":"edit","willContinue":true}`) +
			part(`{"partialArgs":[{"jsonPath":"$.path","stringValue":"a.go"}],"willContinue":true}`) + stop
		got := events(t, in)
		if strings.Contains(got, `"type":"call"`) || strings.Contains(got, `"execute"`) || !strings.Contains(got, `"code":"truncated"`) {
			t.Errorf("a call never closed must be a truncated error, never a call:\n%s", got)
		}
	})
	t.Run("a value where an object is", func(t *testing.T) {
		in := part(`{"name":"edit","willContinue":true}`) +
			part(`{"partialArgs":[{"jsonPath":"$.opts.mode","stringValue":"x"}],"willContinue":true}`) +
			part(`{"partialArgs":[{"jsonPath":"$.opts","numberValue":1}]}`) + stop
		got := events(t, in)
		if strings.Contains(got, `"type":"call"`) || !strings.Contains(got, `"code":"malformed"`) {
			t.Errorf("conflicting paths must be a malformed error:\n%s", got)
		}
	})
	t.Run("bad path", func(t *testing.T) {
		in := part(`{"name":"edit","willContinue":true,"partialArgs":[{"jsonPath":"path","stringValue":"x"}]}`) + part(`{}`) + stop
		if got := events(t, in); !strings.Contains(got, `"code":"malformed"`) || strings.Contains(got, `"type":"call"`) {
			t.Errorf("a bad jsonPath must be a malformed error:\n%s", got)
		}
	})
	t.Run("over the limit", func(t *testing.T) {
		in := part(`{"name":"edit","willContinue":true}`)
		for range 50 {
			in += part(`{"partialArgs":[{"jsonPath":"$.text","stringValue":"0123456789"}],"willContinue":true}`)
		}
		in += part(`{}`) + stop
		got := syntaxtest.EncodeJSONL(syntax.Parse(native.Syntax, []byte(in), syntax.Options{MaxBlock: 300}))
		if !bytes.Contains(got, []byte(`"code":"over_limit"`)) || bytes.Contains(got, []byte(`"type":"call"`)) {
			t.Errorf("arguments over the limit must be an over_limit error:\n%s", got)
		}
		// A short path whose index would make a long array of nulls.
		in = part(`{"name":"edit","willContinue":true,"partialArgs":[{"jsonPath":"$.a[99999999]","numberValue":1}]}`) + part(`{}`) + stop
		got = syntaxtest.EncodeJSONL(syntax.Parse(native.Syntax, []byte(in), syntax.Options{MaxBlock: 300}))
		if !bytes.Contains(got, []byte(`"code":"over_limit"`)) || bytes.Contains(got, []byte(`"type":"call"`)) {
			t.Errorf("an index past the limit must be an over_limit error:\n%s", got)
		}
	})
}

// wholeAndStreamed pairs golden cases that hold one message streamed and
// whole: both must give the same events.
var wholeAndStreamed = [][2]string{
	{"anthropic-stream-web-search", "anthropic-whole-web-search"},
	{"anthropic-stream-mcp", "anthropic-whole-mcp"},
	{"anthropic-stream-web-fetch", "anthropic-whole-web-fetch"},
	{"openai-responses-stream-web-search", "openai-responses-whole-web-search"},
	{"openai-responses-stream-mcp", "openai-responses-whole-mcp"},
	{"mistral-stream-thinking-parts", "mistral-whole-thinking-parts"},
	{"anthropic-stream-refusal", "anthropic-whole-refusal"},
	{"openai-chat-stream-refusal", "openai-chat-whole-refusal"},
	{"openai-responses-stream-refusal", "openai-responses-whole-refusal"},
	{"openai-responses-stream-custom-tool", "openai-responses-whole-custom-tool"},
	{"openai-responses-stream-local-shell", "openai-responses-whole-local-shell"},
	{"openai-responses-stream-shell", "openai-responses-whole-shell"},
	{"openai-responses-stream-apply-patch", "openai-responses-whole-apply-patch"},
	{"gemini-stream-partial-args-nested", "gemini-whole-nested-args"},
	{"anthropic-stream-code-execution", "anthropic-whole-code-execution"},
}

func TestWholeAndStreamedAgree(t *testing.T) {
	for _, pair := range wholeAndStreamed {
		var evs [2][]byte
		for i, name := range pair {
			g, err := syntaxtest.ReadGolden(goldens + "/" + name + ".txtar")
			if err != nil {
				t.Fatal(err)
			}
			want, err := g.WantEvents()
			if err != nil {
				t.Fatal(err)
			}
			kept := want[:0]
			for _, e := range want {
				if e.Type == syntax.Usage {
					continue // recordings of two responses: their counts differ, or one has none
				}
				e.Pos = syntax.Pos{} // an error's position differs
				kept = append(kept, e)
			}
			evs[i] = syntaxtest.EncodeJSONL(kept)
		}
		if !bytes.Equal(evs[0], evs[1]) {
			t.Errorf("%s and %s give different events:\n%s\n%s", pair[0], pair[1], evs[0], evs[1])
		}
	}
}

// Parts, blocks and items the parser recognises but does not read are
// unsupported errors, never nothing; what is read around them still is.
func TestUnsupported(t *testing.T) {
	for name, in := range map[string]string{
		"anthropic whole block": `{"type":"message","role":"assistant","content":[{"type":"container_upload","file_id":"file_1"},{"type":"text","text":"Hi."}],"stop_reason":"end_turn"}` + "\n",
		"anthropic stream block": "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"container_upload\",\"file_id\":\"file_1\"}}\n\n" +
			"data: {\"type\":\"content_block_stop\",\"index\":0}\n\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"Hi.\"}}\n\n" +
			"data: {\"type\":\"content_block_stop\",\"index\":1}\n\ndata: {\"type\":\"message_stop\"}\n",
		"chat content part": `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":[{"type":"image_url","image_url":{"url":"data:"}},{"type":"text","text":"Hi."}]},"finish_reason":"stop"}]}` + "\n",
		"responses item":    `{"object":"response","status":"completed","output":[{"type":"compaction","id":"cmp_1","encrypted_content":"x"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi."}]}]}` + "\n",
		"gemini part":       `{"candidates":[{"content":{"role":"model","parts":[{"executableCode":{"language":"PYTHON","code":"print(1)"}},{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1\n"}},{"text":"Hi."}]},"finishReason":"STOP"}]}` + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			got := events(t, in)
			if !strings.Contains(got, `"code":"unsupported"`) || !strings.Contains(got, `{"type":"respond","content":"Hi."}`) {
				t.Errorf("want an unsupported error and the text:\n%s", got)
			}
		})
	}
}

// A hosted call cut off by the end of the stream is an error, never a
// hosted_call (nor a call).
func TestHostedCut(t *testing.T) {
	for name, in := range map[string]string{
		"anthropic": "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}}\n\n" +
			"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \\\"go\"}}\n",
		"responses": "data: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"ws_1\",\"type\":\"web_search_call\",\"status\":\"in_progress\"}}\n\n" +
			"data: {\"type\":\"response.web_search_call.searching\",\"output_index\":0,\"item_id\":\"ws_1\"}\n",
	} {
		t.Run(name, func(t *testing.T) {
			got := events(t, in)
			if strings.Contains(got, `"hosted_call"`) || strings.Contains(got, `"type":"call"`) || !strings.Contains(got, `"code":"truncated"`) {
				t.Errorf("want a truncated error and no call:\n%s", got)
			}
		})
	}
}

// An Anthropic refusal with no stop_details: the message's own text (none
// here) stands as it is. Input: packages/anthropic/src/__fixtures__/
// anthropic-refusal-no-details.json of github.com/vercel/ai, compacted.
func TestAnthropicRefusalNoDetails(t *testing.T) {
	in := `{"model":"claude-fable-5","id":"msg_01RefusalNoDetailsAbcdefghij","type":"message","role":"assistant","content":[],"stop_reason":"refusal","stop_details":null,"stop_sequence":null,"usage":{"input_tokens":18,"output_tokens":5}}` + "\n"
	expect(t, in, lines(`{"type":"usage","content":{"input_tokens":18,"output_tokens":5}}`, `{"type":"end"}`))
}

// A call's arguments given whole are checked and compacted as they arrive;
// when that drops white space both copies are kept, but only the arguments
// as they came count against MaxBlock: a message that fits the limit gives
// its calls, whatever the white space in their arguments.
func TestWholeArgsWithSpaceAtTheLimit(t *testing.T) {
	body := strings.Repeat("x", 2000)
	doc := `{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"write",` +
		`"input": { "path" : "a.txt" , "body" : "` + body + `" } }],"stop_reason":"tool_use"}`
	got := string(syntaxtest.EncodeJSONL(syntax.Parse(native.Syntax, []byte(doc+"\n"), syntax.Options{MaxBlock: len(doc)})))
	want := lines(`{"type":"call","name":"write","args":{"path":"a.txt","body":"`+body+`"},"id":"toolu_1"}`, `{"type":"execute"}`, `{"type":"end"}`)
	if got != want {
		t.Errorf("at MaxBlock %d, the message's size:\n%s\nwant:\n%s", len(doc), got, want)
	}
}

// Two calls of one message at the limit, the first's arguments with white
// space: its compacted copy does not take the room the second needs (a
// review found it did).
func TestTwoCallsAtTheLimit(t *testing.T) {
	body := strings.Repeat("x", 400)
	doc := `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[` +
		`{"id":"a","type":"function","function":{"name":"f","arguments":{ "p" : "` + body + `" }}},` +
		`{"id":"b","type":"function","function":{"name":"g","arguments":"{\"q\":\"` + body + `\"}"}}]},"finish_reason":"tool_calls"}]}`
	got := string(syntaxtest.EncodeJSONL(syntax.Parse(native.Syntax, []byte(doc+"\n"), syntax.Options{MaxBlock: len(doc)})))
	want := lines(`{"type":"call","name":"f","args":{"p":"`+body+`"},"id":"a"}`,
		`{"type":"call","name":"g","args":{"q":"`+body+`"},"id":"b"}`, `{"type":"execute"}`, `{"type":"end"}`)
	if got != want {
		t.Errorf("at MaxBlock %d, the message's size:\n%s\nwant:\n%s", len(doc), got, want)
	}
}

// Documents share one buffer: what the reader remembers of a document (where
// its long strings end) is forgotten before the next, even where a quote of
// the next stands just where a long string of the last one ended.
func TestLongStringThenReusedBuffer(t *testing.T) {
	head := `{"choices":[{"message":{"role":"assistant","content":`
	first := head + `"` + strings.Repeat("x", 600) + `"}}]}`
	end := len(head) + 602 // just past the long string
	var second string
	for n := 0; n < 700; n++ {
		second = head + `"yy","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":\"` +
			strings.Repeat("z", n) + `\"}"}}]}}]}`
		if len(second) >= end && second[end-1] == '"' {
			break
		}
	}
	if second[end-1] != '"' {
		t.Fatal("no second document with a quote where the first's long string ended")
	}
	got := events(t, first+"\n"+second+"\n")
	want := lines(`{"type":"respond","content":"`+strings.Repeat("x", 600)+`"}`,
		`{"type":"respond","content":"yy"}`,
		`{"type":"call","name":"f","args":{"a":"`+second[strings.Index(second, `\"a\":\"`)+len(`\"a\":\"`):strings.LastIndex(second, `\"}`)]+`"},"id":"c1"}`,
		`{"type":"execute"}`, `{"type":"end"}`)
	if got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// Whole arguments of an item set in one step: a custom_tool_call whose
// input is not a string is reported as such, not as arguments sent twice.
// (Not a golden: the mutation sweep would make its input the string the
// API documents, a valid call.)
func TestCustomInputNotAString(t *testing.T) {
	in := `{"id":"r1","object":"response","status":"completed","output":[{"type":"custom_tool_call","call_id":"c1","name":"sh","input":7}]}` + "\n"
	expect(t, in, lines(`{"type":"error","code":"malformed","message":"call c1 (sh): its arguments are a number, not a JSON object","offset":0,"line":1,"column":1,"raw":"7"}`, `{"type":"end"}`))
}

// Whole arguments sent twice and different are both kept for the error,
// and both count against the limit of the message's open calls: three
// calls each sent two different 210-byte objects do not fit 1000 bytes.
func TestArgsSentTwiceCounted(t *testing.T) {
	chunk := func(tc string) string {
		return `data: {"choices":[{"index":0,"delta":{"tool_calls":[` + tc + `]}}]}` + "\n\n"
	}
	var in strings.Builder
	for i := range 3 {
		idx := string(rune('0' + i))
		in.WriteString(chunk(`{"index":` + idx + `,"id":"c` + idx + `","function":{"name":"w","arguments":{"a":"` + strings.Repeat("x", 200) + `"}}}`))
		in.WriteString(chunk(`{"index":` + idx + `,"function":{"arguments":{"a":"` + strings.Repeat("y", 200) + `"}}}`))
	}
	in.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n")
	var over int
	for _, e := range syntax.Parse(native.Syntax, []byte(in.String()), syntax.Options{MaxBlock: 1000}) {
		if e.Type == syntax.Error && e.Code == syntax.CodeOverLimit {
			over++
		}
	}
	if over == 0 {
		t.Errorf("no over_limit error: the first copies of arguments sent twice are not counted")
	}
}
