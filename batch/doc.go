// Package batch sits between a parser and an agent: it groups calls into
// batches, and runs a batch with the agent's tools.
//
// An agent's loop needs an accumulator that receives call events, batches
// them until the execute event, runs the batch in parallel, and returns
// results in call order. [Collector] does the grouping, as a handler placed in front of
// (or instead of) the agent's own; [Runner] runs a batch: every call
// concurrently (or at most Concurrency at once), each under an optional
// timeout, and returns one result event per call, in call order whatever the
// order of completion. A tool that fails, panics, calls runtime.Goexit, hangs
// past its timeout or is cancelled, an unknown tool, and a call that failed
// schema validation each give a failure result with a message; no call is
// ever without a result, and no failure touches another call. A panic's
// result is `tool "x" panicked: value`, with no stack trace (the result goes
// to the model); the stack goes to Runner.OnPanic if it is set. Concurrency
// bounds the goroutines a batch holds, not only the tools running.
//
// The results are ordinary result events: render them with a syntax's
// renderer to send them back to the model in its own form.
package batch
