package batch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/batch"
	"github.com/toolparse/toolparse/syntax"
)

func call(name, args string) syntax.Event {
	return syntax.Event{Type: syntax.Call, Name: name, Args: json.RawMessage(args)}
}

type result struct{ Tool, Status, Content string }

func summary(evs []syntax.Event) []result {
	var rs []result
	for _, e := range evs {
		rs = append(rs, result{e.Tool, string(e.Status), string(e.Value)})
	}
	return rs
}

func sleepy(d time.Duration, out string) batch.Tool {
	return func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		select {
		case <-time.After(d):
			return json.RawMessage(out), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func TestOrderIsCallOrderNotCompletionOrder(t *testing.T) {
	// The slow calls wait until all three calls are running at once (which
	// proves they run concurrently, with no timing assumption), then the
	// first slow one waits a little longer: completion order differs from
	// call order.
	var running atomic.Int32
	together := make(chan struct{})
	arrive := func() {
		if running.Add(1) == 3 {
			close(together)
		}
		select {
		case <-together:
		case <-time.After(10 * time.Second):
		}
	}
	r := batch.Runner{Tools: map[string]batch.Tool{
		"slow": func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
			arrive()
			if string(args) == `{"first":true}` {
				time.Sleep(20 * time.Millisecond)
			}
			return json.RawMessage(`"slow done"`), nil
		},
		"fast": func(context.Context, json.RawMessage) (json.RawMessage, error) {
			arrive()
			return json.RawMessage(`"fast done"`), nil
		},
	}}
	got := r.Run(context.Background(), batch.Batch{Calls: []syntax.Event{call("slow", `{"first":true}`), call("fast", "{}"), call("slow", "{}")}})
	want := []result{{"slow", "success", `"slow done"`}, {"fast", "success", `"fast done"`}, {"slow", "success", `"slow done"`}}
	if d := cmp.Diff(want, summary(got)); d != "" {
		t.Fatal(d)
	}
	select {
	case <-together:
	default:
		t.Error("the three calls never ran at the same time")
	}
}

func TestFailuresAreIsolated(t *testing.T) {
	r := batch.Runner{Timeout: 50 * time.Millisecond, Tools: map[string]batch.Tool{
		"ok":     sleepy(0, `{"n":1}`),
		"fails":  func(context.Context, json.RawMessage) (json.RawMessage, error) { return nil, errors.New("disk full") },
		"panics": func(context.Context, json.RawMessage) (json.RawMessage, error) { panic("index out of range") },
		"hangs":  func(context.Context, json.RawMessage) (json.RawMessage, error) { select {} }, // ignores its context
		"bad":    func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage("{oops"), nil },
	}}
	invalid := call("ok", "{}")
	invalid.Invalid = `missing required argument "path"`
	calls := []syntax.Event{call("ok", "{}"), call("fails", "{}"), call("panics", "{}"), call("hangs", "{}"), call("nope", "{}"), invalid, call("bad", "{}"), call("ok", "{}")}
	for i := range calls {
		calls[i].ID = fmt.Sprintf("c%d", i)
	}
	got := r.Run(context.Background(), batch.Batch{Calls: calls})
	if len(got) != len(calls) {
		t.Fatalf("%d results for %d calls", len(got), len(calls))
	}
	wants := []struct {
		status   syntax.Status
		contains string
	}{
		{"success", `{"n":1}`}, {"failure", "disk full"}, {"failure", "panicked"}, {"failure", "timed out after 50ms"},
		{"failure", `unknown tool \"nope\"`}, {"failure", "invalid call: missing required argument"}, {"failure", "not JSON"}, {"success", `{"n":1}`},
	}
	for i, w := range wants {
		if got[i].Type != syntax.Result || got[i].Tool != calls[i].Name || got[i].ID != calls[i].ID || got[i].Status != w.status || !strings.Contains(string(got[i].Value), w.contains) {
			t.Errorf("result %d = %s, want %s containing %q", i, got[i], w.status, w.contains)
		}
		if !json.Valid(got[i].Value) {
			t.Errorf("result %d content is not JSON: %s", i, got[i].Value)
		}
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var started atomic.Int32
	r := batch.Runner{Concurrency: 1, Tools: map[string]batch.Tool{
		"wait": func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			started.Add(1)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}}
	go func() { time.Sleep(30 * time.Millisecond); cancel() }()
	got := r.Run(ctx, batch.Batch{Calls: []syntax.Event{call("wait", "{}"), call("wait", "{}"), call("wait", "{}")}})
	for i, e := range got {
		if e.Status != syntax.Failure || !strings.Contains(string(e.Value), "cancel") {
			t.Errorf("result %d = %s, want a cancelled failure", i, e)
		}
	}
	if n := started.Load(); n != 1 {
		t.Errorf("%d calls started with concurrency 1 and a cancel during the first", n)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	var running, peak atomic.Int32
	tool := func(context.Context, json.RawMessage) (json.RawMessage, error) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
		running.Add(-1)
		return json.RawMessage("true"), nil
	}
	r := batch.Runner{Concurrency: 2, Tools: map[string]batch.Tool{"t": tool}}
	calls := make([]syntax.Event, 8)
	for i := range calls {
		calls[i] = call("t", "{}")
	}
	got := r.Run(context.Background(), batch.Batch{Calls: calls})
	if len(got) != 8 || peak.Load() > 2 || peak.Load() < 1 {
		t.Errorf("%d results, peak concurrency %d; want 8 and at most 2", len(got), peak.Load())
	}
}

func TestCollectorGroupsByExecute(t *testing.T) {
	var batches [][]string
	c := batch.Collector{OnBatch: func(b batch.Batch) {
		var names []string
		for _, e := range b.Calls {
			names = append(names, e.Name)
		}
		batches = append(batches, names)
	}}
	for _, e := range []syntax.Event{
		{Type: syntax.Respond, Content: "x"}, call("a", "{}"), call("b", "{}"), {Type: syntax.Execute},
		{Type: syntax.Execute}, call("c", "{}"), {Type: syntax.End},
	} {
		c.Event(e)
	}
	if d := cmp.Diff([][]string{{"a", "b"}, nil}, batches); d != "" {
		t.Error(d)
	}
	if p := c.Pending(); len(p) != 1 || p[0].Name != "c" {
		t.Errorf("pending %v, want the call no execute followed", p)
	}
}

// TestPanicResultHasNoStack: a panicking tool's result says only that it
// panicked and with what; the stack goes to OnPanic.
func TestPanicResultHasNoStack(t *testing.T) {
	var mu sync.Mutex
	var hooked []string
	r := batch.Runner{
		Tools: map[string]batch.Tool{"x": func(context.Context, json.RawMessage) (json.RawMessage, error) { panic("index out of range") }},
		OnPanic: func(c syntax.Event, v any, stack []byte) {
			mu.Lock()
			defer mu.Unlock()
			hooked = append(hooked, fmt.Sprintf("%s %v %t", c.Name, v, strings.Contains(string(stack), "batch_test.go")))
		},
	}
	got := r.Run(context.Background(), batch.Batch{Calls: []syntax.Event{call("x", "{}")}})
	if len(got) != 1 || got[0].Status != syntax.Failure || string(got[0].Value) != `"tool \"x\" panicked: index out of range"` {
		t.Errorf("result %s, want exactly the panic's value", got)
	}
	if len(hooked) != 1 || hooked[0] != "x index out of range true" {
		t.Errorf("OnPanic got %q, want the call, the value and a stack", hooked)
	}
	// Without a hook the result is the same.
	r.OnPanic = nil
	if got := r.Run(context.Background(), batch.Batch{Calls: []syntax.Event{call("x", "{}")}}); string(got[0].Value) != `"tool \"x\" panicked: index out of range"` {
		t.Errorf("without OnPanic: %s", got)
	}
}

// TestGoexitDoesNotHang: a tool that ends its goroutine with runtime.Goexit
// (as t.FailNow does) gets a failure result, with no timeout set.
func TestGoexitDoesNotHang(t *testing.T) {
	r := batch.Runner{Tools: map[string]batch.Tool{
		"quit": func(context.Context, json.RawMessage) (json.RawMessage, error) { runtime.Goexit(); return nil, nil },
		"ok":   sleepy(0, `1`),
	}}
	done := make(chan []syntax.Event)
	go func() {
		done <- r.Run(context.Background(), batch.Batch{Calls: []syntax.Event{call("quit", "{}"), call("ok", "{}")}})
	}()
	select {
	case got := <-done:
		if got[0].Status != syntax.Failure || !strings.Contains(string(got[0].Value), "runtime.Goexit") || got[1].Status != syntax.Success {
			t.Errorf("results %s", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run hangs on a tool that calls runtime.Goexit")
	}
}

// TestConcurrencyBoundsGoroutines: a large batch under a small Concurrency
// runs at most Concurrency tools at once and does not start a goroutine per
// call.
func TestConcurrencyBoundsGoroutines(t *testing.T) {
	const limit = 4
	base := runtime.NumGoroutine()
	var peak, running, peakRunning atomic.Int64
	raise := func(p *atomic.Int64, n int64) {
		for {
			old := p.Load()
			if n <= old || p.CompareAndSwap(old, n) {
				return
			}
		}
	}
	tool := func(context.Context, json.RawMessage) (json.RawMessage, error) {
		raise(&peakRunning, running.Add(1))
		defer running.Add(-1)
		raise(&peak, int64(runtime.NumGoroutine()))
		return json.RawMessage("true"), nil
	}
	r := batch.Runner{Concurrency: limit, Tools: map[string]batch.Tool{"t": tool}}
	calls := make([]syntax.Event, 20000)
	for i := range calls {
		calls[i] = call("t", "{}")
	}
	got := r.Run(context.Background(), batch.Batch{Calls: calls})
	if len(got) != len(calls) {
		t.Fatalf("%d results", len(got))
	}
	if n := peakRunning.Load(); n > limit {
		t.Errorf("%d tools ran at once under Concurrency %d", n, limit)
	}
	// NumGoroutine also counts goroutines that have given their slot back
	// but not yet exited (a loaded machine can hold a few dozen of those for
	// a moment), so the bound here is loose: what it rules out is a
	// goroutine per call, which would be thousands.
	if extra := peak.Load() - int64(base); extra > 256 {
		t.Errorf("%d goroutines beyond the test's %d while tools ran, under Concurrency %d", extra, base, limit)
	}
}
