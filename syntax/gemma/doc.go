// Package gemma parses Gemma 4's tool-call format (docs/formats.md).
//
//	<|channel>thought
//	The user wants the weather.<channel|>Let me check.<|tool_call>call:get_weather{location:<|"|>Paris<|"|>,days:3}<tool_call|>
//	<|tool_response>response:get_weather{value:<|"|>Sunny<|"|>}<tool_response|>It is sunny in Paris.
//
// It reads FunctionGemma's too (Gemma 3 270M tuned for tools): the same
// call body under other tokens, strings between <escape>, and no reasoning
// (the functiongemma variant writes it):
//
//	<start_function_call>call:get_weather{location:<escape>Paris<escape>}<end_function_call>
//	<start_function_response>response:get_weather{value:<escape>Sunny<escape>}<end_function_response>
//
// Every marker is a special token: the input must be detokenised with
// special tokens kept.
//
// # The rules as read
//
//   - <|channel>…<channel|> is reasoning (think). Its channel name, a first
//     line "thought", is not part of it; <|channel>thought<channel|> (what
//     Gemma 4 writes with thinking off) is an empty thought: no event, and
//     never the word as text. Inside it only <channel|> is a marker: a call
//     written there is thought (docs/formats.md, rule 6).
//   - <|tool_call>call:NAME{…}<tool_call|> is a call. NAME is every byte up
//     to '{' (hyphens and dots included; no white space, ':', ',', '<' or
//     brackets). The arguments are an object written with bare keys (or keys
//     between <|"|>, or JSON strings); values are strings between the token
//     <|"|>, raw (no escapes: a backslash is a backslash, a quote a quote),
//     JSON strings "…" (Ollama reads them; they are decoded), numbers, true,
//     false, null, nested objects and arrays. They become a JSON object,
//     keys in order. {} is {}. <turn|> closes a call as <tool_call|> does
//     (vLLM test_gemma4_regex_and_bare_calls.py); a stray ':' after
//     <|tool_call> is skipped. Several call:NAME{…} bodies in one block
//     (white space between them allowed) are several calls, each spanning
//     its own body; a problem in any makes the block one error. A number
//     beyond a float64 (1e999) has no JSON form a reader takes: the call is
//     an error that says so, never arguments a decoder refuses.
//   - <|tool_call> not followed by "call:" opens nothing: it is text
//     (docs/formats.md, rule 8).
//   - <|tool_response>response:NAME{…}<tool_response|> is a result of NAME
//     (status success: Gemma has no failure flag); {value:X} gives the
//     content X, any other object the object.
//   - The calls of a turn are one batch: one execute follows them at the
//     first result or at the end of input. Text after the calls is respond,
//     before the execute.
//   - A call or response cut off by the end of input is a truncated error,
//     never a call: <tool_call|> is not a stop token.
//   - Text outside these blocks is respond.
//   - FunctionGemma's dialect: <start_function_call> and
//     <end_function_call> stand for <|tool_call> and <tool_call|>,
//     <start_function_response> and <end_function_response> for the
//     response's, <end_of_turn> for <turn|>, and <escape> for <|"|>. A block
//     is read in the dialect of its opener: inside a FunctionGemma call,
//     <|"|> and <tool_call|> are text, and the other way round. The rules
//     above hold in either dialect (a bare <start_function_response> after
//     calls, FunctionGemma's stop sequence, belongs to their execute).
//   - A bare key right after a raw string, the comma between them left out
//     ({query:<escape>python<escape>limit:10}), is the next member: the
//     string's closing tag ended the value (vLLM's functiongemma tests
//     write it). After any other value a missing comma is an error.
//   - Options.ThinkOpen: the prompt opened the reasoning, so the output
//     starts in it. It ends at the first <channel|>, or at a call
//     (<|tool_call>call:), whichever comes first.
//
// # Choices where the peers disagree
//
//   - A call cut off by the end of input: Ollama flushes it as a call when
//     the stream is done (tool_call_done_flush_without_close_tag…), vLLM
//     streams partial arguments; here it is an error.
//   - A bare word as a value ({content:hello}): vLLM takes it as a string,
//     Ollama repairs it only with the tool's schema; here it is a malformed
//     error and no call.
//   - A number between <escape> tags (<escape>10<escape>) is the string
//     "10", as Ollama keeps it: the model quoted it. vLLM's functiongemma
//     parser runs json.loads on every such value (10), and drops bare
//     values (a:1) that we, and Ollama, read.
//   - "call:NAME{…}" without <|tool_call> (the special token dropped): vLLM's
//     fallback tier extracts it; here it is text.
//   - A <|"|> string holding <tool_call|> (or <turn|>, <tool_response|> in a
//     response): the closer ends the block and the call is a malformed
//     error (the string's <|"|> is missing), so the rest of the output is
//     read afresh. Ollama and vLLM search for the closer textually too.
//
// # Choices where the spec is silent
//
//   - After calls, a bare <|tool_response> (the model's sign that it waits
//     for results) and a stray closer (a second <tool_call|>, <turn|>) are
//     no event: they belong to the batch's execute, whose span covers them.
//     Elsewhere they are text.
//   - A JSON string value is written in the arguments as a raw string would
//     be, so the same text gives the same arguments however it was quoted;
//     numbers, true, false and null are kept as written.
//   - Invalid UTF-8 in a raw string becomes U+FFFD.
//   - In token mode a call is announced when its name ends ('{'), and its
//     arguments stream as compact JSON deltas as they are read: raw strings
//     and numbers byte by byte; a JSON string ("…") comes whole when it ends.
//     Tool responses are not streamed.
//   - An unterminated reasoning block is its think event, then a truncated
//     error.
//   - The renderer writes strings between <|"|>, or as JSON strings when
//     they hold <|"|> or a closer; keys bare when they are plain words.
//
// # Not built
//
//   - Gemma 3's prompted JSON or ```tool_code```.
//   - Schema-driven repairs (Ollama's repairGemma4…: unclosed strings,
//     single-quoted values, bare strings for string parameters).
//   - vLLM's bare "call:" fallback and the "<call>NAME{…}" fragment seen with
//     multimodal inputs.
package gemma
