// Package kimivl reads Kimi-VL Thinking's output: reasoning between
// ◁think▷ and ◁/think▷ (U+25C1 and U+25B7 around the words, plain text of
// several tokens, not special tokens), then the answer:
//
//	◁think▷Let me consider this carefully◁/think▷The answer is 42.
//
// Kimi-VL has no tool-call format: no peer defines one, and this syntax
// reads no calls. It is here so that the model's reasoning is a think
// event and not answer text, in the stream and behind `toolparse serve`.
// It is a description for the module's tag-call engine with reasoning
// tags alone; the tags are no other format's, so each is evidence of it.
//
// # The rules as read
//
//   - Text is respond. ◁think▷ opens reasoning wherever it stands (the
//     model writes it itself: its template does not open it), and only
//     ◁/think▷ ends it; a ◁think▷ inside is thought text.
//   - Reasoning the end of the input cuts off is reasoning, and a
//     truncated error says so. An empty thought gives no event.
//   - A ◁/think▷ outside reasoning is text, and so is anything else:
//     another format's tags, call markers, leaked chat tokens.
//   - The renderer writes thoughts and text; calls and results have no
//     form here and are reported as not carried, and so is text holding
//     ◁think▷.
//   - Auto-detection takes ◁think▷ as evidence of this syntax, the earliest
//     in the input wins: another format's call after a Kimi-VL thought is
//     then text. Name the syntax when a model writes both.
//
// # Where peers disagree
//
//   - Text before ◁think▷: SGLang puts it, with the marker, into the
//     reasoning; smg's batch parser into the reasoning; smg streaming and
//     Dynamo into the content. Here it is respond, a run of its own.
//   - Dynamo trims the reasoning and the content; SGLang and smg keep them
//     as written. Here, as in every syntax, event-mode runs are trimmed at
//     their ends; white space inside a run is kept.
//   - A leaked <|im_assistant|> or <|im_end|> after the answer (seen in
//     real mlx-vlm output) is kept as text by every peer, and here: the
//     tokens are Kimi K2's chat template's too, no evidence of this form.
package kimivl
