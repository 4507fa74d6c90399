// Package minimax parses the invoke/parameter XML that MiniMax-M2 writes its
// tool calls in, and the same shape in Anthropic's legacy <function_calls>
// form (docs/formats.md):
//
//	<think>The user wants the weather.</think>
//	<minimax:tool_call>
//	<invoke name="get_weather">
//	<parameter name="city">Paris</parameter>
//	<parameter name="days">5</parameter>
//	</invoke>
//	</minimax:tool_call>
//
// # Rules as read
//
//   - Text outside tags is respond. <think>…</think> is think, and inside it
//     nothing is a tag (a call written in a thought is thought).
//     Options.ThinkOpen: the output starts in reasoning, which ends at the
//     first </think> or at a block that opens a call section, whichever
//     comes first; only that first </think> ends it, and a <think> inside
//     or after it is text (the prompt opened the one reasoning block).
//     The opener written again before any text (a restated opener) is
//     passed over, and reasoning with nothing in it is no thought and, cut
//     off, no error.
//   - A section is <minimax:tool_call> … </minimax:tool_call> or
//     <function_calls> … </function_calls>. The opener counts only when the
//     first thing after it that is not white space is an <invoke …> tag or
//     its own closer (docs/formats.md, rule 8): prose that names the tag, and
//     Olmo 3's <function_calls> holding pythonic calls, are text. White
//     space then the end of the input after an opener is a truncated error.
//   - A section holds <invoke name="N"> elements (white space between them);
//     an invoke tag that closes itself (<invoke name="N"/>) is a call with
//     no arguments;
//     an invoke holds <parameter name="K">V</parameter> elements (white
//     space between them). Attributes may use double, single or no quotes.
//   - Values are raw text, with one leading and one trailing line end (LF or
//     CRLF) dropped; no entity decoding. A repeated parameter is an array.
//     Values are strings: a tool schema converts them to its types (the
//     call is marked Event.Strings, as caret and xmltag calls are), so
//     `--tools` gives 10 for "10" where the schema says integer.
//   - A value's end follows docs/formats.md, rule 7 (the rule DSML's values
//     follow too): </parameter> ends a value only when, after white
//     space, <parameter name= or </invoke> follows it; otherwise it is part
//     of the value. A value whose </parameter> is missing ends at </invoke>.
//     The look-ahead holds at most the closer, the white space after it and
//     a tag's prefix.
//   - A call is complete at its own </invoke>. A missing section closer at
//     the end of the input is tolerated, and text after the last invoke ends
//     the section. Text between parameters, or a parameter tag without a
//     name, makes the invoke an error (raw = its text) and no call; its
//     siblings stand. An invoke cut off by the end of the input — inside a
//     value, or after a </parameter> whose end was not yet known — is a
//     truncated error, never a call.
//   - Results: <function_results> … </function_results> holding
//     <result><tool_name>T</tool_name><stdout>…</stdout></result> elements
//     (<error> in place of <stdout> for a failure), as Anthropic's legacy
//     form writes them; each is a result with its tool, its text (one
//     leading and trailing line end dropped) as a string content, no id.
//     Anything else in the block makes it an error.
//   - The batch is the whole message: one execute after its last event, at
//     the end of the input, or before a results block that follows the
//     calls. Text after the calls comes before it.
//
// In token mode text streams as soon as it cannot be a tag; each call is
// announced at its <invoke> tag, and each parameter's value streams as it is
// known to be value text (a </parameter> and the white space after it are
// held until what follows tells), as xmltag does.
//
// # Where peers disagree
//
//   - Values: vLLM, SGLang and Ollama convert them with the request's
//     schema; so does --tools here. A string the schema accepts as it is
//     stays a string ("null" under anyOf string/null stays "null"; vLLM
//     gives null).
//   - White space: an Ollama MiniMax-M2 parser trims values; vLLM strips
//     them too. Only one leading and one trailing line end go here (the
//     template's own), so code and indentation survive.
//   - A missing </invoke> before </minimax:tool_call>: that Ollama parser
//     recovers a call; §2.7 as written does not count the section closer as
//     structural, so the value runs on and the invoke ends truncated.
//   - vLLM's engine checks call names against the request's tools
//     (validate_tool_names); here every call is reported and a schema check
//     says which names are unknown.
//
// # Choices where the spec is silent
//
//   - An empty section gives no event; an empty results block is an error
//     (malformed): it answers nothing. An empty thought gives no event; the
//     text after it, if any, takes in its markers.
//   - The error of a section's last failed invoke is held until the section's
//     next invoke or its end, so that its span takes in the closer. The
//     execute's span runs from the opener of the batch's first section to
//     where the batch ends.
//   - A <function_results> block after calls executes them even in a
//     <minimax:tool_call> transcript; MiniMax's own template passes results
//     in the user turn, outside the model's text.
//
// # The renderer
//
// It writes the MiniMax-M2 form (the engine's invoke form: each batch one
// <minimax:tool_call> section, one <parameter> per value, an array of
// strings as the parameter repeated; what it cannot carry is reported), results in the
// <function_results> form. Anthropic's <function_calls> form is read, not
// written.
//
// # Not built
//
//   - Glimmer's <atem:function_calls>/<atem:invoke> blocks: syntax glimmer
//     reads them, with the same invoke reader and its tags, inside
//     Glimmer's messages.
//   - MiniMax-M1 / Text-01's JSON-lines <tool_calls> form
//     (vllm tests/tool_parsers/test_minimax_tool_parser.py): a different
//     syntax, not read here.
//   - A renderer Variant for <function_calls>.
package minimax
