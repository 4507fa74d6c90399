package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/serve"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// backend is a fake OpenAI-compatible server on the loopback interface: it
// answers every request with chunks (a Chat Completions stream, each a
// data line), written one at a time, and keeps the last request's body.
type backend struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    map[string]json.RawMessage
	header http.Header
	chunks []string
	status int
	done   chan struct{} // closed when a request's context ends
}

func newBackend(t testing.TB, chunks ...string) *backend {
	b := &backend{chunks: chunks, done: make(chan struct{}, 8)}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		json.Unmarshal(body, &b.got)
		b.header = r.Header.Clone()
		status := b.status
		b.mu.Unlock()
		if status != 0 {
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"message":"the model is loading","type":"server_error"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range b.chunks {
			if c == "HANG" {
				<-r.Context().Done()
				b.done <- struct{}{}
				return
			}
			fmt.Fprintf(w, "data: %s\n\n", c)
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func chunk(delta string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
}

func content(s string) string {
	b, _ := json.Marshal(map[string]string{"content": s})
	return string(b)
}

// hermesTurn is a backend turn whose model wrote its call as Hermes text
// in content, cut across chunks.
var hermesTurn = []string{
	chunk(`{"role":"assistant","content":""}`, ""),
	chunk(content("Let me look.\n<tool_"), ""),
	chunk(content("call>\n{\"name\": \"get_weather\", \"argu"), ""),
	chunk(content("ments\": {\"city\": \"Paris\"}}\n</tool_call>"), ""),
	chunk(`{}`, "stop"),
}

func newServer(t *testing.T, b *backend, route serve.Route) *httptest.Server {
	route.Backend = b.srv.URL + "/v1"
	h, err := serve.New(serve.Config{Routes: []serve.Route{route}, MaxBody: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func post(t *testing.T, url, body string, header ...string) (int, string) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func calls(evs []syntax.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Type == syntax.Call {
			out = append(out, e.Name+string(e.Args))
		}
	}
	return out
}

// A model that writes its call as text (Hermes, read by the syntax its
// name calls for) reaches a Chat Completions client as a native tool call,
// streamed and whole, under the backend model name the route sets.
func TestChatCallsFromText(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	srv := newServer(t, b, serve.Route{Model: "Qwen/Qwen2.5-7B-Instruct"})
	for _, stream := range []bool{true, false} {
		code, out := post(t, srv.URL+"/v1/chat/completions", fmt.Sprintf(`{"model":"gpt-4o","stream":%v,"messages":[{"role":"user","content":"Weather in Paris?"}]}`, stream), "Authorization", "Bearer sk-client")
		if code != 200 {
			t.Fatalf("stream %v: status %d: %s", stream, code, out)
		}
		evs := syntax.Parse(native.Syntax, []byte(out), syntax.Options{})
		if got := calls(evs); len(got) != 1 || got[0] != `get_weather{"city":"Paris"}` {
			t.Errorf("stream %v: calls %v, out:\n%s", stream, got, out)
		}
		if !strings.Contains(out, `"finish_reason":"tool_calls"`) || !strings.Contains(out, `"model":"gpt-4o"`) || strings.Contains(out, "<tool_call>") {
			t.Errorf("stream %v: out:\n%s", stream, out)
		}
		if stream && !strings.HasSuffix(out, "data: [DONE]\n\n") {
			t.Errorf("stream: no [DONE]: %s", out)
		}
		b.mu.Lock()
		if string(b.got["model"]) != `"Qwen/Qwen2.5-7B-Instruct"` || string(b.got["stream"]) != "true" || b.header.Get("Authorization") != "Bearer sk-client" {
			t.Errorf("the backend got model %s, stream %s, auth %q", b.got["model"], b.got["stream"], b.header.Get("Authorization"))
		}
		b.mu.Unlock()
	}
}

// An Anthropic client's request is translated for a Chat backend — its
// system text first, its tool_use and tool_result blocks as tool_calls and
// a tool message, its tools as functions — and the answer is an Anthropic
// message with the call as a tool_use block, streamed and whole.
func TestMessagesTranslated(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	srv := newServer(t, b, serve.Route{Models: []string{"claude-*"}, Model: "qwen2.5-coder-7b", Syntax: "hermes"})
	req := `{"model":"claude-sonnet-4-5","max_tokens":1024,"stream":%v,
	 "system":[{"type":"text","text":"You are helpful.","cache_control":{"type":"ephemeral"}}],
	 "tools":[{"name":"get_weather","description":"Weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}},{"type":"web_search_20250305","name":"web_search"}],
	 "tool_choice":{"type":"auto"},
	 "messages":[{"role":"user","content":"Weather in Oslo, then Paris?"},
	  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}]},
	  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"4 C"}]}]}`
	for _, stream := range []bool{true, false} {
		code, out := post(t, srv.URL+"/v1/messages?beta=true", fmt.Sprintf(req, stream), "x-api-key", "sk-ant", "anthropic-version", "2023-06-01")
		if code != 200 {
			t.Fatalf("stream %v: status %d: %s", stream, code, out)
		}
		evs := syntax.Parse(native.Syntax, []byte(out), syntax.Options{})
		if got := calls(evs); len(got) != 1 || got[0] != `get_weather{"city":"Paris"}` {
			t.Errorf("stream %v: calls %v, out:\n%s", stream, got, out)
		}
		if !strings.Contains(out, `"stop_reason":"tool_use"`) || !strings.Contains(out, `"model":"claude-sonnet-4-5"`) {
			t.Errorf("stream %v: out:\n%s", stream, out)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var msgs []map[string]any
	json.Unmarshal(b.got["messages"], &msgs)
	if len(msgs) != 4 || msgs[0]["role"] != "system" || msgs[0]["content"] != "You are helpful." || msgs[2]["tool_calls"] == nil || msgs[3]["role"] != "tool" || msgs[3]["tool_call_id"] != "toolu_1" {
		t.Errorf("the backend got messages %s", b.got["messages"])
	}
	if !strings.Contains(string(b.got["tools"]), `"type":"function"`) || strings.Contains(string(b.got["tools"]), "web_search") || string(b.got["tool_choice"]) != `"auto"` || string(b.got["max_tokens"]) != "1024" {
		t.Errorf("the backend got tools %s, tool_choice %s, max_tokens %s", b.got["tools"], b.got["tool_choice"], b.got["max_tokens"])
	}
	if b.header.Get("Authorization") != "Bearer sk-ant" {
		t.Errorf("the backend got auth %q", b.header.Get("Authorization"))
	}
}

// A call the backend's stream cuts off is never delivered as a call: the
// client's stream ends with the cut stop reason, not the calls one.
func TestCutCallIsNoCall(t *testing.T) {
	b := newBackend(t,
		chunk(content("<tool_call>\n{\"name\": \"write\", \"arguments\": {\"text\": \"abc"), ""),
		chunk(`{}`, "length"))
	srv := newServer(t, b, serve.Route{Syntax: "hermes"})
	for _, path := range []string{"/v1/chat/completions", "/v1/messages"} {
		code, out := post(t, srv.URL+path, `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"go"}]}`)
		if code != 200 || strings.Contains(out, `"tool_calls"}`) || strings.Contains(out, `"finish_reason":"tool_calls"`) || strings.Contains(out, `"stop_reason":"tool_use"`) {
			t.Errorf("%s: status %d, out:\n%s", path, code, out)
		}
		if !strings.Contains(out, `"finish_reason":"length"`) && !strings.Contains(out, `"stop_reason":"max_tokens"`) {
			t.Errorf("%s: no cut stop reason:\n%s", path, out)
		}
		if got := calls(syntax.Parse(native.Syntax, []byte(out), syntax.Options{})); len(got) != 0 {
			t.Errorf("%s: calls %v", path, got)
		}
	}
}

// A backend's turn cut off by its token limit while it wrote text reaches
// every client with its API's cut stop reason, streamed and whole — not the
// clean stop a client would take for the model's last word.
func TestTextCutByTheLimit(t *testing.T) {
	b := newBackend(t,
		chunk(content("The three largest cities are Tokyo,"), ""),
		chunk(`{}`, "length"))
	srv := newServer(t, b, serve.Route{})
	for _, c := range []struct{ path, want, clean string }{
		{"/v1/chat/completions", `"finish_reason":"length"`, `"finish_reason":"stop"`},
		{"/v1/messages", `"stop_reason":"max_tokens"`, `"stop_reason":"end_turn"`},
		{"/v1/responses", `"incomplete_details":{"reason":"max_output_tokens"}`, `"response.completed"`},
	} {
		for _, stream := range []bool{true, false} {
			body := fmt.Sprintf(`{"model":"m","max_tokens":9,"stream":%v,"messages":[{"role":"user","content":"go"}],"input":"go"}`, stream)
			code, out := post(t, srv.URL+c.path, body)
			if code != 200 || !strings.Contains(out, c.want) || strings.Contains(out, c.clean) || !strings.Contains(out, "Tokyo,") {
				t.Errorf("%s stream %v: status %d, want %s and the text:\n%s", c.path, stream, code, c.want, out)
			}
		}
	}
}

// The backend's token counts reach every client in its API's fields,
// streamed and whole; a Chat backend is asked for them.
func TestUsageCrosses(t *testing.T) {
	b := newBackend(t,
		chunk(content("Hello."), ""),
		chunk(`{}`, "stop"),
		`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":90,"total_tokens":1290,"prompt_tokens_details":{"cached_tokens":1024}}}`)
	srv := newServer(t, b, serve.Route{})
	for _, c := range []struct{ path, want string }{
		{"/v1/chat/completions", `"usage":{"prompt_tokens":1200,"completion_tokens":90,"total_tokens":1290,"prompt_tokens_details":{"cached_tokens":1024}}`},
		{"/v1/messages", `"usage":{"input_tokens":176,"cache_read_input_tokens":1024,"output_tokens":90}`},
		{"/v1/responses", `"usage":{"input_tokens":1200,"output_tokens":90,"total_tokens":1290,"input_tokens_details":{"cached_tokens":1024},"output_tokens_details":{"reasoning_tokens":0}}`},
	} {
		for _, stream := range []bool{true, false} {
			body := fmt.Sprintf(`{"model":"m","max_tokens":9,"stream":%v,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"go"}],"input":"go"}`, stream)
			code, out := post(t, srv.URL+c.path, body)
			if code != 200 || !strings.Contains(out, c.want) {
				t.Errorf("%s stream %v: status %d, want %s:\n%s", c.path, stream, code, c.want, out)
			}
		}
	}
	b.mu.Lock()
	if got := string(b.got["stream_options"]); got != `{"include_usage":true}` {
		t.Errorf("stream_options sent to the backend: %s", got)
	}
	b.mu.Unlock()
	// A Chat client that did not ask for the counts gets no chunk of them.
	if _, out := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`); strings.Contains(out, `"choices":[]`) {
		t.Errorf("a usage chunk nobody asked for:\n%s", out)
	}
}

// Bad requests are 4xx in the client's API's error shape; a backend error
// keeps its status and message; an unreachable backend is a 502.
func TestErrors(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	srv := newServer(t, b, serve.Route{Models: []string{"m*"}})
	for _, c := range []struct {
		path, body string
		status     int
		shape      string
	}{
		{"/v1/chat/completions", `{not json`, 400, `{"error":{"code":null,"message":`},
		{"/v1/chat/completions", `{"messages":[]}`, 400, `"model: a model name is required"`},
		{"/v1/chat/completions", `{"model":"other","messages":[]}`, 404, `no route serves it`},
		{"/v1/messages", `[]`, 400, `{"error":{"message":`},
		{"/v1/messages", `{"model":"m"}`, 400, `"type":"invalid_request_error"`},
		{"/v1/chat/completions", `{"model":"m","messages":[],"pad":"` + strings.Repeat("x", 2<<20) + `"}`, 413, `longer than`},
		{"/v2/nothing", `{}`, 404, `no POST /v2/nothing here`},
		{"/v1/responses", `{"model":"m","input":"hi","previous_response_id":"resp_1"}`, 400, `stores no response`},
		{"/v1/responses", `{"model":"m"}`, 400, `input: the request has none`},
	} {
		code, out := post(t, srv.URL+c.path, c.body)
		if code != c.status || !strings.Contains(out, c.shape) {
			t.Errorf("%s %.40s: status %d, body %s; want %d and %s", c.path, c.body, code, out, c.status, c.shape)
		}
		if c.path == "/v1/messages" && !strings.Contains(out, `"type":"error"`) {
			t.Errorf("%s: not Anthropic's error shape: %s", c.path, out)
		}
	}
	b.status = http.StatusServiceUnavailable
	code, out := post(t, srv.URL+"/v1/messages", `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`)
	if code != 503 || !strings.Contains(out, "the model is loading") || !strings.Contains(out, `"api_error"`) {
		t.Errorf("backend 503: status %d, body %s", code, out)
	}
	b.srv.Close()
	code, out = post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	if code != 502 || !strings.Contains(out, "could not be reached") {
		t.Errorf("backend down: status %d, body %s", code, out)
	}
}

// A client that goes away cancels its backend request.
func TestClientGoneCancelsBackend(t *testing.T) {
	b := newBackend(t, chunk(content("Thinking it over"), ""), "HANG")
	srv := newServer(t, b, serve.Route{})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	res.Body.Read(buf) // the first chunk came
	cancel()
	res.Body.Close()
	select {
	case <-b.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the backend's request was not cancelled")
	}
}

// The models of the routes, in the client's API's shape; the health check.
func TestModelsAndHealth(t *testing.T) {
	b := newBackend(t)
	srv := newServer(t, b, serve.Route{Models: []string{"claude-sonnet-4-5", "gpt-*"}})
	res, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `"object":"list"`) || !strings.Contains(string(body), `"id":"claude-sonnet-4-5"`) {
		t.Errorf("models: %s", body)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/models?limit=1000", nil)
	req.Header.Set("anthropic-version", "2023-06-01")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `"type":"model"`) || !strings.Contains(string(body), `"has_more":false`) {
		t.Errorf("anthropic models: %s", body)
	}
	for _, p := range []string{"/healthz", "/api/hello"} {
		res, err := http.Get(srv.URL + p)
		if err != nil || res.StatusCode != 200 {
			t.Errorf("%s: %v %v", p, err, res)
		}
		res.Body.Close()
	}
	code, out := post(t, srv.URL+"/v1/messages/count_tokens", `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hello there"}]}`)
	if code != 200 || !strings.Contains(out, `"input_tokens":`) {
		t.Errorf("count_tokens: %d %s", code, out)
	}
}

// Values a syntax reads as strings take the types the request's tools
// declare (a client refuses "1000" where its schema says integer), and a
// typed value does not stream as a string first.
func TestValuesTakeTheToolsTypes(t *testing.T) {
	b := newBackend(t,
		chunk(content("<tool_call>\n<function=read>\n<parameter=path>\na.go\n</parameter>\n<parameter=limit>\n10"), ""),
		chunk(content("00\n</parameter>\n</function>\n</tool_call>"), ""),
		chunk(`{}`, "stop"))
	srv := newServer(t, b, serve.Route{Syntax: "qwen3coder"})
	tools := `[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}}}}}]`
	for _, stream := range []bool{true, false} {
		code, out := post(t, srv.URL+"/v1/chat/completions", fmt.Sprintf(`{"model":"m","stream":%v,"tools":%s,"messages":[{"role":"user","content":"read"}]}`, stream, tools))
		got := calls(syntax.Parse(native.Syntax, []byte(out), syntax.Options{}))
		if code != 200 || len(got) != 1 || got[0] != `read{"path":"a.go","limit":1000}` || strings.Contains(out, `limit\":\"`) {
			t.Errorf("stream %v: status %d, calls %v, out:\n%s", stream, code, got, out)
		}
	}
}

// A Responses client (stateless, as Codex CLI sends it: store false, its
// earlier items in the input, flat function tools) gets the call as a
// function_call item, in output_item.done and in response.completed; the
// backend gets Chat's messages and nested tools.
func TestResponsesClient(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	srv := newServer(t, b, serve.Route{Syntax: "hermes"})
	req := `{"model":"gpt-5-codex","stream":%v,"store":false,"instructions":"You are Codex.",
	 "tools":[{"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}},"strict":false},{"type":"web_search"}],
	 "input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Oslo, then Paris?"}]},
	  {"type":"function_call","id":"fc_1","call_id":"call_a","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"},
	  {"type":"function_call_output","call_id":"call_a","output":"4 C"}]}`
	for _, stream := range []bool{true, false} {
		code, out := post(t, srv.URL+"/v1/responses", fmt.Sprintf(req, stream))
		if code != 200 {
			t.Fatalf("stream %v: status %d: %s", stream, code, out)
		}
		if got := calls(syntax.Parse(native.Syntax, []byte(out), syntax.Options{})); len(got) != 1 || got[0] != `get_weather{"city":"Paris"}` {
			t.Errorf("stream %v: calls %v, out:\n%s", stream, got, out)
		}
		if stream && (!strings.Contains(out, "event: response.output_item.done") || !strings.Contains(out, "event: response.completed") || !strings.Contains(out, `"model":"gpt-5-codex"`)) {
			t.Errorf("stream: out:\n%s", out)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var msgs []map[string]any
	json.Unmarshal(b.got["messages"], &msgs)
	if len(msgs) != 4 || msgs[0]["content"] != "You are Codex." || msgs[2]["tool_calls"] == nil || msgs[3]["tool_call_id"] != "call_a" {
		t.Errorf("the backend got messages %s", b.got["messages"])
	}
	if !strings.Contains(string(b.got["tools"]), `"function":{`) || strings.Contains(string(b.got["tools"]), "web_search") {
		t.Errorf("the backend got tools %s", b.got["tools"])
	}
}

// With tools in a prompt (a model or server with no tool support), the
// backend gets no tools parameter but a system prompt that teaches them in
// the route's syntax, and the history's calls and results written in that
// syntax; the model's answer in it comes back as a native call.
func TestToolsInPrompt(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	srv := newServer(t, b, serve.Route{Syntax: "hermes", ToolsIn: "prompt"})
	code, out := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","stream":true,
	 "tools":[{"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}],
	 "messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Oslo, then Paris?"},
	  {"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},
	  {"role":"tool","tool_call_id":"call_a","content":"4 C"}]}`)
	if got := calls(syntax.Parse(native.Syntax, []byte(out), syntax.Options{})); code != 200 || len(got) != 1 || got[0] != `get_weather{"city":"Paris"}` {
		t.Errorf("status %d, calls %v, out:\n%s", code, got, out)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.got["tools"]; ok {
		t.Errorf("the backend got tools: %s", b.got["tools"])
	}
	var msgs []struct{ Role, Content string }
	json.Unmarshal(b.got["messages"], &msgs)
	if len(msgs) != 4 || msgs[0].Role != "system" || !strings.HasPrefix(msgs[0].Content, "Be brief.\n\n") || !strings.Contains(msgs[0].Content, "get_weather") ||
		!strings.Contains(msgs[2].Content, "<tool_call>") || !strings.Contains(msgs[3].Content, "<tool_response>") {
		t.Errorf("the backend got messages %s", b.got["messages"])
	}
}

// With an auth token, a client must present it (either header), in its
// API's error shape otherwise, and it does not reach the backend; max_tokens
// is capped by the route; --record keeps the exchange.
func TestAuthCapAndRecord(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	dir := t.TempDir()
	h, err := serve.New(serve.Config{AuthToken: "s3cret", Record: dir, Routes: []serve.Route{{Backend: b.srv.URL + "/v1", MaxTokens: 4096, Syntax: "hermes"}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	req := `{"model":"m","max_tokens":128000,"messages":[{"role":"user","content":"hi"}]}`
	if code, out := post(t, srv.URL+"/v1/messages", req, "x-api-key", "wrong"); code != 401 || !strings.Contains(out, `"authentication_error"`) {
		t.Errorf("a wrong token: %d %s", code, out)
	}
	if code, out := post(t, srv.URL+"/v1/chat/completions", req); code != 401 || !strings.Contains(out, `"error":{`) {
		t.Errorf("no token: %d %s", code, out)
	}
	code, out := post(t, srv.URL+"/v1/messages", req, "Authorization", "Bearer s3cret")
	if code != 200 || !strings.Contains(out, `"tool_use"`) {
		t.Fatalf("the token: %d %s", code, out)
	}
	b.mu.Lock()
	if string(b.got["max_tokens"]) != "4096" || b.header.Get("Authorization") != "" {
		t.Errorf("the backend got max_tokens %s, auth %q", b.got["max_tokens"], b.header.Get("Authorization"))
	}
	b.mu.Unlock()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 4 {
		t.Fatalf("recorded %v", files)
	}
	for _, f := range files {
		body, _ := os.ReadFile(f)
		switch {
		case strings.HasSuffix(f, ".backend") && !strings.Contains(string(body), "data: [DONE]"),
			strings.HasSuffix(f, ".client") && string(body) != out,
			strings.HasSuffix(f, ".request.json") && !strings.Contains(string(body), `"max_tokens":4096`),
			strings.HasSuffix(f, ".replay.json") && !strings.Contains(string(body), `"--to","anthropic"`):
			t.Errorf("%s: %s", f, body)
		}
	}
}

// Every backend API: the request goes to its path in its shape, with the
// key as it takes one, and its stream (here written by native's encoder)
// comes back to a Chat Completions client as a native call.
func TestBackendAPIs(t *testing.T) {
	evs := []syntax.Event{
		{Type: syntax.Respond, Content: "Looking."},
		{Type: syntax.Call, Name: "get_weather", ID: "call_9", Args: json.RawMessage(`{"city":"Paris"}`)},
		{Type: syntax.Execute}, {Type: syntax.End},
	}
	for _, c := range []struct {
		api, base, path, keyHeader, key, field string
	}{
		{"openai", "/v1", "/v1/chat/completions", "Authorization", "Bearer k", `"messages"`},
		{"openai-responses", "/v1", "/v1/responses", "Authorization", "Bearer k", `"input"`},
		{"anthropic", "", "/v1/messages", "X-Api-Key", "k", `"input_schema"`},
		{"ollama", "", "/api/chat", "Authorization", "Bearer k", `"options"`},
		{"gemini", "", "/v1beta/models/m:streamGenerateContent", "X-Goog-Api-Key", "k", `"functionDeclarations"`},
	} {
		var stream strings.Builder
		enc, err := native.NewStream(c.api, &stream, native.StreamOptions{})
		if err != nil {
			t.Fatal(err)
		}
		syntax.Render(enc, evs)
		var gotPath, gotKey, gotBody string
		backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			gotPath, gotKey, gotBody = r.URL.Path, r.Header.Get(c.keyHeader), string(b)
			io.WriteString(w, stream.String())
		}))
		h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: backend.URL + c.base, API: c.api, Model: "m", Syntax: "none"}}})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		code, out := post(t, srv.URL+"/v1/chat/completions", `{"model":"x","max_tokens":100,"stream":true,
		 "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}],
		 "messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Weather in Paris?"}]}`, "Authorization", "Bearer k")
		got := calls(syntax.Parse(native.Syntax, []byte(out), syntax.Options{}))
		if code != 200 || len(got) != 1 || got[0] != `get_weather{"city":"Paris"}` || !strings.Contains(out, "Looking.") {
			t.Errorf("%s: status %d, calls %v, out:\n%s\nbackend stream:\n%s", c.api, code, got, out, stream.String())
		}
		if gotPath != c.path || gotKey != c.key || !strings.Contains(gotBody, c.field) || !strings.Contains(gotBody, "Be brief.") || !strings.Contains(gotBody, "Weather in Paris?") {
			t.Errorf("%s: the backend got %s, key %q, body %s", c.api, gotPath, gotKey, gotBody)
		}
		srv.Close()
		backend.Close()
	}
}

// Whichever way the backend's bytes are chunked, the client gets the same
// calls and text.
func TestBackendChunkingDoesNotMatter(t *testing.T) {
	var stream strings.Builder
	for _, c := range hermesTurn {
		stream.WriteString("data: " + c + "\n\n")
	}
	stream.WriteString("data: [DONE]\n\n")
	var first []syntax.Event
	for _, size := range []int{stream.Len(), 1, 7, 64} {
		backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			s := stream.String()
			for len(s) > 0 {
				n := min(size, len(s))
				io.WriteString(w, s[:n])
				w.(http.Flusher).Flush()
				s = s[n:]
			}
		}))
		h, _ := serve.New(serve.Config{Routes: []serve.Route{{Backend: backend.URL + "/v1", Syntax: "hermes"}}})
		srv := httptest.NewServer(h)
		_, out := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`)
		evs := syntax.Parse(native.Syntax, []byte(out), syntax.Options{})
		for i := range evs {
			evs[i].Span, evs[i].Pos, evs[i].ID = syntax.Span{}, syntax.Pos{}, ""
		}
		if first == nil {
			first = evs
		} else if fmt.Sprint(evs) != fmt.Sprint(first) {
			t.Errorf("%d-byte pieces: %v, whole: %v", size, evs, first)
		}
		srv.Close()
		backend.Close()
	}
	if len(calls(first)) != 1 {
		t.Errorf("calls %v", calls(first))
	}
}

// A route that takes any model name lists its backend's models, read from
// the backend's own API (Ollama's /api/tags here).
func TestModelsFromTheBackend(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/tags" {
			io.WriteString(w, `{"models":[{"name":"qwen3-coder:30b"},{"name":"llama3.2:3b"}]}`)
			return
		}
		http.NotFound(w, r)
	}))
	defer backend.Close()
	h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: backend.URL, API: "ollama"}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `"id":"qwen3-coder:30b"`) || !strings.Contains(string(body), `"id":"llama3.2:3b"`) {
		t.Errorf("models: %s", body)
	}
}

// A backend that fails where the events cannot say it — an error in place
// of the rest of its stream, a broken connection — gives the client its
// API's error form (streamed) or error (whole), never a clean finish; a
// whole response whose call turned out malformed is an error too, as the
// stream would be.
func TestBackendFailuresReachTheClient(t *testing.T) {
	providerErr := newBackend(t, chunk(content("Half an answer"), ""), `{"error":{"message":"CUDA out of memory","type":"server_error"}}`)
	malformed := newBackend(t, chunk(content("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": Paris}}\n</tool_call>"), ""), chunk(`{}`, "stop"))
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+chunk(content("Half an answer"), "")+"\n\n")
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	}))
	defer broken.Close()
	for _, c := range []struct {
		name, url, want string
	}{
		{"provider error", providerErr.srv.URL, "CUDA out of memory"},
		{"broken stream", broken.URL, "stream broke"},
		{"malformed call", malformed.srv.URL, "malformed"},
	} {
		h, _ := serve.New(serve.Config{Routes: []serve.Route{{Backend: c.url + "/v1", Syntax: "hermes"}}})
		srv := httptest.NewServer(h)
		for _, path := range []string{"/v1/chat/completions", "/v1/messages", "/v1/responses"} {
			body := `{"model":"m","max_tokens":9,"stream":%v,"messages":[{"role":"user","content":"hi"}],"input":"hi"}`
			_, out := post(t, srv.URL+path, fmt.Sprintf(body, true))
			if strings.Contains(out, `"finish_reason":"stop"`) || strings.Contains(out, `"stop_reason":"end_turn"`) || strings.Contains(out, "response.completed") || !strings.Contains(out, "error") {
				t.Errorf("%s, %s streamed: a clean finish:\n%s", c.name, path, out)
			}
			code, out := post(t, srv.URL+path, fmt.Sprintf(body, false))
			if code != http.StatusBadGateway || !strings.Contains(out, c.want) {
				t.Errorf("%s, %s whole: %d %s", c.name, path, code, out)
			}
		}
		srv.Close()
	}
}

// The backend is the configured URL: a redirect is not followed (it would
// carry the key elsewhere); max_completion_tokens is max_tokens, capped.
func TestRedirectAndMaxCompletionTokens(t *testing.T) {
	var elsewhere bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere = true }))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	h, _ := serve.New(serve.Config{Routes: []serve.Route{{Backend: redirect.URL + "/v1"}}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	if code, out := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "Authorization", "Bearer k"); code != http.StatusBadGateway || !strings.Contains(out, "307") || elsewhere {
		t.Errorf("a redirect: %d %s, followed %v", code, out, elsewhere)
	}
	b := newBackend(t, hermesTurn...)
	for api, field := range map[string]string{"openai": "max_tokens", "anthropic": "max_tokens", "ollama": "num_predict"} {
		h, _ := serve.New(serve.Config{Routes: []serve.Route{{Backend: b.srv.URL, API: api, MaxTokens: 4096}}})
		srv := httptest.NewServer(h)
		post(t, srv.URL+"/v1/chat/completions", `{"model":"m","max_completion_tokens":128000,"messages":[{"role":"user","content":"hi"}]}`)
		srv.Close()
		b.mu.Lock()
		got := string(b.got[field])
		if api == "ollama" {
			var opts map[string]json.RawMessage
			json.Unmarshal(b.got["options"], &opts)
			got = string(opts[field])
		}
		if got != "4096" || b.got["max_completion_tokens"] != nil {
			t.Errorf("%s: the backend got %s %s, max_completion_tokens %s", api, field, got, b.got["max_completion_tokens"])
		}
		b.mu.Unlock()
	}
}

