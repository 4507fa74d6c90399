// Package syntax defines what every toolparse syntax shares: the event
// model, the streaming [Parser] interface, the [Syntax] descriptor and the
// [Renderer] interface.
//
// A parser is fed the model's output in chunks of any size, split anywhere,
// and calls a [Handler] with each [Event] in source order: think, respond,
// call, execute, result, error, and exactly one end. Malformed input gives
// Error events with a position, never a panic or a Go error; a call cut off by
// the end of the stream is never reported as a call.
//
// [Parse], [ParseChunks], [ParseReader] and [All] drive a parser over a whole
// input, a list of chunks, an io.Reader, or as an iterator. A [Syntax]
// describes one syntax (its name, aliases and constructor); the registry
// package looks them up by name.
package syntax
