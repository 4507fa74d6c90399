package serve_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolparse/toolparse/serve"
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
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			req := httptest.NewRequestWithContext(ctx, http.MethodPost, path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			start := time.Now()
			h.ServeHTTP(rec, req)
			cancel()
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%s %q: took %v", path, body, time.Since(start))
			}
			code, out := rec.Code, rec.Body.String()
			if code >= 500 {
				t.Fatalf("%s %q: status %d: %s", path, body, code, out)
			}
			if code < 400 {
				checkBody(t, path, body, rec)
				continue
			}
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
