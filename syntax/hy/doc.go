// Package hy parses the tool calls of Tencent's Hy3 and Hy v4 models,
// GLM's key and value tags under Hy's own tokens, each carrying the
// released tokenizer's suffix, :opensource:
//
//	<tool_calls:opensource>
//	<tool_call:opensource>get_weather<tool_sep:opensource>
//	<arg_key:opensource>city</arg_key:opensource>
//	<arg_value:opensource>Beijing</arg_value:opensource>
//	</tool_call:opensource>
//	</tool_calls:opensource>
//
// Hy v4 writes no <tool_sep:opensource> after the name. It is a
// description for the module's tag-call engine: its word-name form, as GLM
// (syntax/glm) is, with a separator that may end the name.
//
// # The rules as read
//
//   - A call is <tool_call:opensource>, the name (a word), an optional
//     <tool_sep:opensource>, then <arg_key:opensource>K</arg_key:opensource>
//     <arg_value:opensource>V</arg_value:opensource> pairs with white space
//     between them, then </tool_call:opensource>. Values are raw text,
//     strings unless a tool schema converts them (the call says so); a
//     value closer followed by anything but the next key or the call's
//     closer is part of the value. A call is complete only at its closer.
//   - The calls' wrapper, <tool_calls:opensource> and its closer, and the
//     results' wrapper, <tool_responses:opensource> and its closer, are
//     dropped where they stand; a call stands whether or not its wrapper
//     was written.
//   - <think:opensource>…</think:opensource> is reasoning. With
//     Options.ThinkOpen (the template opens it when reasoning_effort is low
//     or high) the output starts in it, and a call ends it (the calls'
//     wrapper before it is the thought's last text).
//   - <tool_response:opensource>…</tool_response:opensource> is the result
//     of the call at its place in the last batch (a transcript's tool
//     turn), its content text less one line end on each side.
//   - The calls of a message are one batch: one execute at the end of the
//     input or before the first result.
//
// # Where peers disagree
//
//   - vLLM builds its markers from the tokenizer's token_suffix, so it
//     reads the preview tokenizer's unsuffixed tags too; those are GLM's and
//     Hermes's tags, and here they are text: the unsuffixed form is read by
//     no syntax (its tests' cases are pinned here with the suffix).
//   - vLLM's strict mode gives a malformed block back as text; its lenient
//     mode recovers what it can. Here each call stands or is an error by
//     itself, and the wrapper's tags never decide.
//
// # Choices where the spec is silent
//
//   - The renderer writes each call with the separator (Hy3's form, which
//     v4's parser reads too) and without the wrapper, which is dropped
//     when read.
package hy
