// Package registry holds the syntaxes toolparse knows, by name and alias.
//
// It follows database/sql's drivers and chroma's lexers: each syntax package
// exports a [syntax.Syntax] descriptor, the registry maps its name and aliases
// (in any letter case) to it, and callers look a syntax up by the name a user
// typed. [Default] holds the built-in syntaxes; [Register] adds your own to
// it, and [New] builds an independent registry from an explicit list (useful
// in tests, or to offer users only some syntaxes).
//
// # Auto-detection
//
// [Registry.Auto] (the name "auto") reads a stream in whichever of the
// registry's syntaxes it is written in. Each syntax with a detector
// ([syntax.Detector]) reports, as the input comes, where its confirmed
// evidence starts (a marker only it has, with the bytes after it that tell
// it apart: xmljson's <execute> then '[', a complete caret fence line), and
// the earliest place where evidence may still start (a marker cut off at the
// end of the input so far, or one whose next bytes will tell). The rule:
//
//   - evidence counts only within the first Options.BlockLimit bytes of the
//     input (the window), marker and confirming bytes alike;
//   - auto chooses syntax S when S's evidence at p is confirmed and no
//     syntax has evidence confirmed or pending before p; at the same p, the
//     syntax whose name sorts first wins (so one pending there and sorting
//     first is waited for);
//   - at the end of the input, or once the window is full, pending evidence
//     counts for nothing: the earliest confirmed evidence wins, and with none
//     the input is parsed with the fallback: the first syntax registered
//     (xmljson in the default registry, Builtin's first).
//
// A marker that several syntaxes share (<think>) is evidence for none of
// them; the syntax is decided by what comes after it.
//
// Every built-in syntax but native is detected by its own parser
// (scan.NewDetector): its evidence is where the parser commits to its own
// marker or a call, so detection and parsing cannot disagree, and text the
// parser reads as text (another format's call) is prose to it. Native's
// detector looks at the input's first bytes alone (a provider's stream
// starts with a JSON document or an SSE line).
//
// Guarantees. The choice is a function of the input alone: whole or in
// chunks of any size, the same syntax parses it, and the events are exactly
// those of that syntax parsing the whole input (its own events, as if it
// had been named). While undecided, input is held back (at most the window
// plus one chunk); in event mode nothing is emitted until the decision. In
// token mode, text that every syntax that may still be chosen reads as
// prose (before any of their markers) streams at once as respond fragments;
// the chosen parser's own fragments for that text are dropped, so joining
// the fragments still gives each run, and dropping them gives exactly the
// event-mode stream. Every event that is not a fragment comes from the chosen
// parser. Detection looks at each byte about once, however the input is cut.
//
// Where it can be wrong. Prose that quotes another syntax's marker before
// the real ones (a delimiter transcript whose preamble shows an <execute>
// block) picks the quoted syntax. Evidence past the window is not looked
// for: 150 bytes of prose then a caret block, at a MaxBlock of 100, is
// xmljson, and its caret block is text. A syntax may be chosen by evidence
// that its parser then reports as an error (an empty xmljson <execute>
// block). Input with only shared markers (a <think> block and prose) is
// parsed as xmljson, which reads it as every syntax that has them does.
// Native is evidenced only at the start of the input (a JSON document or an
// SSE line): a provider stream after a line of prose is not detected, and
// input whose first non-blank byte is "{" is taken for provider JSON, unless
// its first member is "name" or "type": "function" (a Llama 3 call written
// as text); so a model's JSON answer that is not a call ({"answer": 42}) is
// read as a provider document that fits no shape, an error. <tool_call> is
// shared by hermes, qwen3coder and glm, and what follows it decides ('{',
// <function=, a name): prose that quotes "<tool_call>WORD</tool_call>" is a
// GLM call without arguments. An
// unclosed xmltag <thinking>, and a delimiter "[SYSTEM:" line that no "]"
// ends, hold the decision (and, in token mode, the text) back to the end
// of the input or of the window: each may still turn out to be that
// syntax's. And a stream cut off
// early may be read in another syntax than the whole would be: a prefix of
// "<thinking>§call: {…}</thinking>" that ends before </thinking> is
// delimiter, and its §call: a call; the whole is xmltag, a thought.
package registry
