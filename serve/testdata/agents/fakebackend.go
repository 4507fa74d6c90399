// A scripted Chat Completions backend (for run.sh) whose "model" writes Hermes calls as
// text: the first turn runs a Bash command, the turn after a result
// answers. It logs each request's body.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	logf, _ := os.Create(os.Args[2])
	n := 0
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		n++
		fmt.Fprintf(logf, "=== %d %s %s\n%s\n", n, r.Method, r.URL.Path, b)
		if r.URL.Path == "/v1/models" {
			io.WriteString(w, `{"object":"list","data":[{"id":"qwen","object":"model"}]}`)
			return
		}
		var req struct {
			Messages []map[string]any `json:"messages"`
			Tools    []any            `json:"tools"`
		}
		json.Unmarshal(b, &req)
		last := req.Messages[len(req.Messages)-1]
		text := "<tool_call>\n{\"name\": \"Bash\", \"arguments\": {\"command\": \"echo hello-from-toolparse\", \"description\": \"Print a greeting\"}}\n</tool_call>"
		if strings.Contains(string(b), `"exec_command"`) {
			text = "<tool_call>\n{\"name\": \"exec_command\", \"arguments\": {\"cmd\": \"echo hello-from-toolparse\"}}\n</tool_call>"
		}
		if last["role"] == "tool" || strings.Contains(fmt.Sprint(last["content"]), "hello-from-toolparse") {
			text = "The command printed hello-from-toolparse."
		}
		if len(req.Tools) == 0 && !strings.Contains(string(b), "Bash") {
			text = "A title"
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for len(text) > 0 {
			k := min(7, len(text))
			c, _ := json.Marshal(text[:k])
			text = text[k:]
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"qwen\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}\n\n", c)
			w.(http.Flusher).Flush()
			time.Sleep(2 * time.Millisecond)
		}
		io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"qwen\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
		io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"qwen\",\"choices\":[],\"usage\":{\"prompt_tokens\":1200,\"completion_tokens\":40,\"total_tokens\":1240}}\n\ndata: [DONE]\n\n")
	})
	log.Fatal(http.ListenAndServe(os.Args[1], nil))
}
