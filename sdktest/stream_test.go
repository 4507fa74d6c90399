package sdktest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/ollama/ollama/api"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// got is what a client's SDK made of a stream: the text of each kind (runs
// joined by a blank line, each trimmed), the calls (name and arguments as
// JSON values, sorted), whether the stream ended in an error, and the stop
// reason in the form's words.
type got struct {
	Text  map[string]string
	Calls []string
	Err   bool
	Stop  string
}

func (g *got) text(kind, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if g.Text == nil {
		g.Text = map[string]string{}
	}
	if g.Text[kind] != "" {
		g.Text[kind] += "\n\n"
	}
	g.Text[kind] += s
}

func (g *got) call(name, args string) {
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		g.Calls = append(g.Calls, name+"(invalid: "+args+")")
		return
	}
	a, _ := json.Marshal(v)
	g.Calls = append(g.Calls, fmt.Sprintf("%s(%s)", name, a))
}

// eachTurn calls f with the first turn (firstTurn) of every golden case of
// every built-in syntax, parsed in token mode in chunks of each size (0:
// whole), named "syntax/file".
func eachTurn(t *testing.T, sizes []int, f func(name string, size int, turn []syntax.Event, cut, failed bool)) {
	t.Helper()
	for _, s := range registry.Builtin() {
		gs, err := syntaxtest.ReadGoldens(filepath.Join("..", "syntax", s.Name, "testdata"))
		if err != nil {
			t.Fatal(err)
		}
		for _, gc := range gs {
			if gc.Options.Content != nil {
				continue
			}
			opts := gc.Options
			opts.Mode = syntax.TokenMode
			for _, size := range sizes {
				if size == 0 {
					size = len(gc.Input) + 1
				}
				turn, cut, failed := firstTurn(syntax.ParseChunks(s, syntaxtest.Split(gc.Input, size), opts))
				f(s.Name+"/"+filepath.Base(gc.Path), size, turn, cut, failed)
			}
		}
	}
}

// firstTurn is the events up to the end of the first response a stream
// form writes: the first execute, or a call that fails after it began to
// stream (cut: by the end of the input or a limit; failed: by an error).
// The SDKs read one response.
func firstTurn(evs []syntax.Event) (turn []syntax.Event, cut, failed bool) {
	streaming := 0 // calls that began to stream and did not complete
	for i, e := range evs {
		switch {
		case e.Type == syntax.Execute:
			return evs[:i+1], false, false
		case e.Type == syntax.Error && streaming > 0:
			c := e.Code == syntax.CodeTruncated || e.Code == syntax.CodeOverLimit
			return evs[:i+1], c, !c
		case e.Type == syntax.Result:
			return evs[:i], false, false
		case e.Type == syntax.Call && e.Partial && e.Param == "" && e.Delta == "":
			streaming++
		case e.Type == syntax.Call && !e.Partial && streaming > 0:
			streaming--
		}
	}
	return evs, false, false
}

// cutStops are the stop reasons that say a response was cut off.
var cutStops = []string{"length", "max_tokens", "incomplete", "MAX_TOKENS"}

// want is what a client should get from a turn: its text and its calls,
// less a call whose parameters streamed a key twice (the stream ends in
// the form's error instead).
func want(turn []syntax.Event, failed bool) got {
	var w got
	keys := map[string]bool{}
	repeated := false
	for _, e := range turn {
		switch {
		case e.Type == syntax.Think && !e.Partial:
			w.text("think", e.Content)
		case e.Type == syntax.Respond && !e.Partial:
			w.text("respond", e.Content)
		case e.Type != syntax.Call:
		case e.Partial && e.Param == "" && e.Delta == "":
			clear(keys)
			repeated = false
		case e.Partial && e.Param != "" && e.Delta == "":
			repeated = repeated || keys[e.Param]
			keys[e.Param] = true
		case !e.Partial:
			if repeated {
				failed = true
				continue
			}
			w.call(e.Name, string(e.ArgsJSON()))
		}
	}
	w.Err = failed
	slices.Sort(w.Calls)
	return w
}

// backend is a server on the loopback interface that answers every
// request with the stream set last (the SDKs' requests are read one at a
// time).
type backend struct {
	srv  *httptest.Server
	body []byte
	ct   string
}

var backends = map[string]*backend{}

