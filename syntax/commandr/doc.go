// Package commandr parses the tool calls of Cohere's Command R and R+
// (c4ai-command-r-v01, -08-2024, command-r-plus) and Aya, which their
// tool-use template teaches: a JSON list of calls in a fenced json block
// after "Action:".
//
//	Plan: I will search for the mountains.
//	Action: ```json
//	[
//	    {
//	        "tool_name": "internet_search",
//	        "parameters": {"query": "highest mountains"}
//	    }
//	]
//	```
//
// It is a description for the module's tag-call engine: its JSON form
// under "Action: ```json" and the closing fence. Command R7B and Command A
// write another format (syntax/cohere).
//
// # The rules as read
//
//   - "Action:", then ```json (after a space, a line end or nothing), then
//     white space, then a JSON array of {"tool_name": NAME, "parameters":
//     {…}} objects (or one object), then white space and ```. The array's
//     end is found by a JSON-aware scan, so ``` inside a string is content.
//     "parameters" may be absent or null ({}), or a JSON string holding an
//     object. "Action:" followed by anything else is text.
//   - A block with any problem (JSON that does not parse, an element with
//     no tool_name) is one error with its text, none of its calls
//     delivered; a block cut off by the end of the input — its closing
//     fence included — is a truncated error, never a call.
//   - Text around the block is respond text. One execute after the
//     message's calls, at the end of the input. No ids.
//
// # Where peers disagree
//
//   - Cohere's melody reads "Plan:" and "Reflection:" text as reasoning and
//     keeps only a grounded answer's text, without its "Relevant Documents"
//     lines and <co: …> citation tags. Here all of it is respond text, as
//     written: the lines are no tokens, and prose may begin with the same
//     words.
//
// # Choices where the spec is silent
//
//   - The renderer writes the form the template teaches, "Action: ```json"
//     and the list.
package commandr