// Tools in a prompt make one system message, first: the client's system
// and developer text (strings or parts), then the tools' prompt.
func TestToolsInPromptOneSystemMessage(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	srv := newServer(t, b, serve.Route{Syntax: "hermes", ToolsIn: "prompt"})
	post(t, srv.URL+"/v1/chat/completions", `{"model":"m",
	 "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}],
	 "messages":[{"role":"developer","content":[{"type":"text","text":"Dev rules."}]},{"role":"system","content":"Sys rules."},{"role":"user","content":"hi"}]}`)
	b.mu.Lock()
	defer b.mu.Unlock()
	var msgs []struct{ Role, Content string }
	json.Unmarshal(b.got["messages"], &msgs)
	if len(msgs) != 2 || msgs[0].Role != "system" || !strings.HasPrefix(msgs[0].Content, "Dev rules.\n\nSys rules.\n\n") || msgs[1].Role != "user" {
		t.Errorf("the backend got messages %s", b.got["messages"])
	}
}

// What a translation cannot carry is never dropped without a word: the
// request's log line names it (a field the backend's API has none for, a
// tool the provider runs itself, another provider's state in the history).
func TestNotCarriedIsLogged(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: b.srv.URL + "/v1", Syntax: "hermes"}}})
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	h.SetLogger(slog.New(slog.NewTextHandler(&log, nil)))
	srv := httptest.NewServer(h)
	defer srv.Close()
	post(t, srv.URL+"/v1/messages", `{"model":"m","max_tokens":99,"thinking":{"type":"adaptive"},"metadata":{"user_id":"u"},
	 "tools":[{"type":"web_search_20250305","name":"web_search"}],
	 "messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"EqQB"},{"type":"text","text":"Hello."}]},{"role":"user","content":"go"}]}`)
	for _, want := range []string{"thinking: not carried", "metadata: not carried", `tool \"web_search\"`, "anthropic state"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, log.String())
		}
	}
}

