// Package prompt writes the system-prompt text that teaches a model to call
// a given set of tools in a given syntax: the format, the rules that matter
// for that syntax, the tools with their parameters, and worked examples built
// from the tools themselves.
//
// Every example is written by the syntax's own renderer and is returned with
// the calls it shows, so a test can parse each example back and check that it
// gives exactly those calls (this package's tests do, for every syntax).
package prompt
