package serve_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolparse/toolparse/serve"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// The client endpoints FuzzRequest posts to.
var fuzzPaths = []string{"/v1/chat/completions", "/v1/responses", "/v1/messages", "/v1/messages/count_tokens"}

// FuzzRequest posts any body to each client endpoint of a server whose
// backend is up (a model that writes a Hermes call), natively and with the
// tools in the prompt: the answer is a success or a 4xx in the client
// API's error shape, never a 5xx, a panic or a hang.
func FuzzRequest(f *testing.F) {
	for _, body := range []string{
		`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]}`,
		`{"model":"m","messages":[{"role":"user","content":"go"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`,
		`{"model":"m","max_tokens":9,"stream":true,"system":[{"type":"text","text":"S"}],"tools":[{"name":"get_weather","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"4 C"}]}]}]}`,
		`{"model":"m","stream":false,"instructions":"I","tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]},{"type":"function_call","call_id":"call_a","name":"get_weather","arguments":"{}"},{"type":"function_call_output","call_id":"call_a","output":"4 C"}]}`,
		`{"model":"m","input":"hi","previous_response_id":"resp_1"}`,
		`{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AA"}}]}]}`,
		`{"model":"m","messages":[],"tool_choice":{"type":"function","function":{"name":"f"}},"response_format":{"type":"json_object"},"n":2}`,
		`{not json`, `[]`, `{}`, `null`, `{"model":1}`, `{"model":"m","messages":"x"}`,
	} {
		for i := range fuzzPaths {
			f.Add(uint8(i), body)
		}
	}
	b := newBackend(f, hermesTurn...)
	var handlers []http.Handler
	for _, toolsIn := range []string{"native", "prompt"} {
		h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: b.srv.URL + "/v1", Syntax: "hermes", ToolsIn: toolsIn}}, MaxBody: 1 << 20})
		if err != nil {
			f.Fatal(err)
		}
		handlers = append(handlers, h)
	}
	f.Fuzz(func(t *testing.T, at uint8, body string) {
		path := fuzzPaths[int(at)%len(fuzzPaths)]
		for _, h := range handlers {
			rec := serveOne(t, h, path, body)
			code, out := rec.Code, rec.Body.String()
			if code >= 500 {
				t.Fatalf("%s %q: status %d: %s", path, body, code, out)
			}
			if code < 400 {
				checkBody(t, path, body, rec)
				continue
			}
			checkError(t, path, body, rec)
		}
	})
}

// serveOne posts body to path through h; a handler that has not answered
// in ten seconds fails the test (its request is then cancelled).
func serveOne(t *testing.T, h http.Handler, path, body string) *httptest.ResponseRecorder {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
		return rec
	case <-time.After(10 * time.Second):
		t.Fatalf("%s %q: no answer in 10 s", path, body)
		return nil
	}
}

