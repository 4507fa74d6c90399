// Package functioncall parses FireFunction v1's tool calls: one JSON call
// object after a <functioncall> token, nothing closing it, a call after
// another; a plain answer starts with <plain> (docs/formats.md):
//
//	<functioncall>{"name": "get_weather", "arguments": {"city": "Paris"}}
//	<plain>The capital of France is Paris.
//
// It is a description for the module's tag-call engine: the engine's JSON
// form with no closer, one object a block. FireFunction v2 writes
// functools[…] (the functools syntax).
//
// # The rules as read
//
//   - A call block opens at <functioncall>, optional white space, then
//     '{'; any other <functioncall> is text (an array there too: one
//     object a block). It holds one call object {"name": NAME,
//     "arguments": {…}}, keys in any order, and ends where the object ends.
//     "arguments" may be an object, absent or null ({}), a JSON string
//     holding one object, or come under "parameters".
//   - A block whose JSON does not parse is one error, ending at the first
//     byte that cannot continue the value; what follows is text. An object
//     with no name is an error. A block the input cuts off is a truncated
//     error, never a call.
//   - <plain>, the format's token before a plain answer, is dropped where
//     it stands; the text is respond. Both tokens are evidence of the
//     format by themselves.
//   - The calls of a message are one batch: one execute at the end of the
//     input. Text around them is respond. No reasoning, no ids, no result
//     form (results go back in the template's TOOL messages).
//
// # Choices where the rules are silent
//
//   - No peer's tests read this form: the rules are the chat template's,
//     which writes each call as <functioncall> and the object, one after
//     another, and the model's end-of-sequence token after the turn (a
//     </s> a server leaves in the text is text here).
package functioncall
