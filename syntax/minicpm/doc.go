// Package minicpm parses the tool calls of OpenBMB's MiniCPM5 models: an
// XML element per call, with no wrapper, the name and the keys in quoted
// attributes, and values raw or, when they hold '<', '&' or a line end, in
// a CDATA section (what the chat template writes):
//
//	<think>
//	The user wants the weather.
//	</think>
//
//	<function name="get_weather"><param name="city">Paris</param><param name="note"><![CDATA[a < b
//	c]]></param></function>
//
// It is a description for the module's tag-call engine: its function-tag
// form, bare (no scope), with a name closer of its own (`">`) and CDATA
// values.
//
// # The rules as read
//
//   - A call is <function name="NAME"> (NAME: 1 to 256 bytes, no '"', '<',
//     '>' or line end), then <param name="K">V</param> elements with white
//     space between them, then </function>. The function tag opens a call
//     only when white space and then <param name=" or </function> follow
//     it; anything else makes it text (prose naming the tag, a <param>
//     with no name).
//   - A value is raw text, a string unless a tool schema converts it (the
//     call says so; the template writes numbers, booleans, arrays and
//     objects as their JSON text). A </param> followed by anything but the
//     next <param name=" or </function> is part of the value.
//   - A value that starts with <![CDATA[ is the section's content,
//     verbatim, up to its ]]>, and no tag inside it is a tag: code that
//     writes </param> or </function> is carried (llama.cpp's grammar reads
//     the section so too). Only white space may stand between ]]> and
//     </param>; text there makes the call an error, and a section with no
//     ]]> runs to the end of the input, a truncated error.
//   - Elsewhere a call ends at its first </function>. A call longer than
//     MaxBlock is an over_limit error whose value is no longer read, so
//     there its first </function>, even inside a CDATA section, ends it.
//   - A key given twice is an array of its values, in order: nothing the
//     model wrote is dropped.
//   - <think>…</think> is reasoning. With Options.ThinkOpen (the template
//     opens it with enable_thinking) the output starts in it, and a call
//     ends it.
//   - <tool_response>…</tool_response> is the result of the call at its
//     place in the last batch (a transcript's tool turn): the JSON value it
//     holds, or its text.
//   - The calls of a message are one batch: one execute at the end of the
//     input or before the first result. Text around and between calls is
//     respond.
//   - A call cut off by the end of input is a truncated error, never a
//     call.
//
// # Where peers disagree
//
//   - vLLM's minicpm5 parser reads the tags with U+0120 (Ġ) for the space
//     and with the space lost (<functionname=, <paramname=), and turns Ġ and
//     Ċ back into a space and a line end in text; llama.cpp reads the output
//     with the <function and <param special tokens stripped. These are
//     marks of a detokeniser that did not map a byte-level tokenizer's
//     pieces back, or dropped special tokens: this syntax reads properly
//     detokenised text, and those spellings are text (goldens say so).
//   - vLLM is driven by the tool list: it drops a call to an unknown tool
//     or one missing a required parameter, drops parameters the schema does
//     not list, unwraps a single "properties" or "arguments" parameter
//     holding a dict, and renames a few hard-coded alias tools of one
//     benchmark. Here the call is read as written; with a tool list the
//     schema check marks it invalid and says why (an error event), and
//     nothing is renamed, dropped or unwrapped.
//   - vLLM's non-streaming mode drops the text around the calls; its
//     streaming mode keeps it, as this syntax does.
//
// # Choices where the spec is silent
//
//   - The renderer writes a value in a CDATA section when it holds '<',
//     '&' or a line end (and no ]]>), as the template does, otherwise raw.
//
// # Not built
//
//   - MiniCPM 3 and 4's form (<|thought_start|>…<|thought_end|>, then
//     <|tool_call_start|> and a ```python fence of calls, one per line):
//     registry.ForModel says no syntax reads it.
package minicpm
