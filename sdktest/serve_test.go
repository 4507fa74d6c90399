package sdktest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolparse/toolparse/serve"
)

// qwenBackend is a fake Chat Completions server on the loopback interface
// whose model writes a Qwen3-Coder call as text, cut across chunks.
func qwenBackend(t *testing.T) *httptest.Server {
	parts := []string{"I'll write it.\n<tool_call>\n<function=write_file>\n<parameter=path>\na.go\n</para", "meter>\n<parameter=content>\npackage a\n\nfunc F() {}\n</parameter>\n</function>\n</tool_call>"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range parts {
			b, _ := jsonString(p)
			io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":`+b+`},"finish_reason":null}]}`+"\n\n")
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[],"usage":{"prompt_tokens":300,"completion_tokens":42,"total_tokens":342}}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func jsonString(s string) (string, error) {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}

// TestServeThroughTheSDKs points the official Go SDKs' clients at
// toolparse serve, in front of a backend whose model writes Qwen3-Coder
// text: each gets the call as its API's native tool call, streamed and
// whole.
func TestServeThroughTheSDKs(t *testing.T) {
	backend := qwenBackend(t)
	h, err := serve.New(serve.Config{Routes: []serve.Route{{Backend: backend.URL + "/v1", Model: "Qwen/Qwen3-Coder-30B-A3B-Instruct"}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	const args = `{"path":"a.go","content":"package a\n\nfunc F() {}"}`

	oc := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("k"), option.WithMaxRetries(0))
	params := openai.ChatCompletionNewParams{Model: "gpt-4o", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("write a.go")}}
	sp := params
	sp.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)} // the counts come when asked for
	s := oc.Chat.Completions.NewStreaming(ctx, sp)
	var acc openai.ChatCompletionAccumulator
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if m := acc.Choices[0].Message; len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "write_file" || m.ToolCalls[0].Function.Arguments != args || acc.Choices[0].FinishReason != "tool_calls" || m.Content != "I'll write it." {
		t.Errorf("openai stream: %+v", acc.Choices)
	}
	if acc.Usage.PromptTokens != 300 || acc.Usage.CompletionTokens != 42 {
		t.Errorf("openai stream usage: %+v", acc.Usage)
	}
	whole, err := oc.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if m := whole.Choices[0].Message; len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Arguments != args || whole.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("openai whole: %+v", whole.Choices)
	}
	if whole.Usage.TotalTokens != 342 {
		t.Errorf("openai whole usage: %+v", whole.Usage)
	}

	rs := oc.Responses.NewStreaming(ctx, responses.ResponseNewParams{Model: "gpt-5-codex", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("write a.go")}})
	var final *responses.Response
	for rs.Next() {
		if ev := rs.Current(); ev.Type == "response.completed" {
			r := ev.Response
			final = &r
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	if final == nil || len(final.Output) != 2 || final.Output[1].Type != "function_call" || final.Output[1].Arguments.OfString != args {
		t.Errorf("responses stream: %+v", final)
	} else if final.Usage.InputTokens != 300 || final.Usage.OutputTokens != 42 {
		t.Errorf("responses stream usage: %+v", final.Usage)
	}

	ac := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("k"), aoption.WithMaxRetries(0))
	mp := anthropic.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024, Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("write a.go"))}}
	as := ac.Messages.NewStreaming(ctx, mp)
	var msg anthropic.Message
	for as.Next() {
		if err := msg.Accumulate(as.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := as.Err(); err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 2 || msg.Content[1].Type != "tool_use" || msg.Content[1].Name != "write_file" || string(msg.Content[1].Input) != args || msg.StopReason != "tool_use" {
		t.Errorf("anthropic stream: %+v", msg)
	}
	if msg.Usage.OutputTokens != 42 {
		t.Errorf("anthropic stream usage: %+v", msg.Usage)
	}
	wm, err := ac.Messages.New(ctx, mp)
	if err != nil {
		t.Fatal(err)
	}
	if len(wm.Content) != 2 || wm.Content[1].Name != "write_file" || wm.StopReason != "tool_use" || wm.Model != "claude-sonnet-4-5" {
		t.Errorf("anthropic whole: %+v", wm)
	}
	if wm.Usage.InputTokens != 300 || wm.Usage.OutputTokens != 42 {
		t.Errorf("anthropic whole usage: %+v", wm.Usage)
	}
}
