// Package minimaxm3 parses the tool calls of MiniMax M3, an invoke XML in
// which every tag is preceded by MiniMax's namespace token ]<]minimax[>[
// and each parameter is a tag named after it:
//
//	I will create it.
//	]<]minimax[>[<tool_call>
//	]<]minimax[>[<invoke name="create_order">]<]minimax[>[<user_id>42]<]minimax[>[</user_id>]<]minimax[>[<items>]<]minimax[>[<item>book]<]minimax[>[</item>]<]minimax[>[</items>]<]minimax[>[</invoke>
//	]<]minimax[>[</tool_call>
//
// (written ns below). MiniMax M2's invokes (syntax/minimax) name their
// parameters in an attribute and hold text; M3's name them by the tag and
// nest objects and arrays as elements. Apart from them it is M2's invoke
// form, and the package is its description: a tagcall.Format of the invoke
// form whose tags start with ns, with the two functions that read and write
// an invoke's elements (readArgs, writeInvoke).
//
// # Rules as read
//
//   - Text outside blocks is respond. <mm:think>…</mm:think> is reasoning,
//     and nothing inside it is a marker. Options.ThinkOpen (the template's
//     thinking_mode "enabled" ends the prompt with <mm:think>): the output
//     starts in reasoning, which ends at the first </mm:think> or at a
//     block's opener; the opener restated before any text is passed over.
//   - A block is ns<tool_call> … ns</tool_call>. It holds invokes,
//     ns<invoke name="NAME"> … ns</invoke> (the name in double, single or no
//     quotes, read by the module's invoke reader as MiniMax M2's), white
//     space between them. Text
//     in a block after an invoke ends the block (its closer left out); a
//     block whose first thing is text is an error, and so is one with
//     nothing in it. A block closer missing at the end of the input is
//     tolerated (the stop token came first).
//   - An invoke holds elements ns<KEY>…ns</KEY>, white space between them.
//     An element's content is raw text, kept as written (no trimming, no
//     entity decoding), up to the first ns</KEY>; or, when it starts (after
//     white space) with an element, elements: an object of them, or an
//     array when every one is ns<item>. A key given twice is an array of its
//     values. Leaves are strings: the call says so (Event.Strings), and a
//     tool schema (--tools) types them, "018956" into 18956 where it says
//     integer (leading zeros read as vLLM reads them), "null" into null
//     where it allows null but not a string.
//   - An invoke is a call only at its own ns</invoke>: cut off by the end of
//     the input it is a truncated error, never a call. Text between
//     elements, or a closing tag that is not the open element's, makes the
//     invoke a malformed error with its text; the invokes around it stand.
//     An invoke tag that closes itself (ns<invoke name="N"/>) is a call with
//     no arguments, as in M2's form.
//   - The calls of the message are one batch: one execute at the end of the
//     input, after the text that follows them. No ids; no results (M3's
//     come back in messages of their own).
//
// In token mode each call is announced (its name) at its invoke tag and
// given whole at its closer; calls stream one at a time, all with index 0,
// as in every invoke section of the engine.
//
// # Where peers disagree
//
//   - A malformed invoke: SGLang gives the whole output back as text and no
//     call; vLLM keeps the invokes before it. Here it is an error with its
//     text, and its siblings stand.
//   - An unclosed block: SGLang and vLLM give the unfinished invoke back as
//     content; here it is a truncated error (a truncated call is never a
//     call, and the text is the error's raw).
//   - "null" for a parameter whose schema allows a string and null: SGLang
//     gives null; here the string the schema accepts is kept (the schema
//     package's rule for every syntax of raw values).
//   - SGLang reads ns followed by white space before '<' as ns; here the
//     namespace token is exact (the template never writes white space
//     after it).
//
// # Choices where the spec is silent
//
//   - An element with no content (ns<k>ns</k>) is the empty string.
//   - The renderer writes what the template writes; values that are not
//     strings are written as their text and said to be, since a schema
//     types them back; nulls are left out, as the template leaves them.
//   - ns</tool_call> with no block open, and </mm:think> outside
//     reasoning the prompt opened, are text.
package minimaxm3
