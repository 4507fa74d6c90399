// Package hunyuan parses the tool-call syntax of Tencent Hunyuan-A13B:
//
//	<think>
//	The user wants the weather.
//	</think>
//	<answer>
//	<tool_calls>[{"name": "get_weather", "arguments": {"city": "Boston"}}]</tool_calls>
//	</answer>
//
// It is a description for the module's tag-call engine: the engine's JSON
// form. Hunyuan's later models (Hy3) write another format, with <tool_sep>
// and GLM's argument tags, which no syntax reads yet.
//
// # The rules as read
//
//   - A call block opens at <tool_calls>, optional white space, then '[' or
//     '{'; any other <tool_calls> is text. It holds a JSON array of call
//     objects {"name": NAME, "arguments": {…}} (or one call object), then
//     optional white space and </tool_calls>. "arguments" may be an object,
//     absent or null ({}), a JSON string holding one object, or come under
//     "parameters".
//   - A block with any problem is one error with its text, and none of its
//     calls is delivered; a block cut off by the end of the input is a
//     truncated error, never a call.
//   - <think>…</think> is reasoning (empty in the fast mode: no thought).
//     <answer> and </answer> around the answer are respond text, kept:
//     tags any text may hold are no evidence of Hunyuan, and auto, reading
//     them alone, could not drop them either (vLLM's reasoning parser
//     strips them).
//   - One execute after the message's calls, at the end of the input.
//
// # Choices where peers disagree
//
//   - Text after the block is kept (SGLang keeps it; vLLM drops it).
//   - Several blocks are one batch (vLLM takes the first that parses).
//   - A block inside <think> is thought, as every peer reads it.
package hunyuan
