// Package longcat parses the tool calls of Meituan's LongCat-Flash models,
// which write them in one of two forms under LongCat's own tags:
//
//	<longcat_tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</longcat_tool_call>
//
//	<longcat_tool_call>get_weather
//	<longcat_arg_key>city</longcat_arg_key>
//	<longcat_arg_value>Tokyo</longcat_arg_value>
//	</longcat_tool_call>
//
// It is a description for the module's tag-call engine: the engine's JSON
// form with one call object per block, and its word-name form with GLM's
// key and value tags, under LongCat's prefix.
//
// # The rules as read
//
//   - A call block opens at <longcat_tool_call>. When the first byte after
//     it that is not white space is '{', the block holds one JSON call
//     object {"name": NAME, "arguments": {…}} and then, after white space,
//     </longcat_tool_call>; the object's end is found by a JSON-aware scan.
//     "arguments" may be an object, absent or null ({}), or a JSON string
//     holding an object (decoded once); "parameters" or "args" in its place
//     is read the same.
//   - Otherwise the block holds a name (a word, ended by a line end, an
//     argument tag or the closer) and <longcat_arg_key>K</longcat_arg_key>
//     <longcat_arg_value>V</longcat_arg_value> pairs, white space between
//     them, then </longcat_tool_call>. Values are raw text, strings unless
//     a tool schema converts them (the call says so); a value closer
//     followed by anything but the next key tag or the block's closer is
//     part of the value. A repeated key is an array.
//   - A block with a problem (JSON that does not parse, an object with no
//     name, text between parameters) is one error with its text; a block
//     the input cuts off is a truncated error, never a call. Its siblings
//     stand.
//   - <longcat_think>…</longcat_think> is reasoning (vLLM's LongCat
//     reasoning parser); with Options.ThinkOpen the output starts inside
//     it, and a call block ends it.
//   - The calls of the message are one batch: one execute at the end of
//     the input. Text before, between and after blocks is respond text.
//     No ids.
//
// # Where peers disagree
//
//   - vLLM and SGLang read only the JSON form; mlx-lm reads both, as here.
//   - A block with no closer at the end of the input: vLLM reads its JSON
//     as a call; here it is a truncated error (a truncated call is never a
//     call).
//   - Forms seen from LongCat models by third parties and read by their own
//     parsers are not read here, but reported: a TypeScript-style call
//     (functions.get_weather({city: "Tokyo"})), a whole JSON object after
//     <longcat_arg_key>. A name written functions.NAME is kept as written.
//   - Text after a block is kept (SGLang strips a stray closer from it;
//     here a closer with no block open is text).
//
// # Choices where the spec is silent
//
//   - The renderer writes the JSON form, the one every peer reads.
//   - No result form is read: LongCat's template is not published with the
//     model's tool tokens, and results are not model output.
package longcat
