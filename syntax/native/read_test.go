package native_test

import "testing"

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
		`{"type":"call","name":"read","args":{"path":"a"},"id":"call_a"}`,
		`{"type":"call","name":"read","args":{"path":"b"},"id":"call_b"}`,
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
