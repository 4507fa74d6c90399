// Package kimik3 parses the tool calls of Kimi K3, whose output is a
// markup of special tokens — <|open|>TAG attributes<|sep|> … <|close|>TAG<|sep|>
// — in channels: reasoning, the response, and the tools.
//
//	<|open|>think<|sep|>The user wants the weather.<|close|>think<|sep|>
//	<|open|>response<|sep|>Let me check.<|close|>response<|sep|>
//	<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|>
//	<|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|>
//	<|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|>
//
// (written on several lines here; the template writes no line ends between
// tags). It is not Kimi K2's format (syntax/kimi writes functions.NAME:IDX
// and JSON arguments) but the invoke family's: the package is a description
// read by the tag-call engine's invoke form — the tools channel a section,
// a call an invoke whose tool attribute names it — with functions of its
// own that read and write a call's argument tags.
//
// # Rules as read
//
//   - Text is respond. The response channel's tags, <|close|>message<|sep|>
//     and <|end_of_msg|> are dropped where they stand, the text around them
//     kept.
//   - <|open|>think<|sep|> … <|close|>think<|sep|> is reasoning; inside it
//     nothing is a marker. With Options.ThinkOpen (the template's generation
//     prompt opens the think channel when thinking is on, its default) the
//     output starts in reasoning, which ends at <|close|>think<|sep|>, or at
//     the response or tools channel's opener when the model left it open;
//     the opener restated before any text is passed over.
//   - <|open|>tools<|sep|> … <|close|>tools<|sep|> holds calls, white space
//     between them. Text after a call ends the channel (its closer left
//     out); a channel whose first thing is text is an error. A closer
//     missing at the end of the input is tolerated.
//   - A call is <|open|>call tool="NAME" index="N"<|sep|> … <|close|>call<|sep|>,
//     complete only at its closer: cut off by the end of the input it is a
//     truncated error, never a call. A tag's attributes (the call's, an
//     argument's) are key="value" — or 'value', or a bare value holding no
//     '<' or '>' — after the tag's name, white space between them or not,
//     the first of a key counting, the tag within 1,024 bytes; their values are XML-unescaped (&amp; &quot; &lt;
//     &gt; &apos;). The index is the template's count, not an id. An empty
//     tools channel is an error.
//   - Its arguments are <|open|>argument key="K" type="T"<|sep|>VALUE<|close|>argument<|sep|>
//     tags, white space between them: a string is VALUE as written (no
//     unescaping); number, boolean, null, object and array are VALUE's JSON
//     text, which must be of that kind. Or one <|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>
//     tag holds the whole arguments object. A value that is not of its
//     type, a key given twice, or text between arguments makes the call a
//     malformed error with its text; the calls around it stand.
//   - The calls of the message are one batch: one execute at the end of the
//     input. No ids; no results (K3's come back in messages of their own).
//
// In token mode each call is announced (its name, index 0, as in every
// section of the invoke family) at its opening tag and given whole at its
// closer. Errors show the call as its tag: <|open|>call tool="NAME"<|sep|>.
//
// # Where peers disagree
//
//   - A value that is not JSON of its declared type: SGLang keeps it as a
//     string; here the call is an error (the model said one type and wrote
//     another; a call with a wrong value is worse than a reported one).
//   - Stray or cut-off markup in text (<|open|> at the end, a lone
//     <|close|>think<|sep|>): SGLang strips it from the content; here only
//     the markers above are dropped, and the rest is text, as written.
//
// # Choices where the spec is silent
//
//   - A type this package does not know is an error; "integer" is read as
//     a number.
//   - The renderer writes what the template writes, with no line ends: the
//     response channel around text, the tools channel after it, each call's
//     index its place in the channel from 1; thoughts in the think channel
//     (with Options.ThinkOpen the first without its opener). It cannot
//     carry, and says so: ids, results (they come back in messages of their
//     own), text or a thought holding a marker, a value holding an
//     argument's closer, and calls with no execute.
package kimik3
