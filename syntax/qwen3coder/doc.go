// Package qwen3coder parses the tool-call syntax of Qwen3-Coder, Qwen3.5,
// Qwen3.6, MiMo and StepFun's Step-3.5 (docs/formats.md):
//
//	<think>
//	Need the weather.
//	</think>
//	<tool_call>
//	<function=get_weather>
//	<parameter=city>
//	Dallas
//	</parameter>
//	</function>
//	</tool_call>
//
// # The rules as read
//
//   - A call opens at <tool_call>, white space, then <function=NAME>; or at a
//     bare <function=NAME> (the wrapper dropped: vLLM's fallback) when what
//     follows it, after white space, is <parameter= or </function>. NAME is
//     1 to 256 bytes other than '>', '<' and line ends, taken as written
//     (spaces and quotes included, as Ollama keeps them). Any other
//     <tool_call> (Hermes writes '{' after it) or <function=…> (Llama 3.1
//     writes '{') is text.
//   - The call ends at its first </function>, always; white space and a
//     </tool_call> after it belong to it, and a missing </tool_call> is
//     tolerated (docs/formats.md, rule 5). The compact form with no newlines
//     between tags reads the same.
//   - Between </function>'s tags, parameters <parameter=KEY>VALUE</parameter>
//     and white space; anything else makes the call an error (malformed,
//     raw = its text), never a call. KEY ends at '>' or, when the model
//     dropped the '>' (mlx-lm PR #1881), at the line end.
//   - A value is raw text: no entities, no escaping. Exactly one "\n" at its
//     start and one at its end are dropped (vLLM and Ollama agree).
//     Values are strings, and the call event says so (Event.Strings), so a
//     tool schema converts them (package schema); a key given twice is an
//     array of its values.
//   - A value ends at a </parameter> followed, after optional white space,
//     by <parameter= or </function>; any other </parameter> is part of the
//     value (a file about the format, Rapid-MLX #1515). When no such
//     </parameter> comes, </function> ends the value (the closer dropped in
//     long sessions: Ollama #17276). The rule is applied with a look past a </parameter> of at most the white space and
//     len("</function>") bytes, so streaming stays linear.
//   - <think>…</think> is think; inside it nothing is a marker, so a call
//     written in a thought is text (docs/formats.md, rule 6). An unterminated
//     thought gives its text, then an error (truncated).
//   - Options.ThinkOpen: the output starts in reasoning the prompt opened
//     (Qwen3.5, Qwen3-Thinking). It ends at the first </think> or at a call
//     opener, whichever comes first (Qwen3.5 omits </think> before a call:
//     llama.cpp PR #24202); a later </think> is text.
//     The opener written again before any text (a restated opener) is
//     passed over, and reasoning with nothing in it is no thought and, cut
//     off, no error.
//   - <tool_response>…</tool_response> is a result (the user turn the chat
//     template writes): its content, less one newline at each end, is a
//     string; its tool is the call at its position in the last batch (the
//     template pairs them by order), or "" when there is none. Results come
//     after the execute of the calls before them.
//   - The calls of a message are one batch: one execute after its last
//     event, at the end of the input or before the first <tool_response>,
//     when at least one call was valid. Text after the calls is respond and
//     comes before the execute. No ids: the format has none.
//   - A call cut off by the end of the input (in a value, before
//     </function>, right after <tool_call>) is an error (truncated), never a
//     call; the calls before it stand. A call longer than Options.MaxBlock
//     is an error (over_limit).
//
// # Choices where peers disagree
//
//   - A dropped </parameter> followed by the next <parameter=: vLLM ends
//     the value at the next <parameter= (its test
//     test_extract_tool_calls_missing_closing_parameter_tag); here, by docs/formats.md
//     §2.7, only </function> ends a value whose closer is missing, so the
//     next parameter's tag is part of the value (golden
//     missing-param-closer-middle). The reason: a file that mentions
//     <parameter= stays whole, and a tool schema's required keys catch the
//     loss, where the peers' rule silently splits such a file.
//   - A </parameter> inside a value: naive parsers end the value at the
//     first one (Rapid-MLX #1515); here it is content unless a structural
//     tag follows.
//   - A key given twice: vLLM and Ollama build a map of the parameters, so
//     the last value wins; here both are kept, as an array, so nothing the
//     model wrote is dropped without a word (a schema that says string
//     then reports it).
//   - Calls inside an explicit <think>: text here, "think is a container"
//     as in vLLM and Ollama (docs/formats.md, trait 4); llama.cpp's closed PRs
//     #23678 and #24202 would run them.
//   - Step-3.5: SGLang's step3p5 detector repairs this form for the tools it
//     knows (<function bash>, a missing '>', a missing </parameter> closed
//     by the next <parameter=, </tool_call> closing what is open, a call cut
//     off after a complete parameter). Here none of that is done: the
//     repairs need the tool list to be safe and guess where the model wrote
//     something else; the goldens say what each reads as (text, a value
//     holding the next tag, a truncated error). Python literals for object
//     and array parameters, which SGLang and vLLM read, are read too, by
//     the schema conversion (package schema).
//   - Unterminated reasoning: Ollama and vLLM give it as reasoning without a
//     word; here it is think, then a truncated error, as in every syntax of
//     this module.
//
// # Choices where the spec is silent
//
//   - Spans: a call spans <tool_call> (or <function=) to </function>, so
//     that more input cannot change it; the </tool_call> after it is in the
//     execute's span, which covers the batch's blocks as xmljson's covers
//     its <execute> block. An error's span takes the </tool_call>.
//   - A valid call is emitted at its </function>; in token mode it streams
//     first: the name once <function=NAME> is read, then each parameter as
//     it opens and its value in deltas that are final (a trailing newline,
//     a </parameter> under look ahead, the first bytes of a character are
//     held until decided).
//   - <tool_call> then only white space up to the end is a truncated error,
//     as is a bare <function=NAME> at the end with nothing after it.
//   - A thought written by the renderer is <think>\n…\n</think>; with
//     ThinkOpen, a first thought is written without <think>, and output that
//     starts otherwise starts with </think>.
//
// # Not built
//
//   - Results with a failure status: the format has no form for them (the
//     renderer writes them as ordinary responses and says so).
//   - Recovery of the mangled closers SGLang PR #27337 lists
//     (</parameter/>, </parameter1>): they are value text here, so the
//     value runs to </function>.
//   - <|im_start|> and <|im_end|> turn markers are text: the input is one
//     assistant message (or a transcript of them with results).
package qwen3coder
