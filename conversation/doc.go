// Package conversation reads and writes chat transcripts in which the
// assistant's messages are written in a tool-call syntax.
//
// It follows the storage rule of the agents it serves: events are stored without markers;
// markers are synthesized when the conversation is assembled for the model,
// and tool results go back as user messages. [Read] takes a transcript — an
// OpenAI-style array of {"role","content"} messages, or one message per line —
// parses every assistant message with the chosen syntax, and reads results
// from user messages (in the syntax's own result form, such as xmljson's
// <results> or delimiter's [SYSTEM: …] lines) and from "tool" messages.
// [Write] does the reverse: each run of assistant events becomes an assistant
// message rendered in the syntax, and each run of results a user message in
// the syntax's result form — or, for a syntax that has none (caret, xmltag),
// one "tool" message per result.
//
// A conversation read and written back reproduces its calls and results.
// System messages, and user messages without results, are kept aside as
// they are: parsers produce no "user" events, so Read returns them in
// [Conversation.Other], and Write puts them back in place.
package conversation
