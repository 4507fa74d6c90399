// Package inkling parses the tool calls of Thinking Machines' Inkling
// (Inkling and Inkling-Small): a turn is a run of messages, each a kind
// marker and its content up to <|end_message|>, every message but the
// first (which the prompt opens) starting with <|message_model|> and an
// optional name.
//
//	<|content_thinking|>The user wants the weather.<|end_message|>
//	<|message_model|><|content_text|>Let me check.<|end_message|>
//	<|message_model|>get_weather<|content_invoke_tool_json|>{"name":"get_weather","args":{"city":"SF"}}<|end_message|>
//
// It is a description for the module's tag-call engine: its JSON form,
// one call object a block, with a message header (tagcall.Format.Header).
//
// # The rules as read
//
//   - The prompt's generation prompt ends with <|message_model|>: the output
//     starts in a message header, as it does after each <|message_model|>.
//     A word there that a kind marker follows (<|content_thinking|>,
//     <|content_invoke_tool_json|>, <|content_text|>,
//     <|content_invoke_tool_text|>, <|content_tool_error|>) is the
//     message's name — the tool a call invokes — and no text; a word that
//     white space, another marker or the end of the input follows is text
//     (the model may answer in bare text with no kind marker).
//   - <|content_thinking|>…<|end_message|> is reasoning;
//     <|content_invoke_tool_json|> in it ends it, as the call it opens.
//   - <|content_invoke_tool_json|>, white space, one JSON object
//     {"name": NAME, "args": {…}} ("arguments" and "parameters" are read too), white space,
//     <|end_message|>: a call. Its name is the JSON's; args null or absent
//     is {}, args in a JSON string holding an object that object (decoded
//     once, as vLLM takes a string); args of another kind, invalid JSON, text after the
//     object, or a block the end of the input cut off is an error, never a
//     call. <|content_invoke_tool_json|> followed by anything but '{' is
//     text.
//   - <|content_text|>, <|content_invoke_tool_text|> and
//     <|content_tool_error|> open text (vLLM shows the latter two as
//     text too); <|end_message|> and <|content_model_end_sampling|> outside
//     a block are dropped, the text around them kept.
//   - A message's calls are one batch, executed at the end of the input.
//     There are no ids, and results are not model output (they come in
//     <|message_tool|> messages the template writes).
//
// In token mode a call streams its name, then its arguments' compact JSON
// as it arrives.
//
// # Where peers disagree
//
//   - A call block cut off by the end of the input: vLLM's Python parser
//     gives the call with what arrived; its Rust parser and this one give
//     an error (a truncated call is never a call).
//   - A tool name before <|content_invoke_tool_json|> with no
//     <|message_model|> before it (a turn that opens with a call): SGLang
//     showed the name as text (sglang issue 33181); it is the header here.
//   - <|content_model_end_sampling|> in place of <|end_message|> at the end
//     of a reasoning or call block: vLLM ends the block there; here only
//     <|end_message|> does (the template always writes it first). A call
//     block so ended is an error (malformed: its closer missing), never a
//     call; reasoning so ended runs on, the marker its text, to the end of
//     the input (truncated).
//   - vLLM joins a turn's text into one content string and its reasoning
//     into one ("see  token", "onetwo"); here each run between markers is
//     an event of its own, white space at its ends trimmed.
//
// # The renderer
//
// It writes the engine's JSON form: each call a <|content_invoke_tool_json|>
// block on lines of its own, reasoning a <|content_thinking|> block, text
// as plain lines, with no <|message_model|> headers or <|content_text|>
// markers. It reads back with this parser; it is not the template's
// spelling of a turn, which a server writes from the messages.
//
// # Choices where the rules are silent
//
//   - The name before a call's kind marker is not compared with the JSON's
//     "name"; the JSON's is the call's.
//   - A header is one word of at most tagcall.MaxName bytes; a longer run
//     is text.
package inkling