// A held route asks the model again when its call fails — malformed, or
// failing its tool's schema — telling it why, and the client gets only the
// call that was mended; without retries left, the failure reaches it.
func TestHeldCallIsAskedAgain(t *testing.T) {
	bad := []string{chunk(content("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>"), ""), chunk(`{}`, "stop")}
	untyped := []string{chunk(content("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": \"many\"}}\n</tool_call>"), ""), chunk(`{}`, "stop")}
	good := []string{chunk(content("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 2}}\n</tool_call>"), ""), chunk(`{}`, "stop")}
	var mu sync.Mutex
	var answers [][]string
	var got []map[string]json.RawMessage
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]json.RawMessage
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		got = append(got, req)
		a := answers[0]
		if len(answers) > 1 {
			answers = answers[1:]
		}
		mu.Unlock()
		if a[0] == "STATUS500" {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":{"message":"overloaded"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range a {
			fmt.Fprintf(w, "data: %s\n\n", c)
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	const tools = `"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}}]`
	for _, c := range []struct {
		name    string
		answers [][]string
		retries int
		want    string // in the client's stream
		asked   int    // requests the backend got
	}{
		{"malformed, mended", [][]string{bad, good}, 2, `"finish_reason":"tool_calls"`, 2},
		{"schema, mended", [][]string{untyped, good}, 2, `"finish_reason":"tool_calls"`, 2},
		{"malformed, no retry left", [][]string{bad, good}, 0, `"type":"invalid_tool_call"`, 1},
		{"malformed, the retry refused", [][]string{bad, {"STATUS500"}}, 1, `"type":"invalid_tool_call"`, 2}, // the turn before it stands
	} {
		mu.Lock()
		answers, got = c.answers, nil
		mu.Unlock()
		h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: srv.URL + "/v1", Syntax: "hermes", Hold: true, Retries: c.retries}}})
		if err != nil {
			t.Fatal(err)
		}
		front := httptest.NewServer(h)
		code, out := post(t, front.URL+"/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"weather?"}],`+tools+`}`)
		front.Close()
		mu.Lock()
		asked, last := len(got), got[len(got)-1]
		mu.Unlock()
		if code != 200 || !strings.Contains(out, c.want) || asked != c.asked {
			t.Errorf("%s: status %d, %d requests, want %s:\n%s", c.name, code, asked, c.want, out)
			continue
		}
		if c.asked > 1 {
			var msgs []map[string]any
			json.Unmarshal(last["messages"], &msgs)
			if n := len(msgs); n != 3 || msgs[1]["role"] != "assistant" || !strings.Contains(fmt.Sprint(msgs[2]["content"]), "could not be used") {
				t.Errorf("%s: the retry's messages: %v", c.name, msgs)
			}
			evs := syntax.Parse(native.Syntax, []byte(out), syntax.Options{})
			if calls := calls(evs); strings.Contains(c.want, "tool_calls") && (len(calls) != 1 || calls[0] != `get_weather{"city":"Paris","days":2}`) {
				t.Errorf("%s: calls %v", c.name, calls)
			}
		}
	}
}

