// Package cohere parses the tool-call syntax of Cohere's Command R7B,
// Command A (and its Reasoning model) and the 2026 Command models:
//
//	<|START_THINKING|>I will look up the weather.<|END_THINKING|>
//	<|START_ACTION|>[
//	    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}
//	]<|END_ACTION|>
//
// It is a description for the module's tag-call engine: the engine's JSON
// form under Cohere's tags and keys. Command R and R+ write their calls
// after "Action:" in a fenced JSON list, which no syntax reads yet.
//
// # The rules as read
//
//   - A call block opens at <|START_ACTION|>, optional white space, then
//     '[' or '{'; any other <|START_ACTION|> is text. It holds a JSON array
//     of call objects (or one call object): "tool_name" the name,
//     "parameters" the arguments (an object, absent or null for {}, or a
//     JSON string holding one object), "tool_call_id" the call's id; then
//     optional white space and <|END_ACTION|>.
//   - A block with any problem — JSON that does not parse, an element that
//     is no call object or has no tool_name, text between the array and
//     <|END_ACTION|> — is one error with its text, and none of its calls is
//     delivered. A block the input cuts off is a truncated error.
//   - <|START_THINKING|>…<|END_THINKING|> is reasoning; with
//     Options.ThinkOpen (the prompt opened it) the output starts inside it
//     and <|END_THINKING|> or <|START_ACTION|> ends it.
//     The opener written again before any text (a restated opener) is
//     passed over, and reasoning with nothing in it is no thought and, cut
//     off, no error.
//   - <|START_RESPONSE|>, <|END_RESPONSE|>, <|START_TEXT|>, <|END_TEXT|>
//     and <|END_OF_TURN_TOKEN|> are dropped where they stand; text around
//     them is respond text, text without them too.
//   - One execute after the message's calls, at the end of the input.
//
// # Choices where peers disagree
//
//   - Citation markup in the answer (<co>…</co: 0:[1]>) is kept as text
//     (vLLM and Cohere's own parser take it out; what it cites is the
//     caller's to resolve).
//   - A block with one malformed call is an error for the whole block
//     (Ollama recovers the calls around it): never a call the model did
//     not write whole.
//   - A call written with "name" and "arguments" in place of Cohere's keys
//     is malformed (one server reads it): the model's own template writes
//     tool_name.
package cohere
