// Package xmljson parses the xmljson tool-call syntax: XML-like
// markers around JSON.
//
//	<think>reasoning</think>
//	<execute>
//	[{"name": "read", "args": {"file": "a.txt"}}]
//	</execute>
//	<results>
//	[{"tool": "read", "status": "success", "content": "..."}]
//	</results>
//	The answer. <end>
//
// Markers are exact and lower case; anything else that looks like a tag is
// text. Text outside blocks is respond; inside <think> nothing is a marker.
// With Options.ThinkOpen (the prompt opened <think>) the output starts
// inside <think>, which only its </think> ends; cut off before it, the
// thought is followed by a truncated error. A <think> written again before any
// text (the opener restated) is passed over. As auto-detection's fallback,
// xmljson is what reads a model format's stream that holds no marker of its
// own, so it reads the shared <think> as they do.
// <execute> and <results> open a block only when the first byte after them
// that is not white space is '[' or '{', or starts their own close tag (an
// empty block: an error); otherwise the tag is text, so prose that mentions
// "the <execute> tag" does not swallow the real call after it. An <execute>
// block holds one JSON array of {"name", "args", "id"} objects and gives one
// call per element, then one execute. Its closing tag is found by
// a JSON-aware scan, so "</execute>" inside a JSON string is content — the
// reference implementation of this protocol cuts the block there. A malformed
// block is one positioned error, whose message names the line and column of
// the problem, with the block as raw; it gives no call, and parsing resumes
// after its closing tag (after a JSON syntax error, the next literal
// </execute>). A block cut off by the end of the stream is an error, never a
// call.
//
// Choices where the spec is silent:
//   - An empty array, <execute>[]</execute>, is a valid empty batch: one
//     execute event and no call.
//   - A key given twice in a call ("name", "args", "id") counts the first
//     time, so that token mode, which streams it as it comes, agrees.
//   - A results block has no event of its own, so its results' spans share
//     its bytes between them. An "id" string in a result is kept as the id
//     of the call it answers.
//   - An open tag followed by white space and then the end of the stream is
//     a truncated error: it may have been about to open a block.
//   - An open tag followed by more white space than Options.MaxBlock is text
//     (the block could only have been over the limit).
//   - The end event for <end> is emitted when the stream closes, after the
//     error for any text that follows <end>, so that it is the last event.
//   - A block over Options.MaxBlock is an error without raw (its span still
//     covers it); the JSON scan goes on without storing it, to find its end.
package xmljson
