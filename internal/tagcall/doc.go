// Package tagcall is the engine of the tag-marked tool-call formats: from a
// [Format] — a description of a format's reasoning, call, parameter and
// result tags — it makes the syntax's parser, detector and renderer. A
// format's package holds its description, its doc and its golden cases;
// the engine knows no format. The rules of each form are golden cases of
// their own (package tagcalltest), which every format of the form runs in
// its markers.
//
// A Format describes, in order:
//
//	output = { text | Think.Open think Think.Close | call | Result.Open result Result.Close } .
//	call   = Scope.Open ws Function.Open NAME NameEnd body Function.Close [ ws Scope.Close ]   (a Function form; NameEnd ">" unless set)
//	       | Scope.Open ws NAME body Scope.Close                                           (a word name)
//	body   = ws { Param.Open KEY Param.KeyClose [ ws Param.ValueOpen ] VALUE [ Param.Close ] ws } .
//
// A Format with Invoke set describes another call form instead (MiniMax-M2's
// and M3's, GCML's, Kimi K3's): sections of invoke elements, several calls
// a section, read by package invokexml's rules, and a results block the
// format reads with a
// function of its own ([Invoke]). A Format with Token set describes the
// token form (Kimi K2's, Solar Open's, DeepSeek's): calls as special tokens
// around a header and JSON arguments, in sections ([Token]), with, for
// DeepSeek, tool outputs and sections of invoke elements besides.
//
// With Format.Bare a Function tag also opens a call without Scope.Open (a
// format with no Scope has no wrapper at all). A VALUE is raw text, read
// by the closer rule of [Reader]: it ends at a Param.Close followed, after
// white space, by the next Param.Open or the body's end; any other
// Param.Close is part of it. With Param.CDATA a VALUE may be a CDATA
// section, <![CDATA[…]]>, whose content is the value.
//
// # Guarantees
//
// The parser is a [scan.Core] step function: one pass, each byte read about
// once whatever the chunking, a call's bytes held in one block bounded by
// Options.MaxBlock. A call is emitted only complete; a call cut off by the
// end of the input, or whose body holds anything but parameters, is an
// error with the call's text. Values are strings and the call says so
// (Event.Strings), so a tool schema converts them. One execute follows a
// batch's calls, at the first Result.Open or the end of the input.
//
// The detector is the parser itself (scan.NewDetector): its evidence is a
// call opener where the parser decides on it (unless SharedCalls), or a
// marker of the format's own (Own, OwnThink, OwnScope, Drop, the invoke
// form's Answer tags). The renderer parses each call back before it is
// written.
//
// # Choices where the rules are silent
//
//   - A call's span is its block, from Scope.Open (or a bare Function tag)
//     to its closer; with a Function form a valid call's span ends at
//     Function.Close and the Scope.Close after it is in the execute's span.
//   - A Scope.Open that is not followed by the format's own opener is text,
//     so that formats sharing <tool_call> (Hermes, Qwen3-Coder, GLM) read
//     each other's calls as text, never as wrong calls.
//   - In the JSON form, a value followed by the next Scope.Open (the closer
//     left out, as Hermes models do) ends its block as an error there, and
//     the next block is read afresh; in a one-call block (Format.Object) so
//     does any other text after the value; in an array block other text
//     makes the block an error up to its closer. An opener followed only by
//     white space at the end of the input is a truncated call; a word
//     opener (functools) there is text. In a one-call format an opener
//     followed by its closer (or by '[') is text.
//   - With Format.EndCloses the end of the input closes a JSON block after
//     a complete value (the closer is a stop token a server may consume);
//     Format.CompleteAt tells the conformance kit so. With Format.ThinkCalls
//     a call opener ends explicit reasoning too.
//   - With Format.Header (Inkling's messages), a word between Header (or
//     the start of the output) and a kind marker is the message's header:
//     no text, and the start of the next event's span (a call's block, a
//     thought), or of nothing when a Kinds marker, dropped, follows it.
//     Held while it grows, it is bounded by MaxName.
//   - A dropped token (Format.Drop) in reasoning the prompt opened is
//     thought text: only Think.Close and a call opener end it (Hy's calls'
//     wrapper before a call is the thought's last text) — and, in the
//     invoke form, the answer channel's opener (Invoke.Answer).
//   - In token mode a call streams its name once the opener is decided,
//     then each parameter as it opens and its value in final deltas (a
//     closer under look-ahead is held until decided).
package tagcall
