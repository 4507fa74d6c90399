package conversation_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/wire"
)

// providerLogs are chat logs in each provider's own message form, each with
// the events it must give. Sources (the tools' outputs and the model's last
// answers are ours, as marked):
//
//   - openai-responses: the function-calling guide of OpenAI's API
//     documentation (platform.openai.com/docs/guides/function-calling): the
//     function_call item fc_12345xyz / call_12345xyz, get_weather for
//     "Paris, France", given back as input with its function_call_output.
//   - openai: the same call in the Chat Completions form of that guide
//     (an assistant message with tool_calls, a "tool" message with
//     tool_call_id).
//   - anthropic: "Handle tool calls" of Anthropic's documentation
//     (platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls):
//     toolu_01A09q90qw90lq917835lq9 and a tool_result of "15 degrees"; the
//     user's text after the tool_result block is ours.
//   - gemini: the function-calling guide of the Gemini API
//     (ai.google.dev/gemini-api/docs/function-calling): set_light_values
//     with brightness 25 and warm, and its functionResponse.
//   - ollama: Ollama's tool-calling documentation
//     (docs.ollama.com/capabilities/tool-calling): get_temperature for New
//     York and a "tool" message naming its tool with tool_name, "22°C"; the
//     thinking beside the call is ours.
var providerLogs = map[string]struct{ log, events string }{
	"openai": {`{"messages": [
 {"role": "system", "content": "You are a helpful assistant."},
 {"role": "user", "content": "What's the weather like in Paris today?"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "call_12345xyz", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"}}]},
 {"role": "tool", "tool_call_id": "call_12345xyz", "content": "15°C, partly cloudy"},
 {"role": "assistant", "content": "It is 15°C and partly cloudy in Paris."}
]}`, `{"type":"call","name":"get_weather","args":{"location":"Paris, France"},"id":"call_12345xyz"}
{"type":"execute"}
{"type":"result","tool":"get_weather","id":"call_12345xyz","status":"success","content":"15°C, partly cloudy"}
{"type":"respond","content":"It is 15°C and partly cloudy in Paris."}
{"type":"end"}
`},
	"openai-responses": {`{"input": [
 {"role": "user", "content": "What's the weather like in Paris today?"},
 {"type": "function_call", "id": "fc_12345xyz", "call_id": "call_12345xyz", "name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"},
 {"type": "function_call_output", "call_id": "call_12345xyz", "output": "15°C, partly cloudy"},
 {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "It is 15°C and partly cloudy in Paris."}]}
]}`, `{"type":"call","name":"get_weather","args":{"location":"Paris, France"},"id":"call_12345xyz","opaque":{"openai-responses":{"id":"fc_12345xyz"}}}
{"type":"execute"}
{"type":"result","tool":"get_weather","id":"call_12345xyz","status":"success","content":"15°C, partly cloudy"}
{"type":"respond","content":"It is 15°C and partly cloudy in Paris."}
{"type":"end"}
`},
	"anthropic": {`[
 {"role": "user", "content": "What's the weather like in San Francisco?"},
 {"role": "assistant", "content": [
  {"type": "text", "text": "<thinking>I need to use get_weather, and the user wants SF, which is likely San Francisco, CA.</thinking>"},
  {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"location": "San Francisco, CA", "unit": "celsius"}}
 ]},
 {"role": "user", "content": [
  {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "15 degrees"},
  {"type": "text", "text": "What should I wear?"}
 ]},
 {"role": "assistant", "content": [{"type": "text", "text": "A light jacket."}]}
]`, `{"type":"respond","content":"<thinking>I need to use get_weather, and the user wants SF, which is likely San Francisco, CA.</thinking>"}
{"type":"call","name":"get_weather","args":{"location":"San Francisco, CA","unit":"celsius"},"id":"toolu_01A09q90qw90lq917835lq9"}
{"type":"execute"}
{"type":"result","tool":"get_weather","id":"toolu_01A09q90qw90lq917835lq9","status":"success","content":"15 degrees"}
{"type":"respond","content":"A light jacket."}
{"type":"end"}
`},
	"gemini": {`{"contents": [
 {"role": "user", "parts": [{"text": "Turn the lights down to a romantic level"}]},
 {"role": "model", "parts": [{"functionCall": {"name": "set_light_values", "args": {"brightness": 25, "color_temp": "warm"}}}]},
 {"role": "user", "parts": [{"functionResponse": {"name": "set_light_values", "response": {"result": {"brightness": 25, "colorTemperature": "warm"}}}}]},
 {"role": "model", "parts": [{"text": "I've dimmed the lights to a warm, romantic setting."}]}
]}`, `{"type":"call","name":"set_light_values","args":{"brightness":25,"color_temp":"warm"}}
{"type":"execute"}
{"type":"result","tool":"set_light_values","status":"success","content":{"result":{"brightness":25,"colorTemperature":"warm"}}}
{"type":"respond","content":"I've dimmed the lights to a warm, romantic setting."}
{"type":"end"}
`},
	"ollama": {`{"messages": [
 {"role": "user", "content": "What is the temperature in New York?"},
 {"role": "assistant", "content": "", "thinking": "The user wants the temperature; get_temperature takes a city.", "tool_calls": [{"type": "function", "function": {"index": 0, "name": "get_temperature", "arguments": {"city": "New York"}}}]},
 {"role": "tool", "tool_name": "get_temperature", "content": "22°C"},
 {"role": "assistant", "content": "It is 22°C in New York."}
]}`, `{"type":"think","content":"The user wants the temperature; get_temperature takes a city."}
{"type":"call","name":"get_temperature","args":{"city":"New York"}}
{"type":"execute"}
{"type":"result","tool":"get_temperature","status":"success","content":"22°C"}
{"type":"respond","content":"It is 22°C in New York."}
{"type":"end"}
`},
}

