// Package internlm parses the tool calls of InternLM2, InternLM2.5 and
// Intern-S1: one JSON call object per block between two special tokens and
// a closer.
//
//	Let me check. <|action_start|><|plugin|>
//	{"name": "get_weather", "parameters": {"city": "Tokyo"}}<|action_end|>
//
// It is a description for the module's tag-call engine: its JSON form,
// one call object per block.
//
// # The rules as read
//
//   - <|action_start|><|plugin|> (with a space or a line end between the
//     two tokens, as Intern-S1 may write them), white space, then one JSON
//     object {"name": NAME, "parameters": {…}}, white space, <|action_end|>.
//     "arguments" in place of "parameters" is read the same (vLLM's example
//     template writes it); either may be absent or null ({}), or a JSON
//     string holding an object. Anything but an object after the opener
//     makes it text.
//   - A block with a problem (invalid JSON, no name, arguments that are no
//     object) is one error with its text, and no call; a block whose
//     closer was left out and that the next opener follows is an error
//     ending there, and the next block stands; a block the input cuts off
//     is a truncated error, never a call.
//   - <think>…</think> is reasoning (Intern-S1); inside it nothing is a
//     marker. The blocks of a message are one batch: one execute at the
//     end of the input. Text around blocks is respond text. No ids.
//
// # Where peers disagree
//
//   - vLLM's internlm2 parser reads one block per message and raises on
//     JSON that does not parse; its intern-s1 parser reads several and
//     gives the whole output back as text on any problem. Here every block
//     is read, and a broken one is an error while its siblings stand.
//   - A tool the request did not offer: vLLM's newer parsers drop the call;
//     here it is a call (the parser has no tool list; --tools reports it).
//
// # Not built
//
//   - Results: InternLM's come back in an "environment" turn of the
//     conversation, not in model text.
package internlm
