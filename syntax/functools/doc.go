// Package functools parses the tool-call syntax of Fireworks' FireFunction
// v2 and Microsoft's Phi-4-mini (as vLLM's and Dynamo's parsers read it):
//
//	functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]
//
// It is a description for the module's tag-call engine: the engine's JSON
// form, opened by a word rather than a tag, with no closer.
//
// # The rules as read
//
//   - A call block opens at the word functools, optional white space, then
//     '[' or '{'; the word followed by anything else is text (Python's
//     module, in prose). The block holds a JSON array of call objects
//     {"name": NAME, "arguments": {…}} (or one call object) and ends where
//     that value ends.
//   - "arguments" may be an object, absent or null ({}), a JSON string
//     holding one object (decoded once), or come under "parameters".
//   - Nested arrays and objects in the arguments are read whole (a
//     parser that stops at the first ']' cuts such a call).
//   - A block whose JSON does not parse is one error, ending at the first
//     byte that cannot continue the value; what follows is text. An element
//     that is no call object or has no name makes the block malformed, and
//     none of its calls is delivered; a block cut off by the end of the
//     input is a truncated error.
//   - One execute after the message's calls, at the end of the input. Text
//     before and after the array is respond text (FireFunction's template
//     writes a space before the word). No ids, no reasoning tags.
//
// # Choices where peers disagree
//
//   - Text around the array is kept (vLLM drops it).
//   - An empty array is no call and no error.
//
// Phi-4-mini's template in llama.cpp teaches <|tool_call|>…<|/tool_call|>
// instead: the granite syntax reads that form (Granite's token), and its
// phi4-llamacpp variant writes it.
package functools
