// Package hunyuan parses the <tool_calls> JSON family: Tencent
// Hunyuan-A13B's, AI21 Jamba's (the same array, no reasoning) and MiniMax
// M1's (JSON lines in the same tags):
//
//	<think>
//	The user wants the weather.
//	</think>
//	<answer>
//	<tool_calls>[{"name": "get_weather", "arguments": {"city": "Boston"}}]</tool_calls>
//	</answer>
//
//	<tool_calls>
//	{"name": "get_weather", "arguments": {"city": "Boston"}}
//	{"name": "get_time", "arguments": {"zone": "EST"}}
//	</tool_calls>
//
// It is a description for the module's tag-call engine: the engine's JSON
// form. Hunyuan's later models (Hy3, Hy v4) write another format, GLM's
// argument tags under their own tokens: syntax/hy reads it.
//
// # The rules as read
//
//   - A call block opens at <tool_calls>, optional white space, then '[' or
//     '{'; any other <tool_calls> is text. It holds a JSON array of call
//     objects {"name": NAME, "arguments": {…}}, or call objects one after
//     the other with white space between them (M1's JSON lines; one object
//     is the one-line case), then optional white space and </tool_calls>. "arguments" may be an object,
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
//   - M1's lines: vLLM reads each line alone, skipping a line that is not
//     JSON or has no name and missing a call written over several lines;
//     here the block is read as JSON values (an object over several lines
//     is one call) and a block with a bad line is one error.
package hunyuan
