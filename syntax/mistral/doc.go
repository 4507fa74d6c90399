// Package mistral parses the tool calls of every Mistral generation, as
// set by the model's tokenizer version (mistral-common), in one parser:
//
//	[TOOL_CALLS][{"name": "add", "arguments": {"a": 1}, "id": "abcDEF123"}]    v3/v7: Mistral 7B v0.3, Mixtral, Nemo
//	[TOOL_CALLS]add[CALL_ID]abcDEF123[ARGS]{"a": 1}                            v11: Mistral Small 3.2
//	[TOOL_CALLS]add[ARGS]{"a": 1}                                              v13+: Magistral, Devstral 2, Ministral 3
//	[TOOL_CALLS]add{"a": 1}                                                    v11 decoded with [ARGS]/[CALL_ID] stripped
//
// The markers are control tokens: the input must be detokenised with
// special tokens kept (at least [TOOL_CALLS]); the form with [ARGS] and
// [CALL_ID] stripped is read too.
//
// # The rules as read
//
//   - Text is respond. [TOOL_CALLS] anywhere in text starts calls; after
//     it, white space, then either a JSON array of call objects (v3/v7:
//     {"name", "arguments", "id"}; arguments an object, null, absent or a
//     string holding an object, decoded once), or a name (up to 256 bytes,
//     no white space or brackets) followed by [CALL_ID]ID[ARGS], [ARGS], or
//     directly the arguments object. Each call is complete at the end of its
//     JSON (read JSON-aware: markers inside strings are content); several
//     follow each other, each after its own [TOOL_CALLS], with no separator.
//     Text after a call is respond (vLLM #48975: text glued onto the
//     arguments).
//   - Ids are kept where the model wrote them: "id" (v3/v7), [CALL_ID] (v11).
//   - Reasoning: [THINK]…[/THINK] (v13+) and <think>…</think> (Magistral
//     v11) are think; inside them markers are text, and only their own
//     closer ends them (a second [/THINK] is text). With Options.ThinkOpen
//     the output starts in reasoning, which ends at the first [/THINK] or
//     </think>, or at [TOOL_CALLS] (docs/formats.md, rule 6).
//     The opener written again before any text (a restated opener) is
//     passed over.
//   - The message ends at the end of the input, at </s> (in transcripts),
//     or where a [TOOL_RESULTS] block starts; a message with a valid call
//     ends with one execute. </s> is read only in a message with
//     [TOOL_CALLS] (elsewhere it is text: nothing would mark its end); right
//     after a broken call it is the error's. A complete call at the end of the input is
//     complete (the stop token is not in the text); a cut-off one is a
//     truncated error, never a call.
//   - [TOOL_RESULTS]…[/TOOL_RESULTS] is a result: ID[TOOL_CONTENT]CONTENT
//     (v7+), a {"call_id", "content"} object (v3 templates), or the content
//     alone (HF templates). Its content is the JSON value it holds, else its
//     text. With an id it answers the call of the last message that has that
//     id; without, the call in its place.
//   - Errors: a call that cannot be read ([TOOL_CALLS] followed by prose,
//     a name not followed by [ARGS], [CALL_ID] or '{', arguments that are
//     not an object, invalid JSON) is an error whose raw is its text up to
//     the next [TOOL_CALLS], [TOOL_RESULTS] or </s> (or the end); the calls
//     after it stand. In a v3 array each element is a call or an error of
//     its own (its valid siblings stand); the array's brackets, commas and
//     white space belong to the execute (or to an error before them).
//
// # Choices where peers disagree
//
//   - Truncated arguments: vLLM returns the cut-off arguments as a call
//     (its "complex" test); we report a truncated error.
//   - Two [TOOL_CALLS] arrays in one v3 message: vLLM's pre-v11 parser
//     raises; we read both.
//   - Junk between [TOOL_CALLS] and a v3 array: vLLM finds the array with a
//     regex; we report the call as malformed (nothing we cannot read is run).
//     "[TOOL_CALLS] not json at all": vLLM returns the text as content; we
//     report it, raw = the text.
//   - A name with no arguments at the end ("[TOOL_CALLS]toolname_no_args"):
//     vLLM says a tool was called and gives no call; we give a truncated
//     error.
//   - Text after the calls: vLLM's non-streaming pre-v11 path drops it, its
//     streaming path keeps it, Ollama keeps it; we keep it (respond, before
//     the execute).
//
// # Choices where the spec is silent
//
//   - Spans: a v11/v13 call spans from its [TOOL_CALLS] to its arguments'
//     '}'; a v3 call spans its array element; the execute spans from the
//     message's first [TOOL_CALLS] to its end (</s> included).
//   - An empty array ([TOOL_CALLS][]) is a malformed error, not an empty
//     batch.
//   - An empty reasoning block ([THINK][/THINK]) gives no event; its bytes
//     belong to the text run or the execute that follows it.
//   - Ids are kept verbatim; the 9-character rule of the templates is not
//     enforced.
//   - Token mode: a v11/v13 call is announced (name, and id when there is
//     one) when its arguments start, which stream as compact JSON deltas; a
//     v3 call is announced when its name has come (with its id when that
//     came first), and its "arguments" object streams.
//   - The renderer writes the v13 form ([TOOL_CALLS]NAME[ARGS]{…}), the v11
//     form for calls with an id, [THINK]…[/THINK], and
//     [TOOL_RESULTS]ID[TOOL_CONTENT]…[/TOOL_RESULTS]. The variant
//     "mistral-v3" writes each batch as one v3 array instead.
//
// # Not built
//
//   - [INST]…[/INST] and the rest of a full prompt are not read: a
//     transcript is read as assistant output with result blocks in it.
//   - A model that writes [TOOL_CALLS] in prose to explain the format is
//     read as calling (the token is a control token; prose cannot hold it
//     by chance unless special tokens were rendered as text).
//   - Mistral's [AVAILABLE_TOOLS] and system-prompt tokens are not read.
package mistral
