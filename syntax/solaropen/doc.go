// Package solaropen parses the tool calls of Upstage's Solar Open
// (Solar-Open-100B), as its chat template writes them: a reasoning turn, then
// a content turn or a tool-calls turn, each after the turn header the
// template's generation prompt opens.
//
//	<|think|>The user wants the weather.<|end|><|begin|>assistant<|tool_calls|><|tool_call:begin|>a1b2c3d4e5<|tool_call:name|>get_weather<|tool_call:args|>{"city": "Seoul"}<|tool_call:end|><|calls|>
//
// The markers are special tokens: the input must be detokenised with
// special tokens kept. The package is a description (solaropen.go) for the
// tag-call engine's token form, Kimi K2's (package kimi): a section of
// calls, each a header and JSON arguments between special tokens. What the
// engine guarantees holds here.
//
// # The rules as read
//
//   - <|think|>…<|end|> is think. Reasoning also ends at <|tool_calls|> or
//     a <|tool_call:begin|>.
//   - <|tool_calls|> opens a section of calls, closed by <|calls|> (the
//     calls' end of turn) or <|end|>; a closer missing at the end of the
//     input is tolerated (a stop token the server consumed). A
//     <|tool_call:begin|> opens a call outside a section too (vLLM's
//     reasoning parser may hand the body over without it). Text in a
//     section outside calls is respond text.
//   - A call is <|tool_call:begin|> ID <|tool_call:name|> NAME
//     <|tool_call:args|> JSON <|tool_call:end|>. White space around the id,
//     the name and the JSON is not part of them. The id is kept verbatim
//     as the call's id; an empty one gives a call with no id. A header
//     with no <|tool_call:name|>, or no name after it, makes the call an
//     error (malformed), its siblings standing.
//   - The arguments are one JSON value, its end found by a JSON-aware scan:
//     an object; null or nothing for {}; a JSON string holding an object,
//     decoded once. Anything else, and invalid JSON, is an error with the
//     call as raw, and no call. A call cut off by the end of the input is
//     a truncated error, never a call.
//   - The turn header <|begin|>assistant, the content marker <|content|>
//     and <|flush|> are dropped where they stand in text and in a section
//     (in reasoning they are thought text); <|end|> outside a section (a
//     content turn's end) is passed over. The text between them is
//     respond text, each stretch a run of its own.
//   - The calls of the message are one batch: one execute at the end of
//     the input, after the text that follows them.
//
// # Where peers disagree
//
//   - vLLM's tool parser replaces an id that is not ten lower-case letters
//     or digits, makes one for an empty id, and makes duplicate ids unique;
//     here the id is kept as the model wrote it (results are matched to
//     it), and a call without one has none.
//   - Arguments that are not JSON: vLLM reads a Python dict
//     ({'city': 'Seoul'}) as a literal and returns other broken text as the
//     arguments; here both are errors and no call.
//   - Text between <|end|> and the next turn's header: vLLM joins it with
//     the answer that follows; here each is a respond run of its own.
//
// # Choices where the rules are silent
//
//   - Auto-detection: <|tool_calls|>, <|tool_call:begin|>, <|begin|>assistant,
//     <|content|> and <|flush|> are evidence by themselves. <|content|> is
//     Functionary v2's too, but there it ends a segment head, which is that
//     syntax's evidence and comes first. <|think|> and <|end|> are other formats' too (Gemma 4's
//     system prompt, Harmony's end of message): reasoning alone, cut off,
//     does not choose this syntax.
//   - Tool results: the template sends them back as messages of their own
//     (<|begin|>tool<|tool_response|>…), not in the assistant's text; the
//     renderer reports a result as not carried.
//   - The renderer writes a thought as <|think|>…<|end|>, text as plain
//     lines, and each run of calls as one <|tool_calls|> … <|calls|>
//     section, each call with its id (a made one, call000000, call000001,
//     …, for a call that has none) and its arguments byte for byte.
//   - Token mode: a call is announced (name, id, index) at
//     <|tool_call:args|>, and arguments that start with '{' stream as
//     compact JSON deltas.
package solaropen
