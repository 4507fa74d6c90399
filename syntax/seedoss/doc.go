// Package seedoss parses the tool-call syntax of ByteDance's Seed-OSS
// models (Seed-OSS-36B), as their chat template writes it:
//
//	<seed:think>The user wants the weather.</seed:think>
//	<seed:tool_call>
//	<function=get_weather>
//	<parameter=location>Barcelona, Spain</parameter>
//	</function>
//	</seed:tool_call>
//
// The package is a description for the module's tag-call engine: Qwen3-Coder's
// function and parameter tags under Seed's own reasoning and call tags.
// Everything the engine guarantees holds here.
//
// # The rules as read
//
//   - A call opens at <seed:tool_call>, white space, then <function=NAME>;
//     it ends at its first </function>, and the </seed:tool_call> after it
//     belongs to it. A bare <function=NAME> (no wrapper) is text: the
//     wrapper is the format's own, and vLLM's Seed-OSS parser looks for it.
//   - Between the function tags, parameters <parameter=KEY>VALUE</parameter>
//     and white space; anything else makes the call an error (malformed),
//     never a call. Values are raw text and strings (Event.Strings), one
//     newline at each end dropped, as in qwen3coder (vLLM's Seed-OSS parser
//     is its Qwen3 parser with other tags); a value ends at a </parameter>
//     followed, after white space, by <parameter= or </function>.
//   - <seed:think>…</seed:think> is think; inside it nothing is a marker, so
//     a call the model quotes while it thinks is text (vLLM's test
//     tool_call_unlimited_thinking_budget). The <seed:cot_budget_reflect>
//     notes of a thinking budget, closed or stray, are part of the thought.
//   - Options.ThinkOpen: the output starts in reasoning (a template that
//     wrote <seed:think> into the prompt), ended by </seed:think> or a call.
//     The opener written again before any text (a restated opener) is
//     passed over, and reasoning with nothing in it is no thought and, cut
//     off, no error.
//   - One execute after the message's calls, at the end of the input. No
//     ids: the format has none.
//   - The end of the input inside a call is an error (truncated), never a
//     call.
//
// # Choices where the rules are silent
//
//   - Tool results: the template sends them back as messages of their own
//     (role "tool"), not in a block of the assistant's text, so no marker
//     here reads them and the renderer reports a result as not carried.
//   - <tool_call> and <think> (other formats' tags) are text.
//   - Auto-detection: <seed:think>, </seed:think> (under ThinkOpen) and
//     <seed:tool_call> are Seed's alone, so each is evidence by itself; a thought that quotes a call (a bare <function=NAME> followed
//     by <parameter=, which Qwen3-Coder reads as a call) is then read as
//     Seed-OSS's thought.
//   - The renderer writes each value between newlines (dropped when read
//     back), so that a value holding a line end stays exact.
package seedoss
