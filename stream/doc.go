// Package stream renders events as they are produced: [JSONL], the events'
// JSON form (the CLI's default output), and [Text], a view for a person.
//
// Both take events one at a time from any syntax's parser, so they work the
// same in event mode and token mode, whatever syntax produced the events.
package stream
