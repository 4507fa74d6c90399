// Package hermes parses the tool calls of Hermes, Qwen2.5, Qwen3 (and
// Qwen3-VL), Granite 4, ERNIE 4.5 and the many fine-tunes that use their
// format: JSON objects between <tool_call> tags, after optional <think>
// reasoning (ERNIE 4.5 Thinking's is opened by the prompt).
//
//	<think>
//	The user wants the weather in Paris.
//	</think>
//
//	<tool_call>
//	{"name": "get_weather", "arguments": {"city": "Paris"}}
//	</tool_call>
//
// Results, where the text holds them (a transcript), are Qwen's
// <tool_response>…</tool_response> blocks.
//
// The package is a description for the module's tag-call engine (its JSON
// form with one call object per block): the parser, the detector, the
// renderer and the prompt's example all come from that one value.
//
// The input must be detokenised with special tokens kept where the
// tokenizer makes the tags special (vLLM PR #25281): a parser of text
// cannot see tags that were deleted.
//
// # Rules
//
//   - Markers are exact and lower case: <think> </think>, <tool_call>
//     </tool_call>, <tool_response> </tool_response>. Anything else is text;
//     text outside blocks is respond.
//   - <tool_call> opens a call only when the first byte after it that is
//     not white space is '{' (docs/formats.md, rule 8): "<tool_call>tags" in
//     prose, Qwen3-Coder's <function= and GLM's bare name are text here.
//     White space and then the end of the input after the tag is a
//     truncated call.
//   - A call block holds one JSON object and then, after optional white
//     space, </tool_call>. The object's end is found by a JSON-aware scan,
//     so "</tool_call>" inside a string is content. "name" is a non-empty
//     string; "arguments" (before or after "name") is an object, or a JSON
//     string holding an object (Granite 4), decoded once; absent, null or
//     "" means {}; any other string or value is a malformed call. Other
//     keys are ignored; a key given twice counts the first time. Each
//     valid block is one call, without id (the format has none).
//   - A call is complete at its own </tool_call> (docs/formats.md, rule 5):
//     JSON cut off by the end of the input, and a complete object with no
//     close tag before the end of the input, are truncated errors, never
//     calls. A complete object followed by something other than
//     </tool_call> (often the next <tool_call>) is a malformed error for
//     that block, and what follows is read afresh, so the next call stands.
//     Invalid JSON is an invalid_json error, and its block ends at the next
//     literal </tool_call>. Every error has the block as raw; siblings
//     stand (docs/formats.md, rule 3).
//   - The calls of a message are one batch: one execute follows the last
//     event of the message — at the end of the input, or where a
//     <tool_response> shows that the message ended. Text after the calls
//     is respond and comes before the execute. A message with no valid call
//     has no execute.
//   - <think>…</think> is reasoning (think); inside it only </think> is a
//     marker, so a <tool_call> in a thought is thought text (docs/formats.md
//     §2.6). Reasoning cut off by the end of the input is a think event and
//     a truncated error.
//   - With Options.ThinkOpen (Qwen3 thinking models, whose template opens
//     <think> in the prompt) the output starts in reasoning, which ends at
//     the first </think> or at the first <tool_call> that opens a call,
//     whichever comes first; a <tool_call> there not followed by '{' is
//     thought text, and so is <think>, except before anything but white
//     space, where it is the opener restated and is passed over. Only the
//     first </think> ends reasoning; a later one is text.
//   - <tool_response>…</tool_response> is a result (up to the literal close
//     tag): of the call at its place in the last batch (the first
//     <tool_response> after a batch answers its first call; "" when there
//     is none), status success, its content the JSON value the block holds
//     when it holds exactly one (white space around it aside), else its
//     text, trimmed, as a string. It ends the message before it: calls no
//     execute followed are executed first.
//
// # Where peers disagree
//
//   - Unterminated block: vLLM's Hermes parser returns a call from
//     "<tool_call>{…}" at the end of the input; its Granite 4 parser and
//     this package do not (a truncated call is never a call). Ollama's
//     qwen3 parser holds the block until its close tag, so when the stream
//     ends first nothing is reported; here it is an error with the text as
//     raw.
//   - The close tag: Ollama's qwen3 parser and vLLM's regex take the first
//     literal </tool_call>, so one inside an argument string cuts the call;
//     here the scan is JSON-aware.
//   - String arguments that hold no object ("hello"): vLLM passes the
//     string on as the arguments; here they are malformed (args are always
//     an object).
//   - A <tool_call> not followed by '{': Ollama hands the block to its JSON
//     reader, which fails the whole chunk with an error; vLLM's JSON load
//     fails and it returns the output as content. Here it is text, so prose
//     that mentions the tag loses nothing.
//   - <tool_call> inside <think>: vLLM and Ollama treat explicit reasoning
//     as a container, as here. SGLang's Trinity detector strips the think
//     tags and reads calls inside them.
//   - A <think> restated at the start of reasoning opened by the prompt:
//     Ollama's qwen3 parser passes over it, as here; its qwen3vl parser
//     keeps it as thought text.
//
// # Choices where the spec is silent
//
//   - "parameters" is read in place of an absent "arguments" (some Hermes
//     fine-tunes write it); with both, "arguments" counts. In token mode
//     only "arguments" objects stream.
//   - Token mode streams each call's "arguments" object as compact JSON
//     deltas as it arrives (arguments before "name" wait for it); arguments
//     given as a string come whole with the call. The index of a partial
//     call is its block's place among the call blocks of the message.
//   - The execute of a message ended by the end of the input has an empty
//     span at the end; one ended by a <tool_response>, an empty span at
//     that tag. Errors come before the execute of their message.
//   - An unterminated <think> or reasoning opened by the prompt is a
//     truncated error without raw (its text is the think event). Reasoning
//     the prompt opened that holds no text (white space, or only the
//     restated "<think>") cut off by the end of the input gives nothing:
//     there is nothing to report but that nothing was written.
//   - A <tool_call> tag followed by more white space than Options.MaxBlock
//     is text. A block over Options.MaxBlock (its tags counted) is an
//     over_limit error without raw; the JSON scan goes on without storing
//     it, to find its end.
//   - The renderer writes one block per call, the object on a line of its
//     own, and a blank line after </think> (as Qwen3's template does).
//   - <tool_response> content is not scanned as JSON for its close tag:
//     tool output is not written by the model, and the renderer escapes a
//     close tag inside JSON content (reporting it).
//
// # Not built
//
//   - Hermes 2's "tool" role and Qwen's <|im_start|>/<|im_end|> turn
//     markers are text: a transcript's turns are not told apart except by
//     <tool_response>.
//   - Ids: the format has none, and the renderer reports those it is given.
//   - Failure results: the format has no status; every result is success.
package hermes
