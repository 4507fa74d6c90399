// Package toolparse is the root of a toolkit that reads what a language model
// writes when it calls tools — in any of several syntaxes — and turns it into
// one stream of events.
//
// The packages:
//
//   - syntax: the event model and the streaming Parser interface every syntax implements.
//   - syntax/scan: the streaming core the syntaxes share (hold-back, positions, text runs, JSON boundaries).
//   - syntax/xmljson: <think>, <execute>[JSON]</execute>, <results>, <end>.
//   - syntax/syntaxtest: the conformance kit: invariants and golden cases for any syntax.
//   - registry: syntaxes by name and alias.
//   - stream: renderers (JSON lines, a text view).
//   - cmd/toolparse: the command-line tool.
//
// This package holds no code; its tests run the golden cases in testdata/
// against every registered syntax.
package toolparse
