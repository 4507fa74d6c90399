// Package gigachat parses the tool calls of Sber's GigaChat 3 and 3.1:
// one JSON call object after a call opener, with no closer.
//
//	Checking.<|function_call|>{"name": "get_weather", "arguments": {"city": "Paris"}}
//
//	<|message_sep|>
//
//	function call<|role_sep|>
//	{"name": "get_weather", "arguments": {"city": "Paris"}}
//
// 3.1 writes the <|function_call|> token inside its turn; 3.0 writes the
// call as a turn of its own whose role is the text "function call". It is a
// description for the module's tag-call engine: the JSON form, one call
// object, two spellings of its opener, the object's end ending the block.
//
// # The rules as read
//
//   - <|function_call|>, or "function call" followed by the <|role_sep|>
//     token, then white space, then a JSON object {"name": NAME,
//     "arguments": {…}}: one call, complete at the object's end. "arguments"
//     may be an object, absent or null ({}), or a JSON string holding one
//     object. Anything but an object after the opener makes it text.
//   - JSON that does not parse is an invalid_json error ending where it
//     broke, and the text after it is respond text; a JSON object cut off
//     by the end of the input is a truncated error, never a call; an object
//     with no name is a malformed error.
//   - The turn separator, <|message_sep|>, is dropped where it stands. The
//     end of sequence, </s>, that reaches the output when special tokens
//     are kept is text: it is no token of GigaChat's alone (vLLM and SGLang
//     strip it), and a server that stops on it does not pass it on.
//   - Text before and after the call is respond text. One execute after the
//     call, at the end of the input. No ids, no reasoning.
//
// # Where peers disagree
//
//   - An object with no "arguments": vLLM and SGLang give no call; here it
//     is a call with {} (absent arguments are empty in every JSON form of
//     this module).
//   - Invalid JSON: SGLang and vLLM give the whole output back as text;
//     here it is an error with its text, and what follows it is text.
//
// # Choices where the spec is silent
//
//   - One call per turn (the templates render only the first): an array
//     after the opener is text, as written.
//   - The renderer writes 3.1's form; a batch of several calls is written
//     as several, which reads back as one batch.
//   - The 3.0 header is read without the separator before it (vLLM's regex
//     does not require it either).
//   - GigaChat 3.5's GCML invokes are another format, not read here.
package gigachat
