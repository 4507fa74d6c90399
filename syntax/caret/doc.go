// Package caret parses the caret tool-call syntax (SPEC §3.2): one fenced
// block per tool call, with a YAML-like header.
//
//	^^^write_file
//	path: src/lib.rs
//	---
//	fn main() {}
//	^^^
//
// A block opens with a line ^^^NAME at the start of a line and closes at a
// line that is exactly ^^^ (trailing spaces, tabs and CR are tolerated, and
// the last line of the stream needs no newline). ^^^ anywhere else is text.
// Text outside blocks is respond; a complete block gives a call, then execute.
//
// The header is "key: value" lines, taken verbatim (trimmed; no YAML comments,
// quotes or type guessing: "# x", "012", "yes", "a: b" stay as written);
// "key:" with indented "- item" lines is an array (items verbatim too);
// "key: |" (|-, >, and YAML's other block-scalar headers) with indented lines
// is a block scalar, decoded by gopkg.in/yaml.v3 with YAML's indentation,
// chomping and folding rules. A key given more than once is an array of its
// values in order. After a line "---", a body that starts with a "key: |"
// line is a mapping of block scalars, each a parameter (decoded by yaml.v3
// through yaml.Node, which keeps repeated keys and their lines); any other
// body is, verbatim, the parameter "content", the newline before the closing
// fence removed.
//
// Errors point at the offending line of the transcript. Only one tool block
// is allowed per message: a second one is an error with its text as raw
// (Options.MultipleBlocks lifts the limit). An unterminated block, or one
// over Options.MaxBlock, is an error, never a call.
//
// Choices where the spec is silent: "key:" with no items is the empty
// string; a key given both in the header and in a body mapping is an error;
// blank lines may precede a body mapping; a body of "---" and nothing else is
// content "" (an error if the header gave content); a fence line longer than
// 1 KiB is text; the second-block rule counts every closed block, valid or not.
package caret