// serveStream makes the form's backend answer with body, as content type ct.
func serveStream(t *testing.T, body []byte, ct string) *httptest.Server {
	b := backends[ct]
	if b == nil {
		b = &backend{ct: ct}
		b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", b.ct)
			w.Write(b.body)
		}))
		backends[ct] = b
	}
	b.body = body
	return b.srv
}

// clients reads a stream with each form's official SDK, through its
// client, from a server on the loopback interface.
var clients = map[string]func(t *testing.T, stream []byte) got{
	"openai": func(t *testing.T, stream []byte) got {
		srv := serveStream(t, stream, "text/event-stream")
		c := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("k"), option.WithMaxRetries(0))
		s := c.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
			Model: "m", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var acc openai.ChatCompletionAccumulator
		var g got
		var reasoning strings.Builder
		for s.Next() {
			ch := s.Current()
			acc.AddChunk(ch)
			if len(ch.Choices) > 0 {
				var d struct {
					ReasoningContent string `json:"reasoning_content"`
				}
				json.Unmarshal([]byte(ch.Choices[0].Delta.RawJSON()), &d)
				reasoning.WriteString(d.ReasoningContent)
			}
		}
		g.Err = s.Err() != nil
		g.text("think", reasoning.String())
		if len(acc.Choices) > 0 {
			m := acc.Choices[0].Message
			g.text("respond", m.Content)
			g.text("respond", m.Refusal)
			for _, tc := range m.ToolCalls {
				g.call(tc.Function.Name, tc.Function.Arguments)
			}
			g.Stop = acc.Choices[0].FinishReason
		}
		return g
	},
	"openai-responses": func(t *testing.T, stream []byte) got {
		srv := serveStream(t, stream, "text/event-stream")
		c := openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("k"), option.WithMaxRetries(0))
		s := c.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{Model: "m"})
		var g got
		var final *responses.Response
		for s.Next() {
			ev := s.Current()
			switch ev.Type {
			case "response.completed", "response.incomplete":
				r := ev.Response
				final = &r
				g.Stop = string(r.Status)
			case "error":
				g.Err = true
			}
		}
		g.Err = g.Err || s.Err() != nil
		if final != nil {
			for _, it := range final.Output {
				switch it.Type {
				case "message":
					for _, c := range it.Content {
						g.text("respond", c.Text+c.Refusal)
					}
				case "reasoning":
					for _, p := range it.Summary {
						g.text("think", p.Text)
					}
				case "function_call":
					g.call(it.Name, it.Arguments.OfString)
				}
			}
		}
		return g
	},
	"anthropic": func(t *testing.T, stream []byte) got {
		srv := serveStream(t, stream, "text/event-stream")
		c := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("k"), aoption.WithMaxRetries(0))
		s := c.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{
			Model: "m", MaxTokens: 10, Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
		var m anthropic.Message
		var g got
		for s.Next() {
			if err := m.Accumulate(s.Current()); err != nil {
				t.Errorf("Accumulate: %v", err)
			}
		}
		g.Err = s.Err() != nil
		for _, b := range m.Content {
			switch b.Type {
			case "text":
				g.text("respond", b.Text)
			case "thinking":
				g.text("think", b.Thinking)
			case "tool_use":
				g.call(b.Name, string(b.Input))
			}
		}
		if m.StopReason == "refusal" {
			g.text("respond", m.StopDetails.Explanation)
		}
		g.Stop = string(m.StopReason)
		return g
	},
	"gemini": func(t *testing.T, stream []byte) got {
		srv := serveStream(t, stream, "text/event-stream")
		c, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: "k", Backend: genai.BackendGeminiAPI,
			HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL}})
		if err != nil {
			t.Fatal(err)
		}
		var g got
		var think, text strings.Builder
		for r, err := range c.Models.GenerateContentStream(context.Background(), "m", genai.Text("hi"), nil) {
			if err != nil {
				g.Err = true
				break
			}
			for _, cand := range r.Candidates {
				if cand.FinishReason != "" {
					g.Stop = string(cand.FinishReason)
				}
				if cand.Content == nil {
					continue
				}
				for _, p := range cand.Content.Parts {
					switch {
					case p.FunctionCall != nil:
						a, _ := json.Marshal(p.FunctionCall.Args)
						g.call(p.FunctionCall.Name, string(a))
					case p.Thought:
						think.WriteString(p.Text)
					default:
						text.WriteString(p.Text)
					}
				}
			}
		}
		g.text("think", think.String())
		g.text("respond", text.String())
		return g
	},
	"ollama": func(t *testing.T, stream []byte) got {
		srv := serveStream(t, stream, "application/x-ndjson")
		u, _ := url.Parse(srv.URL)
		c := api.NewClient(u, srv.Client())
		var g got
		var think, text strings.Builder
		err := c.Chat(context.Background(), &api.ChatRequest{Model: "m", Messages: []api.Message{{Role: "user", Content: "hi"}}},
			func(r api.ChatResponse) error {
				think.WriteString(r.Message.Thinking)
				text.WriteString(r.Message.Content)
				for _, tc := range r.Message.ToolCalls {
					a, _ := json.Marshal(tc.Function.Arguments)
					g.call(tc.Function.Name, string(a))
				}
				if r.Done {
					g.Stop = r.DoneReason
				}
				return nil
			})
		g.Err = err != nil
		g.text("think", think.String())
		g.text("respond", text.String())
		return g
	},
}

