// Package scan is the streaming driver every syntax is built on, for anyone
// writing a syntax of their own too.
//
// A syntax is a state machine written as a [StepFunc]: given the input not
// yet consumed, it consumes one whole decision (text up to the next place a
// marker may start, a marker, a stretch of a block) and says how many bytes
// it took, 0 when it needs more input to decide, or [Again] when it changed
// state without taking a byte. [Core] drives it over the chunks of a stream:
//
//   - it holds back only the bytes a step could not decide on (a possible
//     marker's prefix), so no byte is scanned twice, and a 300 KB call in
//     4-byte chunks is scanned as it is whole: what tiny chunks add is a
//     cost per write (see [Core.WakeOn], [Core.WakeWith] and BenchmarkWrite);
//   - it counts lines and columns lazily, only when a step asks ([Core.Pos]);
//   - it gathers text runs: one trimmed event each in event mode, fragments
//     as they arrive in token mode, never splitting a UTF-8 character;
//   - it makes sure exactly one end event closes the stream, after which no
//     event is delivered.
//
// A syntax embeds a Core, calls [Core.Init] with its step function and a
// finish function (which reports what the end of the stream left open), and
// forwards Write and Close to it. The helpers beside Core are the ones a
// step needs: matching a marker that may be cut by the chunk boundary
// ([MatchPrefix], [MatchAny], [PartialSuffix]), passing over text ([TextUntil],
// [Core.TextBefore], [Core.Inside], and [TextUntilAny], [Core.TextBeforeAny]
// for markers that start with several bytes), passing over the reasoning
// opener a model restates where the prompt opened it ([Core.Restated]),
// keeping a block's bytes up to the limit ([Block]; [Ahead] and
// [Block.Reserve] size it once when a value's closer is already at hand)
// and positions ([Advance]).
//
// The same parser is the syntax's detector for auto-detection
// ([NewDetector]): it reports where it commits to its own marker or a call
// ([Core.Evident]) and which bytes it holds undecided ([Core.Undecided]);
// the core derives the rest of the evidence (the prose before anything
// else, where evidence may still start). A parser that is not run by a
// detector pays a comparison for each.
//
// Events are delivered synchronously, from inside Write and Close. A
// handler's call to Write or Close on the parser that is calling it does
// nothing and returns [syntax.ErrReentrant]: the core is not re-entrant.
package scan
