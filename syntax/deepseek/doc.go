// Package deepseek parses the tool calls DeepSeek models write, in all four
// of their forms, with one parser (docs/formats.md). The package is a
// description of the forms for the tag-call engine's token form (Kimi K2's
// family: calls as special tokens around a header and JSON arguments), its
// DSML sections read as the engine's invoke form reads MiniMax's:
//
//	V3 / V3-0324 / R1:
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
//	```json
//	{"city": "Paris"}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
//	V3.1 / V3.1-Terminus:
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
//	V3.2 (DSML):
//	<｜DSML｜function_calls>
//	<｜DSML｜invoke name="get_weather">
//	<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
//	</｜DSML｜invoke>
//	</｜DSML｜function_calls>
//
//	V4 (DSML, its section renamed):
//	<｜DSML｜tool_calls>
//	<｜DSML｜invoke name="get_weather">
//	<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
//	</｜DSML｜invoke>
//	</｜DSML｜tool_calls>
//
// The markers are special tokens made of the fullwidth ｜ (U+FF5C) and ▁
// (U+2581), three bytes each: the input must be detokenised with special
// tokens kept (vLLM's skip_special_tokens=False). They may be split
// anywhere, inside a character too.
//
// # Rules as read
//
//   - Text outside markers is respond. <think>…</think> is think, and inside
//     it nothing is a marker (a call written in a thought is thought).
//   - Options.ThinkOpen (R1 and V3.1 in thinking mode, whose prompt ends
//     with <think>): the output starts in reasoning, which ends at the first
//     </think> or at a call opener (<｜tool▁calls▁begin｜>,
//     <｜tool▁call▁begin｜>, <｜DSML｜function_calls>, <｜DSML｜tool_calls>),
//     whichever comes first.
//     Only that first closer ends reasoning: a later </think> is text, and
//     so is a <think> inside the open reasoning or after it (the prompt
//     opened the one reasoning block of the output). Without ThinkOpen a
//     lone </think> is text, and each <think>…</think> is a thought.
//     The opener written again before any text (a restated opener) is
//     passed over, and reasoning with nothing in it is no thought and, cut
//     off, no error.
//   - A call is <｜tool▁call▁begin｜> HEADER <｜tool▁sep｜> … <｜tool▁call▁end｜>.
//     When HEADER is the word function and what follows the separator is
//     not a '{', it is V3: the name runs to the end of its line, then an
//     optional ``` fence with a label (json), the JSON arguments, an optional
//     closing ```. Otherwise HEADER, trimmed, is the name and the JSON follows
//     the separator (V3.1; a fence is tolerated there too). The JSON's end is
//     found JSON-aware: a <｜tool▁call▁end｜> inside a string is content.
//     Arguments are an object; a string holding an object is decoded once;
//     nothing, or null, is {}; anything else is an error.
//   - Calls stand in a <｜tool▁calls▁begin｜> … <｜tool▁calls▁end｜> section;
//     a missing section end is tolerated (the stop token came first), and so
//     is a call marker with no section around it.
//   - A call is complete at its own <｜tool▁call▁end｜>. A call with no
//     separator, invalid JSON, or arguments that are not an object is an
//     error with the call's text as raw, and gives no call; its siblings
//     stand. A call cut off by the end of the input is a truncated error.
//     A broken call ends at its closer or at the first marker that opens
//     or closes something else (a call or section opener, an output
//     opener, a DSML section opener, a section closer), which is read
//     afresh; after the arguments, anything but white space, the
//     fence's closer and the call's closer ends the call there, an error,
//     and what follows is read afresh. So a damaged call never takes its
//     siblings with it, and no name holds a marker.
//   - DSML: the section holds invokes, each holding parameters whose values
//     are raw text. string="true" values are strings; string="false" values
//     are JSON (a value that is not valid JSON is kept as the string, as
//     vLLM does). The value's end follows docs/formats.md, rule 7 (the
//     rule MiniMax's values follow too): a </｜DSML｜parameter> ends a value only when
//     </｜DSML｜invoke> or <｜DSML｜parameter name= follows it after white
//     space; a value whose closer is missing ends at </｜DSML｜invoke>. One
//     leading and one trailing line end of a value are dropped. A repeated
//     parameter is an array. Text between parameters makes the invoke an
//     error. An invoke tag that closes itself (<｜DSML｜invoke name="N"/>) is
//     a call with no arguments.
//   - V4 writes the same invokes in a <｜DSML｜tool_calls> section, closed
//     by </｜DSML｜tool_calls>; each section is closed by its own closer
//     (a V3.2 closer in a V4 section is text of the section, which ends it).
//     vLLM's V4 parser reads only the V4 section; both are read here, so
//     one parser serves V3.2 and V4 alike.
//   - Outputs: <｜tool▁output▁begin｜>TEXT<｜tool▁output▁end｜>, alone or in
//     a <｜tool▁outputs▁begin｜> … <｜tool▁outputs▁end｜> section (Cogito), is
//     a result: content TEXT as a string, verbatim; tool the name of the call
//     at its place in the last batch ("" when there is none); status success.
//   - The batch is the whole message: one execute after its last event, at
//     the end of the input, or before the first output that follows the
//     calls (the outputs answer them). Text after the calls comes before it.
//
// In token mode text streams as soon as it cannot be a marker; a JSON call
// is announced once its name is read (its index counts the message's
// V3 and V3.1 calls, as in Kimi K2's form; a DSML call's is 0, as in the
// invoke form: calls stream one at a time) and its arguments stream as compact JSON
// deltas (when they are an object); a DSML call streams per parameter, as
// xmltag does, its string values only (string="false" values come whole
// in the call).
//
// # Where peers disagree
//
//   - Text after the section: vLLM's V3/V3.1 parsers drop it (their tests
//     expect only the prefix as content); Ollama keeps it. Kept here, as
//     respond before the execute.
//   - A section without call markers, or cut off before one: vLLM returns
//     the whole text as content and no call; here the opener is an error
//     (malformed, or truncated at the end of the input) and the text after
//     it is respond, so the problem is visible and nothing is lost.
//   - Outputs: Ollama's deepseek3 parser passes output text through as
//     content, Cogito's drops it; they are results here, since a transcript
//     holds them where a tool's result stands.
//   - DSML string="true" values and a schema: vLLM converts them to the
//     schema's types too (test_string_attr_true_coerced_by_schema). Calls
//     with any string value are marked as such (Event.Strings), so --tools
//     converts them the same way; string="false" values keep their JSON
//     types. vLLM's repair of a lone "arguments"/"input" wrapper parameter
//     is not done: the call is reported as written, and a schema check says
//     what is wrong with it.
//   - DSML quoted in a markdown fence or in backticks: SGLang's V4 parser
//     keeps it as content; here the special tokens are read where they
//     stand (a parser of text cannot tell a quoted token from a written
//     one), so the quoted section is read as calls. An invoke with no
//     section around it, an invoke body of JSON in place of parameters,
//     and a damaged section opener are read by SGLang; here they are text,
//     an error, and text. A repeated parameter: SGLang keeps the last.
//   - A <think> after the reasoning the prompt opened: Ollama treats the
//     first </think> as the only reasoning end, as here.
//
// # Choices where the spec is silent
//
//   - A section closer (<｜tool▁calls▁end｜>, <｜tool▁outputs▁end｜>,
//     </｜DSML｜function_calls>, </｜DSML｜tool_calls>) with no open section
//     is text.
//   - Text in a section after its first call ends the section (its closer
//     is missing); text before the first call makes the opener an error.
//   - The error of the last failed call of a section, or its last result,
//     is held until the section's next item or its end, so that its span
//     takes in the closer. The execute's span runs from the first section
//     closer after a call (or the opener of the first DSML section that
//     holds a call) to where the batch ends.
//   - The V3 type word is read as "function" only; any other header is a
//     V3.1 name.
//   - An empty outputs section is an error (malformed): it answers nothing.
//   - An empty thought gives no event; the text after it, if any, takes in
//     its markers.
//   - Results never carry an id (the format has none) and their content
//     is always a string, even when it is JSON text.
//
// # The renderer
//
// It writes the V3.1 form, the form of the current models, and results as
// one outputs section per run. The variants deepseek-v3 (the V3 / R1
// fenced form), deepseek-dsml (V3.2's invokes, which carry typed values)
// and deepseek-v4 (the same invokes in V4's section) write calls in the
// others, each read back with this parser before it is written. Thoughts
// are written as <think>, a line end, the thought, a line end and
// </think>. A result's content is text: a failure is written in words
// after "Error: ", a value that is not a string as its JSON text (as every
// renderer of text results writes them). It cannot carry (and says so):
// ids, a result whose tool is not the call at its place in the last
// batch, a result holding <｜tool▁output▁end｜>, text or a thought holding a marker that would end it, a thought
// after the reasoning the prompt opened, text or calls between an execute
// and the results, and calls with no execute.
//
// # Not built
//
//   - V3.2's own result form (<function_results>) and V4's (<tool_result>
//     in the user's turn): results are not model output.
//   - The <|DSML|…> spelling with ASCII pipes seen leaking through proxies.
package deepseek
