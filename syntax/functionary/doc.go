// Package functionary parses the tool calls of MeetKai's Functionary v3.2:
// the reply is a sequence of segments, each a recipient on a line of its
// own and what it is sent. The chat template's generation prompt ends in
// >>>, so the first segment starts the output; each later one follows >>>:
//
//	all
//	Let me check.>>>get_weather
//	{"city": "Paris"}>>>python
//	print(2 + 2)
//
// (Functionary v3.1 writes Llama 3.1's <function=NAME>{…}</function>,
// which the llama3 syntax reads.)
//
// The same parser reads Functionary v2 (v2.1–v2.5), whose segments have
// other markers: the generation prompt ends <|from|>assistant and
// <|recipient|>, a head is RECIPIENT, a line end and <|content|>, each later
// segment follows a line end, <|from|>assistant, a line end and
// <|recipient|>, and <|stop|> ends the reply:
//
//	all
//	<|content|>Let me check.
//	<|from|>assistant
//	<|recipient|>get_weather
//	<|content|>{"city": "Paris"}<|stop|>
//
// The variant functionary-v2 writes that form.
//
// # The rules as read
//
//   - A segment head is a recipient — letters, digits, '_', '-' and '.',
//     at most 64 bytes — and a line end: all, python, or a function's name
//     followed at once by '{'. At the output's start a head opens the first
//     segment; anything else is text (a reply that starts with a word on a
//     line of its own is text). In text, >>> and a head open the next
//     segment; >>> followed by anything else is text (a Python prompt,
//     ">>> x = 1").
//   - all: text for the user, up to the next segment (respond).
//   - NAME: a call whose arguments are the JSON object after the line end
//     (arguments must be an object); white space after it is no event's,
//     anything else after it is text. Invalid JSON is an error covering
//     the rest of the segment; arguments cut off are a truncated error,
//     never a call.
//   - python: '{' after the line end is JSON arguments, as for any call;
//     anything else is code, up to the next segment or the end, a call
//     python {"code": CODE} (trailing white space not part of it). Code has
//     no terminator but those, so a cut inside it is a complete, shorter
//     call (Syntax.CompleteAt). python with nothing after it is an error.
//   - Functionary v2: at the output's start, or after <|from|>assistant,
//     a line end and <|recipient|>, a head is RECIPIENT (as above), a line
//     end and <|content|> (a function's '{' right after it); the segments
//     read as v3.2's do. <|stop|> is passed over in text, and ends code and
//     a broken call's segment. At the output's start a recipient and a line
//     end with no <|content|> after them are a v3.2 head.
//   - The first head (or separator and head) decides the reply's form: a
//     reply in v3.2's form reads no v2 marker (<|stop|>, <|from|>… are
//     text and code), one in v2's form no >>>. A reply that starts with
//     text reads either form's separator until one opens a segment.
//   - The calls of a reply are one batch: one execute at its end.
//     Functionary has no reasoning and no ids; results go back in tool
//     messages.
//
// # Where peers disagree
//
//   - Code for python: llama.cpp makes it {"code": …}, as here; MeetKai's
//     own parser passes the code on as a raw string argument.
//   - With a forced tool_choice the prompt holds the call's head and the
//     output starts inside the arguments; MeetKai's parser reads that from
//     the request. Here such output is text (what the output says is all
//     this syntax reads).
//   - llama.cpp drops the line end before >>> from the text; here it is
//     trimmed with the text run's other edge white space.
//
// # Choices where the spec is silent
//
//   - One parser reads both generations, the reply's form decided as it
//     goes (above), so that text or code in one form holding the other's
//     markers is read as written.
//
//   - Auto-detection: a v2 head is functionary's evidence, and so is
//     <|stop|>, v2's own token. <|content|> is also Solar Open's token;
//     here it is read only in a head, which comes before it.
//
//   - The renderer writes the first segment without >>>, as the model
//     does after the prompt's, text as all segments, python's {"code": S}
//     as code when it reads back so, any other call as its name and JSON.
package functionary
