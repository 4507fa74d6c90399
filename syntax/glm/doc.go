// Package glm parses the tool-call syntax of GLM-4.5, 4.6 and 4.7, which
// inclusionAI's Ling 3 writes too (docs/formats.md):
//
//	<think>Need the weather.</think>
//	<tool_call>get_weather
//	<arg_key>city</arg_key>
//	<arg_value>Beijing</arg_value>
//	</tool_call>
//
// GLM-4.7 drops the newlines: <tool_call>get_weather<arg_key>city</arg_key>….
//
// # The rules as read
//
//   - A call opens at <tool_call>, optional white space, then a NAME (1 to
//     256 bytes, no white space, none of <>{}[]"'), ended by a line end,
//     <arg_key> or </tool_call> (after optional spaces). Any other
//     <tool_call> is text: Hermes writes '{' after it, Qwen3-Coder
//     <function=.
//   - The call ends at its first </tool_call>, its own terminator. Between
//     the name and it: <arg_key>KEY</arg_key>, optional white space,
//     <arg_value>VALUE</arg_value>, and white space; anything else makes the
//     call an error (malformed, raw = its text), never a call. KEY is taken
//     as written ('<' and '&' included, as Ollama keeps them).
//   - A value is kept exactly: no trimming, no entities, no escaping.
//     Values are strings and the call says so (Event.Strings), so a tool
//     schema converts them (GLM's template writes non-strings with tojson);
//     a key given twice is an array of its values.
//   - A value ends at an </arg_value> followed, after optional white space,
//     by <arg_key> or </tool_call>; any other </arg_value> is part of it.
//     When no such closer comes, </tool_call> ends the value (docs/formats.md,
//     rule 7; the same code as qwen3coder's values).
//   - <think>…</think> is think; inside it nothing is a marker. With
//     Options.ThinkOpen (GLM-4.7 with thinking on: the prompt ends with
//     <think>) the output starts in reasoning, which ends at the first
//     </think> or at a call opener.
//     The opener written again before any text (a restated opener) is
//     passed over, and reasoning with nothing in it is no thought and, cut
//     off, no error.
//   - <tool_response>…</tool_response> is a result, as in qwen3coder: less
//     one newline at each end, a string, named after the call at its
//     position in the last batch. The <|observation|> special token before
//     it, when the input has it, is text.
//   - One execute after the message's calls, at the end of the input or
//     before the first <tool_response>, when at least one call was valid.
//     Text after the calls is respond, before the execute. No ids.
//   - The end of the input inside a call, or right after <tool_call> and a
//     name, is an error (truncated), never a call.
//
// # Choices where peers disagree
//
//   - Ling 3: vLLM's ling3 parser also takes the two characters \n
//     (backslash, n) after the name for its separator; here they are part
//     of the word name. SGLang's ling3 reasoning parser ends reasoning at
//     <tool_call> and gives reasoning-only replies back as content; here a
//     call in an explicit <think> is thought, and reasoning stays
//     reasoning.
//   - A complete last value with no </tool_call> at the end of the input:
//     Ollama's GLM-4.6 parser accepts it as a call; here it is a truncated
//     error. </tool_call> is GLM's own terminator (there is no inner closer,
//     unlike Qwen3-Coder's </function>), and accepting a body at the end
//     would turn output cut between two parameters into a call with an
//     argument missing: the risk Ollama's own comment names for repairs.
//   - A key given twice: Ollama keeps the last value (its GLM-4.6 test says
//     so); here both, as an array (nothing dropped without a word; a
//     schema that says string reports it).
//   - Mismatched tags: Ollama repairs them (repairGLM46XML: an <arg_value>
//     never opened, a value never closed before the next <arg_key>); here
//     only the §2.7 rule applies, and anything else is a malformed call.
//
// # Choices where the spec is silent
//
//   - A call's span is its whole block, <tool_call> to </tool_call>; the
//     execute's span covers the batch's blocks.
//   - In token mode a call streams: its name once the opener is decided,
//     then each parameter as it opens and its value in final deltas (a
//     </arg_value> under look ahead is held until decided).
//   - The renderer writes <tool_call>NAME, then each pair on one line each
//     (<arg_key>k</arg_key>, then <arg_value>v</arg_value>), GLM-4.5's form.
//
// # Not built
//
//   - Repairs of mismatched or unopened tags (Ollama's repairGLM46XML).
//   - Results with a failure status: the format has no form for them.
//   - laguna (Ollama's laguna.go) uses the same argument tags under another
//     wrapper; not read here.
package glm
