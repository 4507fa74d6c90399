package toolparse_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// The adversarial suite: inputs are generated (fixtures_test.go), not
// checked in, for every built-in syntax.

// heapPeak runs f while sampling the heap, and returns the largest heap seen.
func heapPeak(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return peak.Load()
}

// TestUnterminatedBlockStaysWithinLimit streams 64 MB into a block that never
// ends, with a 1 MB limit: memory stays near the limit, the block becomes
// an error, and the stream still closes with one end.
func TestUnterminatedBlockStaysWithinLimit(t *testing.T) {
	const limit, total = 1 << 20, 64 << 20
	chunk := bytes.Repeat([]byte("abcdefgh"), 8<<10) // 64 KiB, no marker bytes
	for _, s := range builtins() {
		if !syntaxtest.WritesCalls(s) {
			// No call form (kimivl): nothing is held. Its one block, a
			// thought, streams as runs of at most the limit, and what
			// they leave is the handler's garbage, not the parser's.
			continue
		}
		name, open := s.Name, opener(t, s)
		var evs []syntax.Event
		peak := heapPeak(func() {
			p := s.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{MaxBlock: limit})
			p.Write(open)
			for n := 0; n < total; n += len(chunk) {
				p.Write(chunk)
			}
			p.Close()
		})
		if len(evs) == 0 || evs[len(evs)-1].Type != syntax.End {
			t.Fatalf("%s: no end event", name)
		}
		sawErr := false
		for _, e := range evs {
			sawErr = sawErr || e.Type == syntax.Error
		}
		if !sawErr {
			t.Errorf("%s: an unterminated 64 MB block gave no error", name)
		}
		if peak > 16<<20 {
			t.Errorf("%s: heap peaked at %d MB for a 1 MB block limit", name, peak>>20)
		}
		t.Logf("%s: heap peak %.1f MB", name, float64(peak)/(1<<20))
	}
}

// TestOneWriteStaysWithinLimit: the same unterminated block, 32 MB given
// in one Write (as a whole transcript is), in event and token mode: the
// parser's own memory stays near the limit too. A parser that reads a
// value before counting its bytes against the limit built gemma's 32 MB
// string whole before finding it over (34 MB beyond the input).
func TestOneWriteStaysWithinLimit(t *testing.T) {
	const limit, total = 1 << 20, 32 << 20
	for _, s := range builtins() {
		if !syntaxtest.WritesCalls(s) {
			continue // no call form: nothing held (see above)
		}
		in := append(bytes.Clone(opener(t, s)), bytes.Repeat([]byte("abcdefgh"), total/8)...)
		for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
			var evs []syntax.Event
			peak := heapPeak(func() {
				p := s.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{MaxBlock: limit, Mode: mode})
				p.Write(in)
				p.Close()
			})
			if len(evs) == 0 || evs[len(evs)-1].Type != syntax.End {
				t.Fatalf("%s, %s mode: no end event", s.Name, mode)
			}
			if beyond := int64(peak) - int64(len(in)); beyond > 16<<20 {
				t.Errorf("%s, %s mode: heap peaked at %d MB beyond the input's %d MB, for a 1 MB block limit", s.Name, mode, beyond>>20, len(in)>>20)
			}
		}
	}
}

// TestDeepNesting: a million '[' is an error, not a stack overflow, in every
// syntax that reads JSON.
func TestDeepNesting(t *testing.T) {
	tested := 0
	for _, s := range builtins() {
		name := s.Name
		in, ok := deepInput(s)
		if !ok {
			continue // its values are strings: nesting is not read
		}
		tested++
		evs := syntax.Parse(s, in, syntax.Options{})
		var msgs []string
		after := false
		for _, e := range evs {
			if e.Type == syntax.Error {
				msgs = append(msgs, e.Message)
			}
			after = after || strings.Contains(e.Content, "after")
		}
		if !strings.Contains(strings.Join(msgs, "|"), "depth") {
			t.Errorf("%s: errors %q, want one about depth", name, msgs)
		}
		if !after {
			t.Errorf("%s: parsing did not go on after the nesting", name)
		}
	}
	if tested == 0 {
		t.Fatal("no syntax reads JSON values")
	}
}

// TestPathologicalInputs: long runs of what could start a marker, in tiny
// chunks, parse to the same events as whole, and (for the text syntaxes)
// come back as text.
func TestPathologicalInputs(t *testing.T) {
	for _, s := range builtins() {
		name := s.Name
		for pname, unit := range pathological {
			in := bytes.Repeat([]byte(unit), (256<<10)/len(unit))
			whole := syntax.Parse(s, in, syntax.Options{})
			var chunks [][]byte
			for i := 0; i < len(in); i += 3 {
				chunks = append(chunks, in[i:min(i+3, len(in))])
			}
			chunked := syntax.ParseChunks(s, chunks, syntax.Options{})
			if d := cmp.Diff(whole, chunked); d != "" {
				t.Errorf("%s/%s: events differ whole and in 3-byte chunks:\n%s", name, pname, d)
			}
		}
	}
}

// generator yields a transcript of n bytes made of one turn repeated, without
// holding it in memory.
type generator struct {
	turn []byte
	left int64
	off  int
}

func (g *generator) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && g.left > 0 {
		k := copy(p[n:], g.turn[g.off:])
		k = int(min(int64(k), g.left))
		n += k
		g.left -= int64(k)
		g.off = (g.off + k) % len(g.turn)
	}
	return n, nil
}

// TestStreamingMemory streams a long transcript of many blocks through the
// parser in 64 KiB chunks and checks the heap stays under 64 MB. It streams
// 64 MB per syntax; TOOLPARSE_LONG=1 streams 1 GB (the figure in
// docs/performance.md).
func TestStreamingMemory(t *testing.T) {
	size := int64(64 << 20)
	if os.Getenv("TOOLPARSE_LONG") != "" {
		size = 1 << 30
	}
	for _, s := range builtins() {
		name := s.Name
		turn := transcript(s, 1, 5, strings.Repeat("payload ", 200))
		events := 0
		start := time.Now()
		peak := heapPeak(func() {
			err := syntax.ParseReader(s, &generator{turn: turn, left: size}, 64<<10, syntax.Options{}, func(syntax.Event) { events++ })
			if err != nil {
				t.Error(err)
			}
		})
		if peak > 64<<20 {
			t.Errorf("%s: heap peaked at %d MB streaming %d MB", name, peak>>20, size>>20)
		}
		t.Logf("%s: %d MB in %v (%d events), heap peak %.1f MB", name, size>>20, time.Since(start).Round(time.Millisecond), events, float64(peak)/(1<<20))
	}
}

// TestManyCallsInOneBlock: positions of 20,000 calls in one block are found
// in one pass (a quadratic position search would take minutes here).
func TestManyCallsInOneBlock(t *testing.T) {
	var b strings.Builder
	b.WriteString("<execute>[")
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name": "t%d", "args": {"pad": "%s"}}`, i, strings.Repeat("x", 100))
	}
	b.WriteString("]</execute>")
	s, _ := registry.Lookup("xmljson")
	evs := syntax.Parse(s, []byte(b.String()), syntax.Options{})
	if len(evs) != 20002 || evs[19999].Pos.Line != 20000 {
		t.Fatalf("%d events; call 20000 at %v", len(evs), evs[19999].Pos)
	}
}
