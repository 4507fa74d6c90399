package native_test

import (
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// A whole Responses conversation (input items as the Responses API takes
// them back): the function_call items are a batch that executes before the
// function_call_output items answer it (SPEC §2: execute ends a batch of
// calls, and results come after it).
func TestResponsesConversationExecutesBeforeResults(t *testing.T) {
	in := `{"object":"response","status":"completed","output":[` +
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"Read a and b."}]},` +
		`{"type":"function_call","id":"fc_1","call_id":"call_a","name":"read","arguments":"{\"path\":\"a\"}"},` +
		`{"type":"function_call","id":"fc_2","call_id":"call_b","name":"read","arguments":"{\"path\":\"b\"}"},` +
		`{"type":"function_call_output","call_id":"call_a","output":"A"},` +
		`{"type":"function_call_output","call_id":"call_b","output":"B"},` +
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}]}` + "\n"
	expect(t, in, lines(
		`{"type":"call","name":"read","args":{"path":"a"},"id":"call_a","opaque":{"openai-responses":{"id":"fc_1"}}}`,
		`{"type":"call","name":"read","args":{"path":"b"},"id":"call_b","opaque":{"openai-responses":{"id":"fc_2"}}}`,
		`{"type":"execute"}`,
		`{"type":"result","tool":"read","id":"call_a","status":"success","content":"A"}`,
		`{"type":"result","tool":"read","id":"call_b","status":"success","content":"B"}`,
		`{"type":"respond","content":"Done."}`,
		`{"type":"end"}`))
}

// The input of content_block_start is kept beyond its document: a later,
// longer document must not overwrite it.
func TestAnthropicStartInputKept(t *testing.T) {
	in := `data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"x","input":{"q":"abc"}}}` + "\n\n" +
		`data: {"type":"content_block_stop","index":0,"padding":"` + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" + `"}` + "\n\n" +
		`data: {"type":"message_stop"}` + "\n\n"
	expect(t, in, lines(`{"type":"call","name":"x","args":{"q":"abc"},"id":"t1"}`, `{"type":"execute"}`, `{"type":"end"}`))
}

// The call id → tool name table kept to name results is bounded by
// MaxBlock: at 250 bytes it holds two entries of these (32 bytes each
// beside the id and the name), so the oldest is forgotten when the third
// call comes; one over_limit error says so, and the result that answers the
// forgotten call has no tool name. (Not a golden case: a round trip at this
// limit would render all the calls in one message, over it.)
func TestNamesTableBounded(t *testing.T) {
	name := func(i int) string {
		return "tool_" + string(rune('a'+i)) + "_with_a_long_name_to_fill_the_table_quickly_enough"
	}
	var in string
	for i := range 3 {
		in += `{"role":"assistant","content":null,"tool_calls":[{"id":"call_` + string(rune('0'+i)) + `","type":"function","function":{"name":"` + name(i) + `","arguments":"{}"}}]}` + "\n"
	}
	for i := range 3 {
		in += `{"role":"tool","tool_call_id":"call_` + string(rune('0'+i)) + `","content":"r"}` + "\n"
	}
	var got []syntax.Event
	p := native.Syntax.New(func(e syntax.Event) { got = append(got, e) }, syntax.Options{MaxBlock: 250})
	p.Write([]byte(in))
	p.Close()
	var tools []string
	errs := 0
	for _, e := range got {
		switch e.Type {
		case syntax.Result:
			tools = append(tools, e.Tool)
		case syntax.Error:
			errs++
			if e.Code != syntax.CodeOverLimit {
				t.Errorf("error %v: %s", e.Code, e.Message)
			}
		}
	}
	if errs != 1 || len(tools) != 3 || tools[0] != "" || tools[1] != name(1) || tools[2] != name(2) {
		t.Errorf("want one over_limit error and results named \"\", %s, %s; got %d error(s), %q", name(1), name(2), errs, tools)
	}
}