// TestStreamsThroughTheSDKs encodes the first turn of every golden case of
// every syntax (token mode, several chunkings) in each native stream form,
// serves it on the loopback interface, and reads it with that form's
// official Go SDK: what the SDK accumulates — text, thoughts, calls with
// their arguments — equals the events; a turn whose call fails after it
// began to stream is an error to the SDK (or a cut, never the calls stop
// reason).
func TestStreamsThroughTheSDKs(t *testing.T) {
	native, err := registry.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	eachTurn(t, []int{0, 3}, func(name string, size int, turn []syntax.Event, cut, failed bool) {
		for _, v := range native.Variants {
			read := clients[v.Name]
			if read == nil {
				t.Fatalf("no SDK reads the %s form", v.Name)
			}
			var buf bytes.Buffer
			// What the form cannot carry (results, errors, hosted tools) is
			// reported and left out; a refusal is text to want.
			syntax.Render(v.Render(&buf, syntax.Options{Mode: syntax.TokenMode}), append(slices.Clip(turn), syntax.Event{Type: syntax.End}))
			w := want(turn, failed)
			if sig := unreadableSignature(buf.Bytes()); sig != "" {
				t.Logf("%s as %s: skipped: the case's thoughtSignature %q is no base64, which genai (whose field is bytes) refuses", name, v.Name, sig)
				continue
			}
			g := read(t, buf.Bytes())
			slices.Sort(g.Calls)
			if g.Err && !w.Err {
				t.Errorf("%s as %s: the SDK failed on the stream:\n%s", name, v.Name, buf.Bytes())
				continue
			}
			if w.Err {
				if !g.Err && g.Stop != "MALFORMED_FUNCTION_CALL" {
					t.Errorf("%s as %s: a call failed after it streamed, but the SDK saw no error (stop %q)", name, v.Name, g.Stop)
				}
				continue
			}
			if cut {
				// The SDK holds the call cut off as the provider's own
				// cut leaves it; the stop reason says not to run it.
				if !slices.Contains(cutStops, g.Stop) {
					t.Errorf("%s as %s: a call was cut off after it streamed, but the stop reason is %q", name, v.Name, g.Stop)
				}
				if len(g.Calls) > len(w.Calls)+1 {
					t.Errorf("%s as %s: calls %v, want %v and the one cut off", name, v.Name, g.Calls, w.Calls)
				}
				continue
			}
			g.Err, g.Stop = false, ""
			if !equal(w, g) {
				t.Errorf("%s as %s, %d-byte chunks: the SDK made\n  %+v\nof a turn that is\n  %+v\nstream:\n%s", name, v.Name, size, g, w, buf.Bytes())
			}
			n++
		}
	})
	if n < 500 {
		t.Errorf("only %d streams read", n)
	}
	for _, b := range backends {
		b.srv.Close()
	}
}

func equal(a, b got) bool {
	if len(a.Text) == 0 && len(b.Text) == 0 {
		a.Text, b.Text = nil, nil
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// unreadableSignature finds a thoughtSignature in a stream that is not
// base64 (made-up values in some golden cases), or "".
func unreadableSignature(stream []byte) string {
	for _, m := range sigRE.FindAllSubmatch(stream, -1) {
		if _, err := base64.StdEncoding.DecodeString(string(m[1])); err != nil {
			return string(m[1])
		}
	}
	return ""
}

var sigRE = regexp.MustCompile(`"thoughtSignature":"([^"]*)"`)
