package conversation_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// chatLog is an OpenAI Chat log with a batch of two calls, their results
// (one an error the tool reported), and the answer.
const chatLog = `{"messages":[
{"role":"user","content":"Weather in Paris and Oslo?"},
{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},{"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},
{"role":"tool","tool_call_id":"call_a","content":"{\"temp\":18}"},
{"role":"tool","tool_call_id":"call_b","content":"city not found"},
{"role":"assistant","content":"Paris is 18 degrees."}]}`

// anthropicLog is the same with the second result failed (is_error) and
// content that is an object, as a program may hold it.
const anthropicLog = `[
{"role":"user","content":"Weather in Paris and Oslo?"},
{"role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"get_weather","input":{"city":"Paris"}},{"type":"tool_use","id":"toolu_b","name":"get_weather","input":{"city":"Oslo"}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"18 degrees"},{"type":"tool_result","tool_use_id":"toolu_b","content":"city not found","is_error":true}]},
{"role":"assistant","content":[{"type":"text","text":"Paris is 18 degrees."}]}]`

func read(t *testing.T, log, syn string) *conversation.Conversation {
	t.Helper()
	msgs, err := conversation.Decode(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	s, err := registry.Lookup(syn)
	if err != nil {
		t.Fatal(err)
	}
	return conversation.Read(msgs, s, syntax.Options{})
}

// TestResultsInTheSyntax: written in a model format, a batch's results are
// one user message in the format's result form (hermes, qwen3coder and glm
// write <tool_response>, deepseek its tool outputs), as the format's chat
// template writes them — a fresh renderer for the results turn never saw
// the calls, and every result fell back to a "tool" message. A failed
// result reads "Error: …" there, as prompt teaches.
func TestResultsInTheSyntax(t *testing.T) {
	for _, c := range []struct{ syn, open string }{
		{"hermes", "<tool_response>"}, {"qwen3coder", "<tool_response>"}, {"glm", "<tool_response>"},
		{"deepseek", "<｜tool▁output▁begin｜>"}, {"mistral", "[TOOL_RESULTS]"},
	} {
		for _, log := range []string{chatLog, anthropicLog} {
			conv := read(t, log, "native")
			s, _ := registry.Lookup(c.syn)
			msgs, _ := conversation.Write(conv, s, syntax.Options{})
			var user []string
			for _, m := range msgs {
				if m.Role == "tool" {
					t.Errorf("%s: a result written as a tool message: %s", c.syn, m.Content)
				}
				if m.Role == "user" && strings.Contains(m.Content, "city not found") {
					user = append(user, m.Content)
				}
			}
			if len(user) != 1 || !strings.Contains(user[0], "18") || c.open != "" && strings.Count(user[0], c.open) != 2 {
				t.Errorf("%s: the results are not one user message of two results: %q", c.syn, user)
			}
			if log == anthropicLog && (len(user) != 1 || !strings.Contains(user[0], wire.FailurePrefix+"city not found")) {
				t.Errorf("%s: the failure is not told: %q", c.syn, user)
			}
		}
	}
}

// TestWriteError: what a form cannot carry comes back as one
// *conversation.WriteError that wraps wire.ErrCannotCarry, each loss with
// its turn; a schema finding is not a loss, and an ordinary turn (results
// that are objects, a failure) writes without error in every native form.
func TestWriteError(t *testing.T) {
	set, err := schema.Load([]byte(`[{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"integer"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	conv := read(t, anthropicLog, "native")
	for i, turn := range conv.Turns { // validate the calls, as an agent does
		var evs []syntax.Event
		h := set.Check(func(e syntax.Event) { evs = append(evs, e) })
		for _, e := range turn.Events {
			h(e)
		}
		conv.Turns[i].Events = evs
	}
	for _, form := range []string{"anthropic", "openai", "openai-responses", "ollama", "gemini"} {
		s, _ := registry.Lookup(form)
		if _, err := conversation.Write(conv, s, syntax.Options{}); err != nil {
			t.Errorf("%s: %v", form, err)
		}
	}
	s, _ := registry.Lookup("hermes")
	_, err = conversation.Write(read(t, chatLog, "native"), s, syntax.Options{})
	var werr *conversation.WriteError
	if !errors.As(err, &werr) || !errors.Is(err, wire.ErrCannotCarry) {
		t.Fatalf("hermes: error %v (%T), want a *WriteError wrapping ErrCannotCarry", err, err)
	}
	for _, l := range werr.Losses {
		if !errors.Is(l.Err, wire.ErrCannotCarry) || !strings.Contains(l.Err.Error(), "call_") || l.Turn < 1 {
			t.Errorf("hermes: loss %+v", l)
		}
	}
}

// TestResultIDsAsWritten: a syntax that writes its own call ids (kimi's
// functions.NAME:IDX) has its results' tool messages point at those ids,
// not at the ids the calls came with (the model would see results of calls
// that do not exist).
func TestResultIDsAsWritten(t *testing.T) {
	s, _ := registry.Lookup("kimi")
	msgs, _ := conversation.Write(read(t, chatLog, "native"), s, syntax.Options{})
	var ids []string
	for _, m := range msgs {
		if m.Role == "tool" {
			ids = append(ids, m.ToolCallID)
		}
	}
	if want := []string{"functions.get_weather:0", "functions.get_weather:1"}; strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("tool messages answer %q, want %q", ids, want)
	}
}

// TestResponsesInputItems: written as openai-responses, a conversation is
// Responses input items, its results function_call_output items among
// them (it once wrote {"input":[…]} wrappers among the items).
func TestResponsesInputItems(t *testing.T) {
	s, _ := registry.Lookup("openai-responses")
	msgs, _ := conversation.Write(read(t, chatLog, "native"), s, syntax.Options{})
	outputs := 0
	for _, m := range msgs {
		raw, _ := m.MarshalJSON()
		if strings.Contains(string(raw), `"input":`) {
			t.Errorf("a wrapper among the items: %s", raw)
		}
		if strings.Contains(string(raw), `"type":"function_call_output"`) {
			outputs++
		}
	}
	if outputs != 2 {
		t.Errorf("%d function_call_output items, want 2", outputs)
	}
}

// TestResultsReadTheSame: a log's results are the same events whichever
// syntax reads it (native, a native form's name, auto, a text syntax): a
// tool message's JSON text is that JSON in every case.
func TestResultsReadTheSame(t *testing.T) {
	var want string
	for _, syn := range []string{"native", "openai", "auto", "hermes"} {
		var got []string
		for _, e := range read(t, chatLog, syn).Events() {
			if e.Type == syntax.Result {
				got = append(got, e.String())
			}
		}
		if want == "" {
			want = strings.Join(got, "\n")
		} else if strings.Join(got, "\n") != want {
			t.Errorf("%s: results\n%s\nwant (as native reads them)\n%s", syn, strings.Join(got, "\n"), want)
		}
	}
	if !strings.Contains(want, `"content":{"temp":18}`) {
		t.Errorf("JSON text read as a string: %s", want)
	}
}
