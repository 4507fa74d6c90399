package serve_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/serve"
)

// BenchmarkServe: a streamed turn of 2,000 content chunks (prose, then a
// Hermes call with a 20 KB argument), read by a client directly from the
// backend (the baseline) and through serve, which parses the text and
// re-encodes it as a Chat Completions stream with the call native.
func BenchmarkServe(b *testing.B) {
	var body strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&body, "data: %s\n\n", chunk(content(fmt.Sprintf("word%d ", i)), ""))
	}
	arg := strings.Repeat("x", 20)
	body.WriteString("data: " + chunk(content("\n<tool_call>\n{\"name\": \"write\", \"arguments\": {\"text\": \""), "") + "\n\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&body, "data: %s\n\n", chunk(content(arg), ""))
	}
	body.WriteString("data: " + chunk(content("\"}}\n</tool_call>"), "") + "\n\n")
	body.WriteString("data: " + chunk(`{}`, "stop") + "\n\ndata: [DONE]\n\n")
	stream := body.String()
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, stream)
	}))
	defer backend.Close()
	h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: backend.URL + "/v1", Syntax: "hermes"}}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	req := `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`
	res, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(req))
	if err != nil {
		b.Fatal(err)
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(out), `"finish_reason":"tool_calls"`) {
		b.Fatalf("serve did not make the call native:\n%.2000s", out)
	}
	run := func(b *testing.B, url string) {
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			res, err := http.Post(url, "application/json", strings.NewReader(req))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}
	b.Run("direct", func(b *testing.B) { run(b, backend.URL+"/v1/chat/completions") })
	b.Run("serve", func(b *testing.B) { run(b, srv.URL+"/v1/chat/completions") })
}
