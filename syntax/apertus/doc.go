// Package apertus parses the tool calls of Swiss AI's Apertus: a JSON list
// of call objects whose one key is the tool's name, between two special
// tokens, with reasoning in a block of its own.
//
//	<|inner_prefix|>The user wants the weather.<|inner_suffix|>
//	Checking.<|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>
//
// It is a description for the module's tag-call engine: its JSON form with
// the name as the key (jsoncall.Keys.NameKey).
//
// # The rules as read
//
//   - <|tools_prefix|>, white space, a JSON array of {NAME: ARGS} objects
//     (or one such object), white space, <|tools_suffix|>. ARGS is an
//     object, null ({}), or a JSON string holding an object (the template
//     double-encodes string arguments), decoded once. An object with more
//     or fewer than one member, or ARGS of another kind, makes the block
//     one error, none of its calls delivered.
//   - <|tools_suffix|> may be missing at the end of the input after a
//     complete array: the suffix is a stop token a server may consume, so
//     the array's end closes the block. An array cut off is a truncated
//     error, never a call.
//   - <|inner_prefix|>…<|inner_suffix|> is reasoning. A tools block inside
//     it ends it (the template writes calls from inside the reasoning when
//     deliberation is on, and the model stops there for the results).
//   - In token mode each call streams its name, then its arguments as they
//     arrive (the key of the call object is the name), as in every format
//     of the JSON form.
//   - Text around blocks is respond text; one execute at the end of the
//     input. No ids; no results (the template writes them in the
//     assistant's turn after the block, as a JSON list, which the model
//     does not write).
//
// # Where peers disagree
//
//   - vLLM reads a cut-off array with a partial-JSON reader and gives the
//     call; here it is a truncated error. SGLang requires the suffix; here
//     a complete array at the end of the input is enough (as vLLM reads it).
//   - vLLM reads only the first block; here every block is read.
package apertus