// checkError checks an error's body: the client API's error shape.
func checkError(t *testing.T, path, body string, rec *httptest.ResponseRecorder) {
	code, out := rec.Code, rec.Body.String()
	var shape struct {
		Type  string `json:"type"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &shape); err != nil || shape.Error == nil || shape.Error.Message == "" {
		t.Fatalf("%s %q: status %d, body not the API's error shape: %s", path, body, code, out)
	}
	if strings.HasPrefix(path, "/v1/messages") && shape.Type != "error" {
		t.Fatalf("%s %q: status %d, not Anthropic's error shape: %s", path, body, code, out)
	}
}

// The backend APIs FuzzBackend's server speaks, and the client requests it
// answers.
var (
	fuzzAPIs = []struct{ api, base string }{
		{"openai", "/v1"}, {"openai-responses", "/v1"}, {"anthropic", ""}, {"ollama", ""}, {"gemini", ""},
	}
	fuzzClients = []struct{ path, body string }{
		{"/v1/chat/completions", `{"model":"m","stream":%v,"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}],"messages":[{"role":"user","content":"Weather?"}]}`},
		{"/v1/responses", `{"model":"m","stream":%v,"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}],"input":"Weather?"}`},
		{"/v1/messages", `{"model":"m","max_tokens":99,"stream":%v,"tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}],"messages":[{"role":"user","content":"Weather?"}]}`},
	}
)

// FuzzBackend has a backend answer with any bytes, in any of the five
// backend APIs, to each client API, streamed and whole, through a route that
// streams and one that holds the turn and asks a failed call again: the
// client gets a success with a well-formed body or an error in its API's
// shape (a backend's broken answer is a 502), never a 500, a panic or a
// hang.
func FuzzBackend(f *testing.F) {
	seeds := [][]syntax.Event{
		{{Type: syntax.Respond, Content: "Looking."}, {Type: syntax.Call, Name: "get_weather", ID: "call_9", Args: json.RawMessage(`{"city":"Paris"}`)}, {Type: syntax.Execute}, {Type: syntax.End}},
		{{Type: syntax.Think, Content: "Hm."}, {Type: syntax.Respond, Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>"}, {Type: syntax.End}},
	}
	for i, a := range fuzzAPIs {
		for _, evs := range seeds {
			var b strings.Builder
			enc, err := native.NewStream(a.api, &b, native.StreamOptions{})
			if err != nil {
				f.Fatal(err)
			}
			syntax.Render(enc, evs)
			for c := range fuzzClients {
				f.Add(uint8(i), uint8(c), c%2 == 0, b.String())
				f.Add(uint8(i), uint8(c), c%2 == 1, b.String()[:len(b.String())/2])
			}
		}
	}
	f.Add(uint8(0), uint8(0), true, "data: {not json\n\n")
	f.Add(uint8(2), uint8(2), false, `{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`)

	var mu sync.Mutex
	var answer string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		a := answer
		mu.Unlock()
		if r.URL.Query().Get("alt") == "sse" || strings.Contains(r.Header.Get("Accept"), "event-stream") || !strings.HasPrefix(strings.TrimSpace(a), "{") {
			w.Header().Set("Content-Type", "text/event-stream")
		}
		io.WriteString(w, a)
	}))
	f.Cleanup(backend.Close)
	// Each API's route twice: streaming as the backend answers, and
	// holding the turn, a failed call asked again once (the same answer
	// comes back).
	var handlers [][2]http.Handler
	for _, a := range fuzzAPIs {
		var hs [2]http.Handler
		for i, hold := range []bool{false, true} {
			h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: backend.URL + a.base, API: a.api, Model: "m", Hold: hold, Retries: map[bool]int{true: 1}[hold]}}, MaxBody: 1 << 20})
			if err != nil {
				f.Fatal(err)
			}
			hs[i] = h
		}
		handlers = append(handlers, hs)
	}
	f.Fuzz(func(t *testing.T, api, client uint8, stream bool, reply string) {
		mu.Lock()
		answer = reply
		mu.Unlock()
		c := fuzzClients[int(client)%len(fuzzClients)]
		body := strings.Replace(c.body, "%v", map[bool]string{true: "true", false: "false"}[stream], 1)
		for _, h := range handlers[int(api)%len(handlers)] {
			rec := serveOne(t, h, c.path, body)
			switch code := rec.Code; {
			case code == http.StatusOK:
				checkBody(t, c.path, body, rec)
			case code >= 400 && code < 500 || code == http.StatusBadGateway:
				checkError(t, c.path, body, rec)
			default:
				t.Fatalf("%s, backend %s answering %q: status %d: %s", c.path, fuzzAPIs[int(api)%len(fuzzAPIs)].api, reply, code, rec.Body.String())
			}
		}
	})
}

// checkBody checks a success's body: JSON, or an event stream whose every
// data line is JSON (or OpenAI's [DONE]).
func checkBody(t *testing.T, path, body string, rec *httptest.ResponseRecorder) {
	out := rec.Body.Bytes()
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		if !json.Valid(out) {
			t.Fatalf("%s %q: status %d, body not JSON: %s", path, body, rec.Code, out)
		}
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if ok && data != "[DONE]" && !json.Valid([]byte(data)) {
			t.Fatalf("%s %q: a data line is not JSON: %s", path, body, line)
		}
	}
}
