// Package delimiter parses the legacy delimiter syntax:
//
//	§think: I need to examine the code structure first
//	§call: {"name": "file_read", "args": {"file": "main.py"}}
//	§execute
//	[SYSTEM: Found syntax error on line 15]
//	§respond: Fixed the missing semicolon.
//	§end
//
// The delimiters §think: §call: §respond: §execute §end are recognised
// anywhere outside a JSON value, in any letter case; §execute and §end must
// not run on into a letter, digit or '_' (§executed is text). The white space
// after a delimiter with a colon is not content, however the stream is
// chunked. Text before the first delimiter, and text after a call's JSON, is
// respond.
//
// §call: is followed by one JSON object {"name", "args", "id"}, whose end is
// found JSON-aware (a §end inside a string is content); each complete call is
// emitted at once, and several calls before one §execute form one batch.
// Invalid JSON after §call: is an error (at the delimiter, its message naming
// the offending line and column), and the text read as JSON becomes respond
// text, as the protocol's "invalid JSON is treated as content" rule asks. Calls still
// pending at §end or the end of the stream get an error "call without
// §execute" (they were emitted; no execute follows).
//
// A line "[SYSTEM: …]" — from "[SYSTEM:" at the start of a line to the first
// "]" that ends a line, possibly several lines later — is a result: its inner
// text, trimmed, is the content, with status success; its tool is the call at
// the same position in the last executed batch ("" if there is none). A
// "[SYSTEM:" with no such "]" is text.
//
// Text after §end is one error with the text as raw; the end event comes last.
//
// Choices where the spec is silent: §execute with no pending call still gives
// an execute event; a §call: followed by something other than "{" is invalid
// JSON at once; a call's JSON over Options.MaxBlock is an error without raw.
package delimiter
