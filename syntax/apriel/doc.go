// Package apriel parses the tool-call syntax of ServiceNow's Apriel 1.5 and
// 1.6 (the Thinker models):
//
//	The user wants the weather; I will call the tool.
//	[BEGIN FINAL RESPONSE]
//	<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>
//
// It is a description for the module's tag-call engine: the engine's JSON
// form, with reasoning that only ends.
//
// # The rules as read
//
//   - The template opens the reasoning in the prompt ("Here are my
//     reasoning steps:"): with Options.ThinkOpen (what ForModel and
//     ForTemplate set for Apriel) the output starts inside it, and
//     [BEGIN FINAL RESPONSE] or a call block ends it. The reasoning has no
//     opener of its own. Without ThinkOpen the output is text, and the
//     marker, met there, is dropped.
//   - A call block opens at <tool_calls>, optional white space, then '['
//     or '{'; any other <tool_calls> is text. It holds a JSON array of call
//     objects {"name", "arguments", "id"} (or one), then optional white
//     space and </tool_calls>. "arguments" may be an object, absent or null
//     ({}), a JSON string holding one object, or come under "parameters".
//   - A block with any problem is one error with its text, and none of its
//     calls is delivered; a block cut off by the end of the input is a
//     truncated error, never a call.
//   - [END FINAL RESPONSE], which Apriel 1.5 writes after its answer, is
//     dropped; <|end|> after it is text (the server's to strip).
//   - One execute after the message's calls, at the end of the input.
//
// # Choices where peers disagree
//
//   - The template's "Here are my reasoning steps:" is the prompt's, not
//     the model's: it is not in the thought (llama.cpp puts it there).
package apriel
