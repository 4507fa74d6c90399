// Package caret parses the caret tool-call syntax: one fenced block per tool
// call, with a line-based header of parameters.
//
//	^^^write_file              ^^^read_files              ^^^write_file
//	path: src/lib.rs           project: test              project: test
//	---                        paths: [                   content ---
//	fn main() {}               src/main.rs                Hello
//	^^^                        Cargo.toml                 World
//	                           ]                          --- content
//	                           ^^^                        ^^^
//
// A block opens with a line ^^^NAME at the start of a line and closes at a
// line that is exactly ^^^ (trailing spaces, tabs and CR are tolerated, and
// the last line of the stream needs no newline). ^^^ anywhere else is text.
// Text outside blocks is respond; a complete block gives a call, then execute.
//
// # Two dialects
//
// The package reads two dialects of the header, in the same block if need
// be. The first, on the left above, is the syntax's original design: a
// YAML-like header, then optionally "---" and a body. The second, in the
// middle and on the right, is the one code-assistant (the agent the syntax
// comes from) actually shipped: it tells models to write it, so its
// transcripts are full of it. It is read so that those transcripts parse.
// Each of its forms was an error under the first dialect, so reading it
// changes the meaning of nothing that parsed before, with one exception: a
// header whose last line is "key: [" used to give the value "[" and is now
// an array left open, an error. The renderer writes only the first dialect:
// it reports as calls it cannot carry those with an empty array (the first
// dialect has no form for one) or with a value that is exactly "[" (which it
// writes as "key: [").
//
// The first dialect's header is "key: value" lines, taken verbatim (trimmed;
// no YAML comments, quotes or type guessing: "# x", "012", "yes", "a: b"
// stay as written); "key:" with indented "- item" lines is an array (items
// verbatim too); "key: |" (|-, >, and YAML's other block-scalar headers) with
// indented lines is a block scalar, decoded by go.yaml.in/yaml/v3 with YAML's
// indentation, chomping and folding rules. After a line "---", a body that
// starts with a "key: |" line is a mapping of block scalars, each a
// parameter (decoded by the same module through yaml.Node, which keeps repeated keys
// and their lines); any other body is, verbatim, the parameter "content",
// the newline before the closing fence removed.
//
// The second dialect adds two header forms. "key: [" opens an array whose
// items are the following lines, each trimmed of white space, blank ones
// skipped, up to a line "]". "key ---" opens a multi-line value: the
// following lines, verbatim, joined with "\n" (no newline after the last),
// up to a line "--- key" with the same key; "--- other", a lone "---" and
// anything else are content. An array or multi-line value still open at the
// closing fence is an error.
//
// In either dialect, a key given more than once is an array of its values in
// order, whatever their forms. Values are strings; a tool schema, if the
// caller has one, converts them to the declared types.
//
// Errors point at the offending line of the transcript (for an array or
// value left open, the line that opened it). Only one tool block is allowed
// per message: a second one is an error with its text as raw
// (Options.MultipleBlocks lifts the limit). An unterminated block, or one
// over Options.MaxBlock, is an error, never a call.
//
// # Token mode
//
// A block is announced by a partial call event once its opening fence is
// read. A multi-line "key ---" value then streams as parameter key, line by
// line as each line completes: the first line as it is, each later one
// after a "\n". Once a key has a multi-line value, every value of that key
// streams, its earlier ones first, each announced on its own, so that the
// key's deltas always give all its values. A raw body streams as the
// parameter "content", each line end held back until the next line shows it
// is not the last. Other values (plain values, arrays, block scalars, a body
// mapping) come whole with the complete call event.
//
// # Choices where the rules are silent
//
//   - "key:" with no items is the empty string; "key: [" then "]" is an empty
//     array; "key: [a, b]" on one line is the plain value "[a, b]".
//   - A key given both in the header and in a body mapping is an error;
//     blank lines may precede a body mapping; a body of "---" and nothing
//     else is content "" (an error if the header gave content).
//   - "key: [" and "key ---" are header lines: after the header's "---"
//     line, the body is read as before, so "key ---" there is content.
//   - Header lines start at the start of the line, in both dialects: an
//     indented "key ---" is an error, and a line that is none of the forms
//     is an error, never skipped. Keys are [A-Za-z_][A-Za-z0-9_.-]*, in
//     both; "key ---" needs at least one space or tab before "---", and
//     "key: [" a space after the colon, like "key: value".
//   - Inside an array, every line up to "]" is an item: "---", "key ---" and
//     "- x" are items as written.
//   - "--- key" closes a multi-line value only at the start of a line
//     (trailing spaces and tabs allowed): an indented one is content. A line
//     that is exactly ^^^ still closes the block, leaving the value open.
//   - With CRLF line ends, the CR is part of the line end: array items and
//     the lines of a multi-line value lose it, and the lines are joined with
//     a bare "\n" (a raw body, by contrast, stays verbatim, CRs and all).
//   - A line "--- key" with no "key ---" open, or "]" with no array open, is
//     an error.
//   - A fence line longer than 1 KiB is text; the second-block rule counts
//     every closed block, valid or not.
package caret
