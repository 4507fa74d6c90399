// Package jsonscan finds, validates and reads JSON in streams, for the
// syntaxes whose blocks hold JSON.
//
// [JSON] finds where one JSON value ends in a stream and validates it on the
// way, keeping its state between chunks so that no byte is scanned twice;
// nesting is limited. It is the only state machine here that reads JSON as
// it arrives: the same scan compacts the value ([JSON.ScanCompact]) and stops
// at the boundaries between its tokens ([JSON.Next]) for what streams a
// value's parts. [Elements], [Members], [Unquote] and [Compact] then read the
// validated value without re-serialising anything; a [Skipper] does the
// walking for a reader that goes down a document level by level, so that
// a long string under several levels is passed over once.
//
// It is internal: its API is not promised. A syntax outside this module
// that needs JSON brings its own scanner (encoding/json's Decoder finds the
// end of a value, at the cost of holding and rescanning it).
package jsonscan