// The state a backend's provider needs back (a Gemini thought signature on
// a call, an Anthropic thinking block's signature) crosses to every client
// and comes back with its next request to the backend — in the client
// API's own field when it has one, else in the call's id.
func TestStateCrossesRequests(t *testing.T) {
	for _, c := range []struct {
		backend, sig string
		evs          []syntax.Event
	}{
		{"gemini", "SIG_GEMINI", []syntax.Event{
			{Type: syntax.Call, Name: "get_weather", Args: json.RawMessage(`{"city":"Paris"}`), Opaque: json.RawMessage(`{"gemini":{"thoughtSignature":"SIG_GEMINI"}}`)},
			{Type: syntax.Execute}, {Type: syntax.End}}},
		{"anthropic", "SIG_ANTHROPIC", []syntax.Event{
			{Type: syntax.Think, Content: "Paris, then.", Opaque: json.RawMessage(`{"anthropic":{"type":"thinking","signature":"SIG_ANTHROPIC"}}`)},
			{Type: syntax.Call, Name: "get_weather", ID: "toolu_1", Args: json.RawMessage(`{"city":"Paris"}`)},
			{Type: syntax.Execute}, {Type: syntax.End}}},
	} {
		var stream strings.Builder
		enc, _ := native.NewStream(c.backend, &stream, native.StreamOptions{})
		syntax.Render(enc, c.evs)
		var mu sync.Mutex
		var got string
		backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			got = string(b)
			mu.Unlock()
			io.WriteString(w, stream.String())
		}))
		h, _ := serve.New(serve.Config{Routes: []serve.Route{{Backend: backend.URL, API: c.backend, Model: "m", Syntax: "none"}}})
		srv := httptest.NewServer(h)
		for _, client := range []struct{ path, form, key string }{
			{"/v1/chat/completions", "openai", "messages"},
			{"/v1/messages", "anthropic", "messages"},
			{"/v1/responses", "openai-responses", "input"},
		} {
			first := fmt.Sprintf(`{"model":"x","max_tokens":100,"stream":true,%q:[{"role":"user","content":"Weather in Paris?"}]}`, client.key)
			code, out := post(t, srv.URL+client.path, first)
			if code != 200 {
				t.Fatalf("%s → %s: %d %s", c.backend, client.form, code, out)
			}
			// The client sends the turn back as its API writes it, with
			// the call's result.
			turn := syntax.Parse(native.Syntax, []byte(out), syntax.Options{})
			var assistant []syntax.Event
			id := ""
			for _, e := range turn {
				if !e.Partial && (e.Type == syntax.Think || e.Type == syntax.Call) {
					assistant = append(assistant, e)
				}
				if e.Type == syntax.Call && !e.Partial {
					id = e.ID
				}
			}
			conv := &conversation.Conversation{Turns: []conversation.Turn{
				{Role: "user", Other: &conversation.Message{Role: "user", Content: "Weather in Paris?"}},
				{Role: "assistant", Events: append(assistant, syntax.Event{Type: syntax.Execute})},
				{Role: "tool", Events: []syntax.Event{{Type: syntax.Result, Tool: "get_weather", ID: id, Status: syntax.Success, Value: json.RawMessage(`"sunny"`)}}},
			}}
			form, _ := registry.Lookup(client.form)
			msgs, err := conversation.Write(conv, form, syntax.Options{})
			if err != nil {
				t.Errorf("%s → %s: the client's history: %v", c.backend, client.form, err)
			}
			hist, _ := json.Marshal(msgs)
			second := fmt.Sprintf(`{"model":"x","max_tokens":100,"stream":true,%q:%s}`, client.key, hist)
			code, out = post(t, srv.URL+client.path, second)
			mu.Lock()
			sent := got
			mu.Unlock()
			if code != 200 || !strings.Contains(sent, c.sig) || strings.Contains(sent, "tps_") {
				t.Errorf("%s → %s → %s: status %d, the backend got %s\n(the client got %s, sent back %s)", c.backend, client.form, c.backend, code, sent, out, hist)
			}
		}
		srv.Close()
		backend.Close()
	}
}

