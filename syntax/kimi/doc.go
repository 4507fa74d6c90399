// Package kimi parses the tool calls of Kimi K2 (Instruct, Thinking, K2.5):
// calls as special tokens around an id and JSON arguments, inside a
// tool-call section, after optional <think> reasoning.
//
//	<think>The user wants the weather.</think>Let me check.
//	<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Beijing"}<|tool_call_end|><|tool_calls_section_end|>
//
// The package is a description of the form (see kimi.go) for the tag-call
// engine's token form, which makes its parser, detector and renderer; the
// rules below are that form's, with Kimi's markers.
//
// The markers are special tokens: the input must be detokenised with
// special tokens kept (skip_special_tokens=False, which vLLM's Kimi parser
// asks for itself). A parser of text cannot see markers that were deleted.
//
// # Rules
//
//   - <|tool_calls_section_begin|> (or the singular
//     <|tool_call_section_begin|>) opens a section, and
//     <|tool_calls_section_end|> (or <|tool_call_section_end|>) closes it.
//     A section closer missing at the end of the input is tolerated
//     (docs/formats.md, rule 5). A message may hold several sections.
//   - A call is <|tool_call_begin|> ID <|tool_call_argument_begin|> JSON
//     <|tool_call_end|>. White space around the id and around the JSON is
//     not part of them. A <|tool_call_begin|> opens a call outside a
//     section too (a real Kimi K2 output in llama.cpp's tests has no
//     section opener): a special token is never prose. Text in a section
//     outside calls is respond text; outside a call, the argument and call
//     end markers are text.
//   - The id is kept verbatim as the call's id (multi-turn continuity
//     depends on it: vLLM PR #32768). It is functions.NAME:IDX or NAME:IDX,
//     IDX being digits; the call's name is what stands before the last ':',
//     without the functions. prefix.
//   - The arguments are one JSON value, its end found by a JSON-aware scan
//     (a <|tool_call_end|> inside a string is content): an object; null,
//     or nothing at all before <|tool_call_end|>, for {}; a JSON string
//     holding an object (or nothing), decoded once (docs/formats.md, rule 4).
//   - A malformed call is an error with the call as raw, and no call; its
//     siblings stand (docs/formats.md, rule 3): an id that is a bare counter
//     ("0") or does not end in :IDX, a missing argument marker (the id runs
//     into another call marker), arguments of another kind, something other
//     than <|tool_call_end|> after the JSON (what follows is read afresh).
//     Invalid JSON is an invalid_json error, and the call ends at the next
//     <|tool_call_end|>, or before the next <|tool_call_begin|> or section
//     closer. A call cut off by the end of the input is a truncated error,
//     never a call.
//   - The calls of the message are one batch: one execute at the end of the
//     input, after the text that follows them. A message with no valid call
//     has no execute.
//   - <think> opens reasoning (think). Reasoning ends at </think>, at a
//     section opener or at a <|tool_call_begin|>, whichever comes first
//     (docs/formats.md: Kimi K2.5 opens the section without closing its
//     thought; vLLM's and SGLang's Kimi reasoning parsers end it at the
//     section opener, llama.cpp's at either). The argument and call end
//     markers in reasoning are thought text. Reasoning with no text that a
//     <|tool_call_begin|> ends gives no event; its <think> is in the span of
//     the call. Reasoning cut off by the end of the input
//     is a think event and a truncated error (reasoning the prompt opened
//     with no text in it gives nothing).
//   - With Options.ThinkOpen the output starts in reasoning, with the same
//     ends; a <think> before anything but white space is the opener
//     restated and is passed over; a later one is thought text. Only the
//     first </think> ends reasoning; a later one is text.
//
// # Where peers disagree
//
//   - Bare counter ids ("0"): vLLM finds the function in the request's tool
//     schemas (the only tool, or the one whose parameters fit the argument
//     keys) and keeps "0" as the id. This package has no schemas when it
//     parses, so such a call is malformed (reported, never dropped).
//   - Ids without :IDX (functions.invalid.0): vLLM skips the call without a
//     word; here it is a malformed call (docs/formats.md, rule 3).
//   - Invalid JSON: vLLM returns the call with the broken text as its
//     arguments; here it is an error and no call.
//   - Unterminated calls: vLLM returns the call with its partial
//     arguments; here it is a truncated error. llama.cpp also returns a
//     call whose complete JSON is followed by the next call or the end of
//     the input with no <|tool_call_end|>; here the call is complete only
//     at its own <|tool_call_end|> (docs/formats.md, rule 5), so that is an
//     error.
//   - Text after the section: vLLM drops it; here it is respond text.
//   - Stray markers: SGLang strips every Kimi special token from content;
//     here only a section closer outside a section is passed over, and the
//     other markers stay in the text (nothing is dropped that could be
//     prose).
//
// # Choices where the spec is silent
//
//   - The name is the id before its last ':', without one leading
//     functions. prefix: functions.a.b:0 names a.b, so dotted and
//     colon-holding tool names survive.
//   - A section closer outside a section, in text or in reasoning, is
//     passed over: a closer left over after a section must not become
//     text (or thought), and nothing follows from it. It ends the text that
//     auto-detection streams as prose.
//   - Reasoning the prompt opened, cut off by the end of the input with no
//     text in it (white space, or only the restated "<think>"), gives no
//     error: there is nothing to report but that nothing was written.
//   - Token mode: a call is announced (name, id, index) at its argument
//     marker, and arguments that start with '{' stream as compact JSON
//     deltas; others come whole with the call. The index is the call's
//     place among the calls of the message, not its IDX.
//   - Spans: a call spans <|tool_call_begin|> to <|tool_call_end|>. A
//     section closer belongs to the error of a failed call right before
//     it (the error is held until the next byte shows what follows), to
//     the text run right before it, or else to the execute, whose span
//     runs from the first section closer after a valid call to the end of
//     the input (an empty span at the end when there is none). The call's
//     own span never changes with later input, so a call cut off after its
//     <|tool_call_end|> is the same call. Errors come before the execute.
//   - A section closer outside a section ends the text run before it.
//   - A call over Options.MaxBlock is an over_limit error without raw; the
//     scan goes on to find its end.
//
// # The renderer
//
// It writes a thought as <think>…</think>, respond text as plain lines, and
// each run of calls as one section, each call with its id
// (functions.NAME:K for a call with none that names it, K counting the
// calls written from 0) and its arguments byte for byte; an execute writes
// nothing, since a message's calls run when it ends. It reports what it
// cannot carry (see the engine's token form): results, ids that do not name
// their call, anything after an execute, markers inside text.
//
// # Not built
//
//   - Results: Kimi's are tool-role messages, not model text, so there is
//     nothing to read; the renderer reports results it is given.
//   - Turn markers (<|im_assistant|>, <|im_middle|>, <|im_end|>) are text.
package kimi
