// Package syntaxtest is toolparse's conformance kit: it checks any syntax
// implementation — a built-in one or your own — against the invariants every
// syntax promises (chunking does not matter, nothing is lost, a truncated
// call is never a call, round trip, no panics), in the spirit of
// testing/fstest.
//
// [Check] runs one input through the parser many ways: whole, in 1-byte
// chunks, split in two at every byte, in random chunks, split inside UTF-8
// characters, in token mode, and cut off at every byte — and all of it again
// at a small MaxBlock, so that the limits are crossed at every chunking too.
// It reports chunking
// differences, bytes no event accounts for, calls made from truncated input,
// a missing or repeated end event, inconsistent positions and panics.
// [Garbage] throws random and mutated input at a parser.
//
// Golden cases are txtar files (see [Golden]): a transcript and its expected
// events as JSON lines, exactly as the toolparse CLI writes them.
package syntaxtest
