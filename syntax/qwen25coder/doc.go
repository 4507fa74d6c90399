// Package qwen25coder parses the <tools> form Qwen2.5-Coder writes its tool
// calls in when its prompt shows it that form (docs/formats.md):
//
//	I will check the weather.
//	<tools>
//	{"name": "get_weather", "arguments": {"city": "Seoul"}}
//	</tools>
//
// The model's own chat template asks for Hermes's <tool_call>, which the
// coder models do not keep to: with no instruction they answer in a
// ```json fence, with Hermes's they write bare JSON or a fence, and with
// examples of <tools> blocks they write those (the measurements behind the
// qwen2_5_coder parser proposed to vLLM for the model, pull request #32931,
// whose tests the goldens take their cases from). This syntax reads the
// <tools> form, and its prompt rules teach it; the llama3 syntax reads a
// bare JSON call object that opens a message.
//
// It is a description for the module's tag-call engine: the engine's JSON
// form, as hunyuan's <tool_calls>.
//
// # The rules as read
//
//   - A call block opens at <tools>, optional white space, then '{' or
//     '['; any other <tools> is text. It holds one call object
//     {"name": NAME, "arguments": {…}}, a JSON array of them, or call
//     objects one after the other with white space between them (JSON
//     lines), then optional white space and </tools>. "arguments" may be
//     an object, absent or null ({}), a JSON string holding one object, or
//     come under "parameters".
//   - The end of the input after a complete JSON value, white space aside,
//     stands for </tools>: the model often stops there. A value cut off is
//     a truncated error, never a call.
//   - A block with any problem is one error with its text, and none of its
//     calls is delivered.
//   - Several blocks, and the text around and between them, are one
//     message: one batch, one execute at the end of the input. Text is
//     respond.
//   - There is no reasoning and no result form: results go back in
//     messages of their own.
//
// # Choices where peers disagree
//
//   - The proposed vLLM parser repairs what the model wrote: objects
//     separated by commas are read as an array, quotes escaped twice are
//     unescaped once, an array's elements with no name are dropped and the
//     others kept, and a block that holds no JSON is dropped. Here each is
//     what it is: a block that is not one of the three JSON forms is an
//     error with its text (a partial batch is never run), and a <tools> not
//     followed by JSON is text, kept.
//   - <tools> is also the tag the Qwen templates list the tool definitions
//     in. A model echoing a definition writes an object with no "name" of a
//     call: an error, never a call.
package qwen25coder
