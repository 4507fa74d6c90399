// Package harmony parses gpt-oss's Harmony format (docs/formats.md).
//
// The output is a sequence of messages, each a header, <|message|>, a body
// and an end marker:
//
//	<|channel|>analysis<|message|>Need the weather.<|end|>
//	<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Berlin"}<|call|>
//	<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"temp":20}<|end|>
//	<|start|>assistant<|channel|>final<|message|>It is 20 °C in Berlin.<|return|>
//
// (shown on separate lines; the model writes them back to back). Every
// marker is a special token, so the input must be detokenised with special
// tokens kept (vLLM's default, skip_special_tokens, deletes them).
//
// # The rules as read
//
//   - A header is [<|start|>ROLE][ to=RECIPIENT]<|channel|>CHANNEL[ to=RECIPIENT][ <|constrain|>TYPE | TYPE],
//     read up to <|message|>. The prompt ends with <|start|>assistant, so
//     the output's first message starts at <|channel|>, or at the rest of
//     the role part (" to=functions.f<|channel|>…", llama.cpp's "tool call
//     in role header"): at the very start of the output, white space, an
//     optional " to=RECIPIENT" and then <|channel|>, <|constrain|> or
//     <|message|> are read as a header (the first 256 bytes are looked at).
//     The recipient may stand before or after the channel; the word after
//     <|constrain|>, and other words after the channel, are the content
//     type, which changes nothing.
//   - A message of the assistant without a recipient is text: analysis is
//     think; final, commentary (a preamble for the user) and any other
//     channel are respond. Each message is its own text run.
//   - A message of the assistant addressed to the assistant (a stray
//     "to=assistant" in its header) is text, as one without a recipient:
//     "assistant" names no tool.
//   - A message with the recipient functions.NAME is a call to NAME, on any
//     channel (about half of gpt-oss-120b's calls are on analysis). Its body
//     is one JSON value, whose end is found JSON-aware: "<|call|>" inside a
//     string is content. An object is the arguments; an empty body or null
//     is {}; a string holding a JSON object is decoded once; anything else
//     (another string, prose, broken JSON) is an error and no call
//     (docs/formats.md, rule 4).
//   - A message to another recipient (browser.search, container.exec,
//     python) is a call named after the recipient. A body that is a JSON
//     object is its arguments; any other body (python's code) is free text:
//     the call is custom, with args {"input": TEXT}, the text verbatim (as
//     the event model gives OpenAI's free-text custom tool calls).
//   - A message whose role is a tool (functions.NAME, or a built-in's name)
//     is a result of NAME, status success (Harmony has no failure flag):
//     its body as JSON when it is one JSON value, else the body's text,
//     trimmed, as a JSON string.
//   - A message ends at <|end|>, <|call|> or <|return|>, whichever its
//     channel would use, or where the next message's <|start|> or
//     <|channel|> begins (a missing end marker is tolerated).
//   - <|call|> and <|return|> are stop tokens, which servers usually do not
//     pass on: at the end of input a call whose JSON is complete is a
//     complete call (Syntax.CompleteAt tells the conformance kit so), and a
//     final or commentary message simply ends. A call whose JSON is cut off
//     is a truncated error, never a call.
//   - The calls of a turn are one batch: one execute follows them, when a
//     tool's message begins (the results) or at the end of input. Text the
//     model writes after its calls is respond and comes before the execute.
//   - Text outside any message (before the first header, between an end
//     marker and the next <|start|>) is respond. Only <|start|> and
//     <|channel|> open a message there; a stray <|end|> is text.
//   - Options.ThinkOpen: the prompt ended with
//     <|start|>assistant<|channel|>analysis<|message|>, so the output starts
//     inside an analysis message. Its reasoning ends at the first end marker
//     or at the next message's opener, whichever comes first
//     (docs/formats.md, rule 6); recipients written in it are text.
//
// # Choices where the peers disagree
//
//   - Arguments that are not a JSON object: vLLM passes the body on as the
//     arguments string ("foo" in test_openai_tool_parser.py), Ollama too;
//     here it is an invalid_json or malformed error and no call.
//   - Text after the calls: SGLang's gpt-oss detector drops it
//     (test_gpt_oss_detector.py); here it is respond, before the execute.
//   - Built-in recipients: SGLang and vLLM return the body as the call's
//     arguments string whatever it is; here a non-JSON body becomes
//     {"input": …} with the custom flag, so that args stay an object. Some
//     clients cut the name to its last segment ("search"); here it is the
//     recipient as written ("browser.search").
//   - A user, system or developer message is not the model's output: a
//     not_allowed error holding it (Ollama reads it as content).
//   - Results: SGLang passes a tool's message on as text; here it is a
//     result event.
//   - An analysis message cut off by the end of input: llama.cpp returns the
//     partial reasoning; here it is a think event followed by a truncated
//     error, since <|end|> is not a stop token and the output was cut.
//
// # Choices where the spec is silent
//
//   - A call's span covers its header and body up to the end of its JSON
//     value, not its end marker: the execute's span covers the end markers
//     of the batch's calls (<|call|> is what makes the batch run). So a call
//     whose <|call|> was a stop token has the same span as with it.
//   - A free-text body (python) has no end of its own: without its end
//     marker at the end of input it is truncated, never a call.
//   - An empty body at the end of input (nothing after <|message|>) is
//     truncated; an empty body followed by <|call|> is {}. An analysis,
//     commentary or final message with nothing but white space in it gives
//     no event; when its end marker is missing, the next message's first
//     event takes its bytes into its span.
//   - A header cut off by the end of input, or ended by an end marker before
//     <|message|>, or by a new <|start|>, is an error holding it. A header
//     longer than 1 KiB (or Options.MaxBlock, when smaller) is an over_limit
//     error: its message is skipped up to its end marker.
//   - A result message cut off by the end of input is a truncated error.
//   - A call to "functions." (no name) is a malformed error.
//   - In token mode a call to functions.NAME is announced when its header
//     ends and its arguments stream as compact JSON deltas when its body is
//     an object; a built-in's call is not streamed (its body may turn out
//     to be free text), only emitted whole.
//   - The renderer writes respond as final messages (the last one ended by
//     <|return|>), calls with <|constrain|>json, results as messages from
//     functions.NAME to the assistant with the content as JSON; see
//     [newRenderer] for what it cannot carry.
//
// # Not built
//
//   - Tool names are not mapped: Ollama renames tools to valid Harmony
//     identifiers (FunctionNameMap, "get weather" → get_weather) and back;
//     a caller doing so must map names itself.
//   - The text-only fallback some servers need when the special tokens were
//     stripped ("analysisThe user…assistantfinalIt looks…", SGLang's
//     TextStrategy) is not read: such output is respond text.
//   - The content type (<|constrain|>json, code) is not reported.
package harmony