// nativeForms are the forms a conversation can be written in.
var nativeForms = []string{"anthropic", "openai", "openai-responses", "gemini", "ollama"}

// TestProviderLogs reads each provider's chat log with the native syntax,
// checks its events, writes it back in its own form (the same events, and
// every message kept) and in every other form (the same events but what the
// form reports it cannot carry), reading each back.
func TestProviderLogs(t *testing.T) {
	nat, err := registry.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	for form, c := range providerLogs {
		msgs, err := conversation.Decode(strings.NewReader(c.log))
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		conv := conversation.Read(msgs, nat, syntax.Options{})
		evs := conv.Events()
		if got := string(syntaxtest.EncodeJSONL(evs)); got != c.events {
			t.Errorf("%s: events:\n%s\nwant:\n%s", form, got, c.events)
		}
		for _, to := range nativeForms {
			s, err := registry.Lookup(to)
			if err != nil {
				t.Fatal(err)
			}
			back, werr := conversation.Write(conv, s, syntax.Options{})
			if werr != nil && !errors.Is(werr, wire.ErrCannotCarry) && to == form {
				t.Errorf("%s written as %s: %v", form, to, werr)
			}
			var text bytes.Buffer
			for _, m := range back {
				b, _ := json.Marshal(m)
				text.Write(append(b, '\n'))
			}
			again, err := conversation.Decode(&text)
			if err != nil {
				t.Fatalf("%s written as %s: %v\n%s", form, to, err, text.Bytes())
			}
			got := conversation.Read(again, nat, syntax.Options{}).Events()
			want, got := wire.NormalizePair(evs, got)
			if werr != nil {
				t.Logf("%s written as %s: %v", form, to, werr)
			}
			if d := cmp.Diff(want, got); d != "" && (werr == nil || to == form) {
				t.Errorf("%s written as %s (reported: %v) and read again, the events differ:\n%s\nmessages:\n%s", form, to, werr, d, text.Bytes())
			}
			if to == form && len(again) != len(msgs) {
				t.Errorf("%s written in its own form: %d messages for %d:\n%s", form, len(again), len(msgs), text.Bytes())
			}
		}
	}
}

