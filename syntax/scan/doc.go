// Package scan is the streaming machinery toolparse's syntaxes share, for
// anyone writing a syntax of their own too.
//
// [Core] drives a syntax's step function over the chunks of a stream. It
// holds back only the bytes a step cannot yet decide on (a possible marker's
// prefix), counts lines and columns once, lazily, gathers text runs into
// events or token-mode fragments, and guarantees the single end event.
//
// [JSON] finds where one JSON value ends in a stream and validates it on the
// way, keeping its state between chunks so that no byte is scanned twice;
// nesting is limited. [Elements], [Members], [Unquote] and [Compact] then read
// the validated value without re-serialising anything.
package scan
