// Package wire is the shared half of every syntax's renderer: it turns a
// stream of events into the units a wire form is written in — a text run, a
// batch of calls closed by execute, calls no execute closed, a run of
// results — and leaves only the writing of each unit to the syntax.
//
// The grouping is the same for every syntax, and it is what the round-trip
// invariant relies on: error events and token-mode fragments are not
// written (an error is not part of the conversation; its raw text was
// already malformed), and adjacent text events of one type are written as one
// run, joined by a blank line — a parser reads them back as one event. So
// rendering events and parsing the result gives the events back, errors
// removed and adjacent runs of a type joined ([Normalize] does exactly that to
// an event list, for comparisons). Refused text (respond with Refusal set) is
// a run of its own for units that carry the flag ([Flags]), and is not
// joined with other text.
package wire
