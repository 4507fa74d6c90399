// Package xmltag parses the XML-like tag syntax, the default of the agent
// the caret design was written beside:
//
//	<thinking>Need the file.</thinking>
//	<tool:read_file>
//	<param:path>src/main.rs</param:path>
//	</tool:read_file>
//
// A tool is <tool:NAME> … </tool:NAME> holding <param:KEY>VALUE</param:KEY>
// elements; names and keys are letters, digits, '_', '-' and '.'. A repeated
// key is an array. A value is the text between its tags with one leading and
// one trailing newline (LF or CRLF) removed, everything else verbatim: no
// entity decoding. <thinking>…</thinking> is think, and inside it nothing is a
// tag. Text outside tools is respond; any other tag, and a bare '<', is text.
// A complete tool gives a call, then execute.
//
// The streaming splitter finds a tool's end at the first </tool:NAME> with
// the tool's own name, holding back only a possible tag's prefix. As the
// tool's bytes arrive, one hand-written pass (block.go) reads them once: it
// finds the tags, checks their order, adds each param to the arguments when it
// closes and, in token mode, streams its value. A nested tool or param, a
// mismatched or missing close tag, or text other than white space between
// params makes the whole tool one error, at the offending tag (or the text's
// first byte), with the tool's text as raw; no call, and parsing resumes
// after the tool. In token mode nothing more of a tool is streamed after its
// first problem.
//
// An unterminated tool, or one longer than Options.MaxBlock, is an error,
// never a call. An unterminated <thinking> gives its text as think, then an
// error.
package xmltag
