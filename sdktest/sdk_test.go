// Package sdktest holds the tests that put what toolparse writes through
// the official SDKs' own types. It is a module of its own, so that the
// library gains no dependency on any SDK: run it with
//
//	cd sdktest && go test ./...
package sdktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/ollama/ollama/api"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// turns is a conversation with every kind of event a request carries: a
// thought with the form's opaque state, text, a batch of two calls (one
// with the form's state), their results (a string, an object, a failure),
// and the answer.
func turns(form string) *conversation.Conversation {
	state := map[string]struct{ thought, call string }{
		"anthropic":        {`{"anthropic":{"type":"thinking","signature":"EqQBCgIYAhIM"}}`, ``},
		"gemini":           {`{"gemini":{"thoughtSignature":"CiMBjz1rX25K"}}`, `{"gemini":{"thoughtSignature":"CiMBjz1rX25L"}}`},
		"openai-responses": {``, `{"openai-responses":{"id":"fc_1"}}`},
	}[form]
	raw := func(s string) json.RawMessage {
		if s == "" {
			return nil
		}
		return json.RawMessage(s)
	}
	assistant := []syntax.Event{
		{Type: syntax.Think, Content: "Both cities are needed.", Opaque: raw(state.thought)},
		{Type: syntax.Respond, Content: "Looking them up."},
		{Type: syntax.Call, Name: "get_weather", Args: json.RawMessage(`{"city":"Paris"}`), ID: "call_a", Opaque: raw(state.call)},
		{Type: syntax.Call, Name: "get_weather", Args: json.RawMessage(`{"city":"Oslo"}`), ID: "call_b"},
		{Type: syntax.Execute},
	}
	if form == "openai-responses" {
		assistant = append(assistant[:1:1], assistant[1:]...)
		assistant = append([]syntax.Event{{Type: syntax.Think, Content: "", Opaque: json.RawMessage(`{"openai-responses":{"id":"rs_1","encrypted_content":"gAAAAB"}}`)}}, assistant...)
	}
	return &conversation.Conversation{Turns: []conversation.Turn{
		{Role: "user", Other: &conversation.Message{Role: "user", Content: "Weather in Paris and Oslo?"}},
		{Role: "assistant", Events: assistant},
		{Role: "tool", Events: []syntax.Event{
			{Type: syntax.Result, Tool: "get_weather", ID: "call_a", Status: syntax.Success, Value: json.RawMessage(`{"temp_c":18}`)},
			{Type: syntax.Result, Tool: "get_weather", ID: "call_b", Status: syntax.Failure, Value: json.RawMessage(`"city not found"`)},
		}},
		{Role: "assistant", Events: []syntax.Event{{Type: syntax.Respond, Content: "Paris is at 18 °C; Oslo was not found."}}},
	}}
}

// toOpenAI is the bridge from a message conversation.Write gives in the
// openai form to openai-go's request type: the message unmarshals into it,
// and reasoning_content — which DeepSeek, Kimi and vLLM require back, and
// which openai-go has no field for — is kept as an extra field.
func toOpenAI(m conversation.Message) (openai.ChatCompletionMessageParamUnion, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return openai.ChatCompletionMessageParamUnion{}, err
	}
	var p openai.ChatCompletionMessageParamUnion
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, err
	}
	var extra struct {
		ReasoningContent string `json:"reasoning_content"`
	}
	json.Unmarshal(raw, &extra)
	if a := p.OfAssistant; a != nil && extra.ReasoningContent != "" {
		a.SetExtraFields(map[string]any{"reasoning_content": extra.ReasoningContent})
	}
	return p, nil
}

// openaiMessage is the value toOpenAI gives, for the table below.
type openaiMessage struct {
	openai.ChatCompletionMessageParamUnion
}

func (o *openaiMessage) UnmarshalJSON(b []byte) error {
	var m conversation.Message
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	p, err := toOpenAI(m)
	o.ChatCompletionMessageParamUnion = p
	return err
}

func (o openaiMessage) MarshalJSON() ([]byte, error) {
	return json.Marshal(o.ChatCompletionMessageParamUnion)
}

// dropped are the fields an SDK may leave out of what it sends, each with
// why nothing is lost: "name" on an OpenAI tool message names the tool for
// a reader of the log (the API pairs a result with its call by
// tool_call_id, and has no such field).
var dropped = map[string][]string{
	"openai": {".name"},
}

// sdkTypes makes, for each native form, a value of the SDK's request type
// for one message.
var sdkTypes = map[string]func() any{
	"openai":           func() any { return new(openaiMessage) },
	"openai-responses": func() any { return new(responses.ResponseInputItemUnionParam) },
	"anthropic":        func() any { return new(anthropic.MessageParam) },
	"gemini":           func() any { return new(genai.Content) },
	"ollama":           func() any { return new(api.Message) },
}