// Requests beyond Config.MaxStreams get a 429 in the client API's error
// shape while the others are open.
func TestOpenStreamsBounded(t *testing.T) {
	b := newBackend(t, "HANG")
	route := serve.Route{Backend: b.srv.URL + "/v1", Model: "Qwen/Qwen3-Coder-30B-A3B-Instruct"}
	h, err := serve.New(serve.Config{Routes: []serve.Route{route}, MaxStreams: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	go func() {
		defer close(first)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	for range 400 { // until the first request reached the backend: it holds the one slot
		b.mu.Lock()
		got := b.got != nil
		b.mu.Unlock()
		if got {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	code, out := post(t, srv.URL+"/v1/messages", `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`)
	if code != http.StatusTooManyRequests || !strings.Contains(out, `"type":"rate_limit_error"`) {
		t.Errorf("the second request: %d %s", code, out)
	}
	cancel()
	<-first
	<-b.done
}

// The request's log line names the syntax that read the backend's text,
// and why.
func TestSyntaxChoiceIsLogged(t *testing.T) {
	b := newBackend(t, hermesTurn...)
	h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: b.srv.URL + "/v1", Model: "Qwen/Qwen3-Coder-30B-A3B-Instruct"}}})
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	var mu sync.Mutex
	h.SetLogger(slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil)))
	srv := httptest.NewServer(h)
	defer srv.Close()
	post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "syntax=qwen3coder") || !strings.Contains(logs.String(), `syntax_evidence="model name`) {
		t.Errorf("the log: %s", logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// A Responses client's reasoning item goes back to the backend with its
// text (its state rides in the call id; the text must not go with it), and
// a turn whose text ends inside a thought, stopped cleanly, is no cut.
func TestReasoningTextKeptAndCleanStop(t *testing.T) {
	b := newBackend(t, chunk(content("<think>Let me see"), ""), chunk(`{}`, "stop"))
	srv := newServer(t, b, serve.Route{Syntax: "hermes"})
	code, out := post(t, srv.URL+"/v1/responses", `{"model":"m","stream":true,"input":[{"role":"user","content":"hi"},
		{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Paris, then."}]},
		{"type":"function_call","id":"fc_2","call_id":"call_abc","name":"get_weather","arguments":"{}"},
		{"type":"function_call_output","call_id":"call_abc","output":"sunny"}]}`)
	b.mu.Lock()
	msgs := string(b.got["messages"])
	b.mu.Unlock()
	if code != 200 || !strings.Contains(msgs, "Paris, then.") || strings.Contains(msgs, "tps_") || !strings.Contains(msgs, `"call_abc"`) {
		t.Errorf("status %d; the backend got %s", code, msgs)
	}
	if strings.Contains(out, "incomplete") || !strings.Contains(out, "response.completed") {
		t.Errorf("a clean stop inside a thought ended as a cut:\n%s", out)
	}
}
