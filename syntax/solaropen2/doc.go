// Package solaropen2 parses the tool calls of Upstage's Solar Open 2, as
// vLLM's solar_open2 parser reads them:
//
//	<|think:start|>The user wants the weather.<|think:end|>Let me check.
//	<|tool_call:start|>get_weather
//	<|tool_arg:start|>city<|tool_arg:value|>Seoul<|tool_arg:end|>
//	<|tool_call:end|>
//
// The markers are special tokens: the input must be detokenised with
// special tokens kept. The package is a description (solaropen2.go) for the
// module's tag-call engine: the word-name form (GLM's), the name on the
// opener's line, with parameters whose key is ended by <|tool_arg:value|>.
// What the engine guarantees holds here.
//
// # The rules as read
//
//   - A call is <|tool_call:start|>, the name (the rest of its line, one
//     word), then parameters <|tool_arg:start|>KEY<|tool_arg:value|>VALUE
//     <|tool_arg:end|> and white space, then <|tool_call:end|>. Anything
//     else in the body makes the call an error (malformed), never a call;
//     its siblings stand.
//   - Values are raw text and strings (Event.Strings: a tool schema types
//     them, as vLLM's parser does with the request's). A value ends at a
//     <|tool_arg:end|> followed, after white space, by the next
//     <|tool_arg:start|> or the call's closer; a value whose closer was
//     left out ends at the call's closer. A parameter given twice is an
//     array of its values.
//   - The tokens are special tokens no value holds (Format.Reopens): a
//     <|tool_call:start|> inside a call ends it, an error (its closer
//     missing), and opens the next call; an opener with no name on its line
//     is an error up to its closer or the next opener.
//   - <|think:start|>…<|think:end|> is think.
//   - The calls of the message are one batch: one execute at the end of the
//     input, after the text that follows them. No ids: the format has none.
//   - The end of the input inside a call is a truncated error, never a call.
//
// # Where peers disagree
//
//   - vLLM recovers a call whose closer was left out (and one whose value
//     and call closers both were); here such a call is an error and the
//     next one stands: a call is complete only at its closer.
//   - vLLM skips a block whose name does not end with a line end, drops a
//     broken parameter and keeps the call, keeps the first of repeated
//     parameters, and drops text after the first call. Here: a name ended
//     by the call's closer is a call with no arguments, a broken parameter
//     is the call's error, a repeated one is an array, and text after a
//     call is respond text.
//
// # Choices where the rules are silent
//
//   - Auto-detection: <|tool_call:start|> and <|think:start|> are Solar
//     Open 2's alone, so each is evidence by itself, and so is
//     <|think:end|> where it ends reasoning the prompt opened (elsewhere it
//     is text).
//   - Tool results: not model output in this form (no template reads them
//     back in the assistant's text); the renderer reports a result as not
//     carried.
//   - Options.ThinkOpen: the output starts in reasoning, ended by
//     <|think:end|> or a call opener; a restated opener is passed over.
//   - The renderer writes the name on the opener's line and each parameter
//     on a line of its own, as the parser reads them.
package solaropen2