// TestMessagesThroughTheSDKs: every message conversation.Write produces in
// a native form unmarshals into the official Go SDK's request type for
// that form, and marshals back with every field it had (the SDK keeps
// what the API takes; a field it drops would not reach the model).
func TestMessagesThroughTheSDKs(t *testing.T) {
	for form, newValue := range sdkTypes {
		s, err := registry.Lookup(form)
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := conversation.Write(turns(form), s, syntax.Options{})
		if err != nil {
			t.Errorf("%s: %v", form, err)
		}
		if len(msgs) < 4 {
			t.Fatalf("%s: %d messages", form, len(msgs))
		}
		for _, m := range msgs {
			ours, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			v := newValue()
			if err := json.Unmarshal(ours, v); err != nil {
				t.Errorf("%s: %s does not unmarshal into %T: %v", form, ours, v, err)
				continue
			}
			back, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			o := decode(t, ours)
			for _, k := range dropped[form] {
				if obj, ok := o.(map[string]any); ok {
					delete(obj, strings.TrimPrefix(k, "."))
				}
			}
			if missing := lost(o, decode(t, back), ""); missing != "" {
				t.Errorf("%s: %T drops %s\n ours: %s\n  SDK: %s", form, v, missing, ours, back)
			}
		}
	}
}

// TestStateSurvivesTheSDKs: the opaque state the next request needs —
// Anthropic's thinking signature, Gemini's thought signatures, a Responses
// reasoning item's id and encrypted content and a call item's id — is in
// what the SDK sends.
func TestStateSurvivesTheSDKs(t *testing.T) {
	for form, want := range map[string][]string{
		"anthropic":        {`"signature":"EqQBCgIYAhIM"`},
		"gemini":           {`"thoughtSignature":"CiMBjz1rX25K"`, `"thoughtSignature":"CiMBjz1rX25L"`},
		"openai-responses": {`"id":"rs_1"`, `"encrypted_content":"gAAAAB"`, `"id":"fc_1"`},
		"openai":           {`"reasoning_content":"Both cities are needed."`},
	} {
		s, _ := registry.Lookup(form)
		msgs, _ := conversation.Write(turns(form), s, syntax.Options{})
		var sent bytes.Buffer
		for _, m := range msgs {
			ours, _ := json.Marshal(m)
			v := sdkTypes[form]()
			if err := json.Unmarshal(ours, v); err != nil {
				t.Fatal(err)
			}
			back, _ := json.Marshal(v)
			sent.Write(back)
		}
		for _, w := range want {
			if !strings.Contains(sent.String(), w) {
				t.Errorf("%s: %s is not in what the SDK sends:\n%s", form, w, sent.String())
			}
		}
	}
}

// TestAnthropicResultContent: a result that is an object reaches the
// Messages API's tool_result as text (a bare object was dropped by the SDK,
// and the model never saw the tool's output), and a failure as is_error.
func TestAnthropicResultContent(t *testing.T) {
	s, _ := registry.Lookup("anthropic")
	msgs, _ := conversation.Write(turns("anthropic"), s, syntax.Options{})
	var found bool
	for _, m := range msgs {
		ours, _ := json.Marshal(m)
		var p anthropic.MessageParam
		if err := json.Unmarshal(ours, &p); err != nil || p.OfUser == nil {
			continue
		}
		for _, b := range p.OfUser.Content {
			if r := b.OfToolResult; r != nil {
				found = true
				text := ""
				for _, c := range r.Content {
					if c.OfText != nil {
						text += c.OfText.Text
					}
				}
				if r.ToolUseID == "call_a" && !strings.Contains(text, `"temp_c":18`) {
					t.Errorf("the object result reached the SDK as %q", text)
				}
				if r.ToolUseID == "call_b" && !r.IsError.Value {
					t.Errorf("the failure lost is_error")
				}
			}
		}
	}
	if !found {
		t.Error("no tool_result reached the SDK")
	}
}

func decode(t *testing.T, b []byte) any {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// lost names the first member of ours (at path) that back does not have
// with the same value, or "".
func lost(ours, back any, path string) string {
	switch o := ours.(type) {
	case map[string]any:
		b, ok := back.(map[string]any)
		if !ok {
			return path + " (an object)"
		}
		for k, v := range o {
			bv, ok := b[k]
			if !ok {
				if isZero(v) {
					continue // an empty value the SDK leaves out says the same
				}
				return path + "." + k
			}
			if m := lost(v, bv, path+"."+k); m != "" {
				return m
			}
		}
		return ""
	case []any:
		b, ok := back.([]any)
		if !ok || len(b) != len(o) {
			return path + " (an array)"
		}
		for i := range o {
			if m := lost(o[i], b[i], fmt.Sprintf("%s[%d]", path, i)); m != "" {
				return m
			}
		}
		return ""
	case string:
		// A string the SDK sends as the content blocks it stands for.
		if arr, ok := back.([]any); ok && len(arr) == 1 {
			if blk, ok := arr[0].(map[string]any); ok && blk["text"] == o {
				return ""
			}
		}
	}
	if !reflect.DeepEqual(ours, back) {
		return fmt.Sprintf("%s (%v, sent as %v)", path, ours, back)
	}
	return ""
}

func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}
