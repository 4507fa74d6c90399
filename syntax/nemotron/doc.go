// Package nemotron parses the tool-call syntax of NVIDIA Nemotron Nano v2
// (NVIDIA-Nemotron-Nano-9B-v2, 12B-v2) and Llama-Nemotron's "deci" form:
//
//	<think>The user wants the weather.</think>
//	<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</TOOLCALL>
//
// It is a description for the module's tag-call engine: the engine's JSON
// form, under Nemotron's own tags.
//
// # The rules as read
//
//   - A call block opens at <TOOLCALL>, optional white space, then '[' or
//     '{'; any other <TOOLCALL> is text. It holds a JSON array of call
//     objects {"name": NAME, "arguments": {…}} (or one call object), then
//     optional white space and </TOOLCALL>.
//   - "arguments" may be an object, absent or null ({}), or a JSON string
//     that holds one object (decoded once); a call that writes its
//     arguments under "parameters" or "args" instead is read the same.
//   - A block with any problem — JSON that does not parse, an element that
//     is no call object or has no name, text between the array and
//     </TOOLCALL> — is one error with its text (malformed or invalid_json),
//     and none of its calls is delivered. A block the input cuts off is a
//     truncated error, never a call.
//   - <think>…</think> is reasoning; with Options.ThinkOpen (the template
//     ends the prompt with <think>\n when thinking is on) the output starts
//     inside it, and </think> or <TOOLCALL> ends it.
//     The opener written again before any text (a restated opener) is
//     passed over, and reasoning with nothing in it is no thought and, cut
//     off, no error.
//   - <SPECIAL_12>, the end of the turn, is dropped where it stands.
//   - One execute after the message's calls, at the end of the input. Text
//     before and after blocks is respond text. No ids.
//
// # Choices where peers disagree
//
//   - Text after </TOOLCALL> is kept (llama.cpp keeps it; vLLM's parser
//     drops it).
//   - Several blocks in a message are one batch (vLLM reads them all;
//     llama.cpp's older parser only the first).
//   - A bare call object in the block is read (vLLM); llama.cpp wants an
//     array.
//   - A block whose JSON is broken is an error, not text (vLLM gives the
//     whole output back as content; llama.cpp waits for more).
//
// Nemotron 3 Nano writes Qwen3-Coder's XML calls, not this form: the
// registry names qwen3coder for it.
package nemotron
