// Package glimmer parses the output of Muse Glimmer models, as their chat
// template writes an assistant's turn: messages, each a header, <|message|>,
// a body and an end marker, addressed to a recipient (the reasoning to
// self, the answer to the user, a call to its tool, whose body is an ATEM
// block of invoke XML):
//
//	 to=self<|message|>I should read the file.<|eom|>
//	<|start|>assistant to=read<|message|><atem:function_calls>
//	<atem:invoke name="read">
//	<atem:parameter name="path">go.mod</atem:parameter>
//	</atem:invoke>
//	</atem:function_calls><|eot|>
//	<|start|>tool read<|message|><tool_output name="read">
//	module example.com/m
//	</tool_output><|eot|>
//	<|start|>assistant to=user<|message|>It is example.com/m.<|eot|>
//
// (shown on separate lines; the model writes them back to back). Every
// message token is a special token, so the input must be detokenised with
// special tokens kept.
//
// # The rules as read
//
//   - A header is <|start|>ROLE[ to=RECIPIENT]<|message|>: at most 256
//     bytes, none of them '<', between <|start|> and <|message|>. The
//     prompt ends with <|start|>assistant, so the output's first message
//     starts at the rest of its header: white space, an optional
//     " to=RECIPIENT", then <|message|> (the first 256 bytes are looked
//     at). A <|start|> that no header follows is text.
//   - A message of the assistant to self is think; to the user, or with no
//     recipient, respond. Each message is a text run of its own; one with
//     nothing in it gives no event (its bytes go to the next event's span).
//   - A message of the assistant to any other recipient is a call. Its body
//     is an ATEM block: <atem:function_calls>, then <atem:invoke name="N">
//     elements whose <atem:parameter name="K">V</atem:parameter> children
//     are the arguments, then </atem:function_calls>. Values are raw text
//     and strings (Event.Strings), one line end at each end dropped, as in
//     every invoke-XML format; a value ends at a </atem:parameter> followed,
//     after white space, by the next parameter or </atem:invoke>. Inside
//     the block the message tokens are a value's text: <|eot|> there ends
//     nothing.
//   - The invoke must name the tool the message is addressed to. The
//     template offers the model the recipients NS.* for a tool whose name
//     starts with NS (read.* for read, muse.* for muse.bash), so a name
//     NS.F, F's own namespace being NS, names F (read.read is read), as
//     Ollama resolves it; the recipient may also be the namespace alone
//     (muse for muse.bash). The call takes the invoke's name so resolved.
//     An invoke naming another tool is an error, never a call; so is a call
//     message whose body is not an ATEM block (JSON, prose), with the
//     message's text.
//   - A message ends at <|eom|> or <|eot|>, or where the next message's
//     header begins (a missing end marker is tolerated). <|eot|> is the
//     turn's stop token, which servers usually do not pass on: an answer
//     cut off after its text, or a call after its ATEM block, is complete.
//     A call cut off before its block ends is a truncated error, never a
//     call; reasoning cut off is a thought and a truncated error.
//   - A message from a tool (<|start|>tool NAME<|message|>) is a result of
//     NAME, status success (Glimmer has no failure flag): its text, without
//     the <tool_output name="…"> element the template wraps it in, as a
//     string. A message of the user, the system or any other role is not
//     the model's output: a not_allowed error holding it.
//   - The calls of a turn are one batch: one execute follows them, when a
//     tool's message begins (the results) or at the end of the input.
//   - Text outside any message is respond; an end marker there ends
//     nothing and is dropped.
//   - Options.ThinkOpen: the prompt ended with
//     <|start|>assistant to=self<|message|>, so the output starts inside
//     the reasoning.
//
// # Choices where the rules are silent
//
//   - A message to the user (or with no recipient) whose body is an ATEM
//     block: Ollama's parser, given the request's tools, turns it into a
//     call when the block invokes a declared tool (a recipient the model
//     fumbled). A parser that does not know the tools cannot tell that from
//     an answer that shows a block, so here it is the answer, as written.
//   - Text after a call's ATEM block, before its end marker, is respond.
//   - Auto-detection: <|start|> and <|message|> are Harmony's tokens too, so
//     a message they open is evidence of Glimmer only once one of its own
//     tokens follows: the message's <|eom|> or <|eot|>, an
//     <atem:function_calls> opening a call's body, or a header to self or
//     the user, or from a tool. A header holding another token (Harmony's
//     <|channel|>) is no header. An end marker outside any message is no
//     evidence (prose may name one), and with ThinkOpen the one that ends
//     the reasoning the prompt opened is evidence only once another of
//     Glimmer's own tokens follows (the reasoning may name one). A message
//     to a tool whose body is no ATEM block, cut off before its end marker,
//     holds none of them: auto reads it as prose.
//
// # Writing
//
// The renderer writes think as a message to self, respond as a message to
// the user ended by <|eot|>, each call as a message to its tool with one
// ATEM block (ended by <|eom|>, the last before an execute by <|eot|>),
// and each result as a message from its tool in a <tool_output> element.
// A failure is written in words (Error: …): the format has no status. What
// it cannot carry is reported: ids, values that are not strings (written as
// their JSON text, read back as strings), text holding a marker that would
// end its message, and text or calls after an execute and before the
// results (the execute is implied at the tools' messages, so they read
// back before it).
package glimmer
