// Package granite parses the tool-call syntax of IBM Granite 3.0 to 3.3:
//
//	<think>The user wants the weather.</think>
//	<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]
//
// It is a description for the module's tag-call engine: the engine's JSON
// form with no closer. Granite 4 writes Hermes' <tool_call> blocks: the
// registry names hermes for it.
//
// Phi-4-mini under llama.cpp's own chat template writes the same token
// before one call object, and closes it (the model's trained form,
// functools[…], is the functools syntax's):
//
//	I will check.<|tool_call|>{"name": "get_weather", "arguments": {"city": "Paris"}}<|/tool_call|>
//
// It reads as Granite's, and <|/tool_call|>, that template's token, is
// dropped wherever it stands; the phi4-llamacpp variant writes the form, and
// registry.ForTemplate gives it for that template.
//
// # The rules as read
//
//   - A call block opens at <|tool_call|>, optional white space, then '['
//     or '{'; any other <|tool_call|> is text. It holds a JSON array of call
//     objects {"name": NAME, "arguments": {…}} (or one call object), and
//     ends where that value ends: Granite's template writes no closer.
//   - Keys come in any order (Granite often writes "arguments" before
//     "name"). "arguments" may be an object, absent or null ({}), a JSON
//     string holding one object (decoded once), or come under "parameters".
//   - A block whose JSON does not parse is one error, ending at the first
//     byte that cannot continue the value (nothing else marks its end);
//     what follows is text. An element that is no call object, or has no
//     name, makes the block malformed, and none of its calls is delivered.
//     A block the input cuts off is a truncated error, never a call.
//   - <think>…</think> is reasoning (Granite 3.3 with thinking on).
//     <response> and </response> around the answer are respond text, kept:
//     tags any text may hold are no evidence of Granite, and auto, reading
//     them alone, could not drop them either (peers strip them).
//   - One execute after the message's calls, at the end of the input. Text
//     before and after the array is respond text. No ids.
//
// # Choices where peers disagree
//
//   - Text around the array is kept and the call read (vLLM's parser wants
//     the whole output to be the array, and marks text around it a known
//     failure; llama.cpp reads the array after the token).
//   - A call cut off by the end of the input is no call (llama.cpp's
//     streaming parser shows a partial call).
//   - Granite 3.2's plain-text markers (Here is my thought process: … Here
//     is my response: …) are not read: the text is respond text.
package granite