// TestProviderLogWrittenAsIs: a log written back in its own form keeps its
// messages as they were, but the assistant's and the results', which are
// written anew.
func TestProviderLogWrittenAsIs(t *testing.T) {
	nat, _ := registry.Lookup("native")
	to, _ := registry.Lookup("openai")
	msgs, _ := conversation.Decode(strings.NewReader(providerLogs["openai"].log))
	back, err := conversation.Write(conversation.Read(msgs, nat, syntax.Options{}), to, syntax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range back {
		b, _ := json.Marshal(m)
		got = append(got, string(b))
	}
	want := []string{
		`{"role":"system","content":"You are a helpful assistant."}`,
		`{"role":"user","content":"What's the weather like in Paris today?"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_12345xyz","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"Paris, France\"}"}}]}`,
		`{"role":"tool","tool_call_id":"call_12345xyz","name":"get_weather","content":"15°C, partly cloudy"}`,
		`{"role":"assistant","content":"It is 15°C and partly cloudy in Paris."}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestTextSyntaxWithNativeCalls: a log of a text syntax whose assistant
// messages also carry native calls (an agent that switched syntax, or a
// provider's tool_calls beside text): both are read, and the result finds
// its tool by its call's id.
func TestTextSyntaxWithNativeCalls(t *testing.T) {
	s, _ := registry.Lookup("xmljson")
	msgs, err := conversation.Decode(strings.NewReader(`[
 {"role": "assistant", "content": "<think>List first</think>", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
 {"role": "tool", "tool_call_id": "call_1", "content": "[\"a.txt\"]"},
 {"role": "assistant", "content": "<execute>[{\"name\": \"read\", \"args\": {\"file\": \"a.txt\"}}]</execute>"}
]`))
	if err != nil {
		t.Fatal(err)
	}
	got := string(syntaxtest.EncodeJSONL(conversation.Read(msgs, s, syntax.Options{}).Events()))
	want := `{"type":"think","content":"List first"}
{"type":"call","name":"ls","args":{},"id":"call_1"}
{"type":"execute"}
{"type":"result","tool":"ls","id":"call_1","status":"success","content":["a.txt"]}
{"type":"call","name":"read","args":{"file":"a.txt"}}
{"type":"execute"}
{"type":"end"}
`
	if got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// TestOddMessages: messages of no known form, or of a form with the wrong
// types in it, are kept or reported, never a panic, in every form.
func TestOddMessages(t *testing.T) {
	msgs, err := conversation.Decode(strings.NewReader(`[
 {"role": "user", "content": 5},
 {"role": "model", "parts": "x"},
 {"type": "reasoning"},
 {"content": "no role"},
 {"role": "assistant", "content": [{"type": "tool_use"}], "thinking": 3},
 {"role": "tool", "content": {"a": 1}},
 {"type": "function_call_output", "call_id": "nope", "output": [1]},
 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x"}, {"type": "image", "source": {}}]}
]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{"native", "xmljson"} {
		s, _ := registry.Lookup(from)
		c := conversation.Read(msgs, s, syntax.Options{})
		for _, to := range append([]string{"xmljson", "caret"}, nativeForms...) {
			target, _ := registry.Lookup(to)
			back, _ := conversation.Write(c, target, syntax.Options{})
			for _, m := range back {
				if b, err := json.Marshal(m); err != nil || !json.Valid(b) {
					t.Errorf("%s → %s: message %q: %v", from, to, b, err)
				}
			}
		}
	}
}

// FuzzConversation: any transcript that decodes is read and written in
// every form without a panic, and every message written is JSON.
func FuzzConversation(f *testing.F) {
	for _, c := range providerLogs {
		f.Add(c.log)
	}
	nat, _ := registry.Lookup("native")
	f.Fuzz(func(t *testing.T, log string) {
		msgs, err := conversation.Decode(strings.NewReader(log))
		if err != nil {
			return
		}
		c := conversation.Read(msgs, nat, syntax.Options{})
		for _, to := range nativeForms {
			target, _ := registry.Lookup(to)
			back, _ := conversation.Write(c, target, syntax.Options{})
			for _, m := range back {
				if b, err := json.Marshal(m); err != nil || !json.Valid(b) {
					t.Fatalf("%s: message %q: %v", to, b, err)
				}
			}
		}
	})
}
