package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/toolparse/toolparse/syntax"
)

// A Batch is the calls between two execute events, in source order.
type Batch struct {
	Calls   []syntax.Event
	Execute syntax.Event // the execute event that closed it
}

// Collector groups a stream of events into batches. Feed it every event
// (it is a [syntax.Handler] through its Event method); it calls OnBatch at
// each execute event with the calls since the previous one, and passes every
// event on to Next, if set, so that it can sit in front of a renderer.
type Collector struct {
	OnBatch func(Batch)
	Next    syntax.Handler
	calls   []syntax.Event
}

// Event takes one event.
func (c *Collector) Event(e syntax.Event) {
	if c.Next != nil {
		c.Next(e)
	}
	switch e.Type {
	case syntax.Call:
		if !e.Partial {
			c.calls = append(c.calls, e)
		}
	case syntax.Execute:
		b := Batch{Calls: c.calls, Execute: e}
		c.calls = nil
		if c.OnBatch != nil {
			c.OnBatch(b)
		}
	}
}

// Pending returns the calls seen since the last execute: calls that no
// execute followed, which an agent must not run.
func (c *Collector) Pending() []syntax.Event { return c.calls }

// A Tool runs one call. args is the call's arguments, a JSON object. It
// returns the result's content (any JSON value) or an error, which becomes a
// failure result with the error's text as content.
type Tool func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)

// Runner runs batches of calls.
type Runner struct {
	// Tools maps tool names to their implementations.
	Tools map[string]Tool
	// Concurrency bounds how many calls of a batch run at once; 0 means all.
	Concurrency int
	// Timeout bounds each call; 0 means no limit. A call that does not
	// return in time is a failure result. Its goroutine is left to finish on
	// its own (a Go function cannot be stopped from outside): tools should
	// honour their context, which is cancelled at the timeout.
	Timeout time.Duration
	// OnPanic, if set, is called with the call, the value and the stack of
	// a tool that panicked. The result says only `tool "x" panicked: value`:
	// it goes to the model, and a stack trace would tell it the program's
	// file paths. OnPanic may be called from several goroutines at once.
	OnPanic func(call syntax.Event, value any, stack []byte)
}

// Run runs the calls of b concurrently and returns one result event per
// call, in call order whatever the order of completion. Every call gets a
// result: an unknown tool, a call that failed validation, a tool that
// returns an error, panics, times out or is cancelled with ctx — each is a
// failure result whose content says what happened, and does not affect the
// other calls. So is a tool that ends its goroutine with runtime.Goexit.
//
// Concurrency bounds the goroutines too, not only the tools running: a call
// gets its goroutines (two: one waits for the tool or its timeout) only when
// a slot is free, so a batch of a million calls holds at most
// 2×Concurrency, besides the goroutines of tools that ran past their
// timeout and have not yet returned.
func (r *Runner) Run(ctx context.Context, b Batch) []syntax.Event {
	results := make([]syntax.Event, len(b.Calls))
	limit := r.Concurrency
	if limit <= 0 || limit > len(b.Calls) {
		limit = len(b.Calls)
	}
	sem := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for i, call := range b.Calls {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			results[i] = failure(call, "not run: "+ctx.Err().Error())
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = r.runOne(ctx, call)
		}()
	}
	wg.Wait()
	return results
}

// runOne runs one call and always returns its result.
func (r *Runner) runOne(ctx context.Context, call syntax.Event) syntax.Event {
	if call.Invalid != "" {
		return failure(call, "invalid call: "+call.Invalid)
	}
	tool, ok := r.Tools[call.Name]
	if !ok {
		return failure(call, fmt.Sprintf("unknown tool %q", call.Name))
	}
	if err := ctx.Err(); err != nil {
		return failure(call, "not run: "+err.Error())
	}
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if r.Timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, r.Timeout)
	}
	defer cancel()

	type outcome struct {
		content json.RawMessage
		err     error
	}
	done := make(chan outcome, 1) // buffered: a tool that returns late does not block
	go func() {
		returned := false
		defer func() {
			if returned {
				return
			}
			// The tool panicked, or called runtime.Goexit (recover returns
			// nil then): either way it gave no result, and Run must not wait
			// for one.
			if p := recover(); p != nil {
				if r.OnPanic != nil {
					r.OnPanic(call, p, debug.Stack())
				}
				done <- outcome{err: fmt.Errorf("tool %q panicked: %v", call.Name, p)}
				return
			}
			done <- outcome{err: fmt.Errorf("tool %q exited without returning (runtime.Goexit)", call.Name)}
		}()
		content, err := tool(cctx, call.Args)
		returned = true
		done <- outcome{content, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return failure(call, o.err.Error())
		}
		if len(o.content) == 0 {
			o.content = json.RawMessage("null")
		}
		if !json.Valid(o.content) {
			return failure(call, fmt.Sprintf("tool %q returned content that is not JSON", call.Name))
		}
		return syntax.Event{Type: syntax.Result, Tool: call.Name, ID: call.ID, Status: syntax.Success, Value: o.content}
	case <-cctx.Done():
		if errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return failure(call, fmt.Sprintf("tool %q timed out after %v", call.Name, r.Timeout))
		}
		return failure(call, fmt.Sprintf("tool %q cancelled: %v", call.Name, ctx.Err()))
	}
}

func failure(call syntax.Event, msg string) syntax.Event {
	return syntax.Event{Type: syntax.Result, Tool: call.Name, ID: call.ID, Status: syntax.Failure, Value: syntax.AppendQuote(nil, msg)}
}
