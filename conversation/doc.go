// Package conversation reads and writes chat transcripts: the logs of
// provider APIs, in their own message forms, and transcripts in which the
// assistant's messages are written in a tool-call syntax.
//
// [Decode] takes a transcript — a JSON array of messages, an object with a
// "messages" (OpenAI, Anthropic, Ollama), "contents" (Gemini) or "input"
// (OpenAI Responses) array, or one message per line — and keeps each
// message whole ([Message].Raw), whatever its form.
//
// [Read] reads every message as a provider message first, with the native
// parser, in one stream: OpenAI Chat assistant messages with tool_calls and
// "tool" messages (whose tool is found by tool_call_id), Anthropic messages
// with tool_use and tool_result blocks, Gemini contents with functionCall
// and functionResponse parts, Ollama messages with thinking, tool_calls
// and tool_name, OpenAI Responses items. With a syntax other than native,
// the text of each assistant message is then parsed with that syntax, and
// the text of user messages for the results the syntax writes there
// (xmljson's <results>, delimiter's [SYSTEM: …]). Nothing is dropped: a
// message that gives no events (system and user messages) is kept as it is
// ([Turn].Other), and a user message holding results beside other content
// is split into its results and the rest.
//
// [Write] does the reverse. In a text syntax, each run of assistant events
// becomes an assistant message rendered in the syntax, and each run of
// results a user message in the syntax's result form — or, for a syntax
// that has none (caret, xmltag), one "tool" message per result. In a native
// form (anthropic, openai, openai-responses, gemini, ollama: the registry's
// names for native's variants), the events become the provider's own
// messages, as the form's renderer writes them — never JSON held in a
// text — with an id on every call and the result that answers it; kept
// messages are written as they were (rewritten with their role and text
// only when the form needs another shape: Gemini's parts).
//
// In a text syntax, a batch's results — consecutive result turns — are one
// user message written after the calls they answer, in the syntax's result
// form (hermes, qwen3coder and glm <tool_response>, deepseek's tool
// outputs, mistral's [TOOL_RESULTS], …), as the model's chat template
// writes them; a failed result reads "Error: " and its content where the
// form has no status, as package prompt teaches and package batch reports.
//
// A conversation read and written back reproduces its calls and results;
// what a form cannot carry is returned with the messages as a
// [*WriteError], which wraps wire.ErrCannotCarry and lists each loss with
// its turn. A schema finding (an error event of code schema) is not a
// loss: it is not written and not reported. A result whose content is not
// a string, in a form whose results are text, is written as its JSON text:
// that is the form's rule, not a loss.
//
// To keep the model's own turn byte for byte (a server's prefix cache
// depends on the exact bytes), keep its message as it came: a Turn whose
// Other holds the message is written as it was. Write re-renders the events
// of every other turn canonically.
package conversation
