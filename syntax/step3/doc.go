// Package step3 parses the tool calls of StepFun's Step-3: DeepSeek-like
// full-width tokens around each call, and an XML invoke inside, with the
// name and the keys in quoted attributes and values raw:
//
//	The user wants the weather.</think>Checking.<｜tool_calls_begin｜>
//	<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
//	<steptml:parameter name="city">Tokyo</steptml:parameter>
//	</steptml:invoke><｜tool_call_end｜>
//	<｜tool_calls_end｜>
//
// The tokens use U+FF5C (｜) and plain underscores (DeepSeek's have U+2581
// too, and are another syntax's). It is a description for the module's
// tag-call engine: its function-tag form, the call's type and separator in
// the scope opener, the name closer `">`. Step-3.5 writes Qwen3-Coder's
// XML instead: the qwen3coder syntax reads it.
//
// # The rules as read
//
//   - A call is <｜tool_call_begin｜>function<｜tool_sep｜>, white space,
//     <steptml:invoke name="NAME">, <steptml:parameter name="K">V</steptml:parameter>
//     elements with white space between them, </steptml:invoke>, then
//     optional white space and <｜tool_call_end｜>. The scope opener must
//     be followed (after white space) by the invoke tag; anything else
//     makes it text: a call type other than function, a scope with no type
//     and separator, the name written again before the invoke.
//   - Values are raw text, strings unless a tool schema converts them (the
//     call says so); a </steptml:parameter> followed by anything but the
//     next parameter or </steptml:invoke> is part of the value. White space
//     in values is kept. A key given twice is an array of its values.
//   - The calls' wrapper, <｜tool_calls_begin｜> and <｜tool_calls_end｜>,
//     is dropped where it stands: each call stands or is an error by
//     itself, whether or not the wrapper was written or closed.
//   - Reasoning: Step-3's generation prompt ends in <think>, so with
//     Options.ThinkOpen the output starts in reasoning, which </think> or
//     a call ends. An explicit <think>…</think> is reasoning too.
//   - The calls of a message are one batch: one execute at the end of the
//     input. Text before, between and after calls is respond.
//   - A call cut off by the end of input is a truncated error, never a
//     call; an invoke with an empty name is an error.
//
// # Where peers disagree
//
//   - vLLM's shared test fixture leaves out function<｜tool_sep｜>; vLLM's
//     streaming path accepts such a call, its non-streaming path, SGLang
//     and smg do not. Here it is text.
//   - A block without <｜tool_calls_end｜>: vLLM and an older SGLang give
//     all the text back; the newer SGLang and smg keep the finished calls,
//     as this syntax does.
//   - Typing: vLLM converts scalars only with a tool schema, SGLang also
//     reads JSON and Python literals for non-string types, smg converts
//     every value without a schema. Here values are strings; a tool schema
//     converts them (the schema check, after the parser).
//   - White space in values: vLLM's and SGLang's parsers trim it (a newer
//     vLLM test keeps it); here values are kept exactly.
//   - Calls to tools not in the request: SGLang drops them; here, with a
//     tool list, they are calls marked invalid and a schema error.
//   - Text after the block: smg drops it; vLLM, SGLang and this syntax
//     keep it.
//
// # Choices where the spec is silent
//
//   - The renderer writes each call between its call tokens, one parameter
//     per line, values raw, without the calls' wrapper (<｜tool_calls_begin｜>
//     and its closer, which reading drops).
package step3
