package toolparse_test

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// manyCalls writes one batch of n calls in a syntax: the shapes in which
// memory and time once grew with the number of calls, not with the block.
func manyCalls(s string, n int) string {
	var b strings.Builder
	list := func(open, close, item string) {
		b.WriteString(open)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, item, i)
		}
		b.WriteString(close)
	}
	switch s {
	case "delimiter":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "§call: {\"name\":\"w\",\"args\":{\"i\":%d}}\n", i)
		}
		b.WriteString("§execute\n")
	case "mistral":
		list("[TOOL_CALLS][", "]", `{"name":"w","arguments":{"i":%d}}`)
	case "xmljson":
		list("<execute>[", "]</execute>", `{"name":"w","args":{"i":%d}}`)
	case "xmljson-results": // a batch's results, "w" each
		list(`<results>[`, `]</results>`, `{"tool":"w","status":"success","content":"%d"}`)
	case "hermes":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "<tool_call>\n{\"name\": \"w\", \"arguments\": {\"i\": %d}}\n</tool_call>\n", i)
		}
	case "pythonic":
		list("[", "]", `get_weather(city="Paris %d", days=3)`)
	case "native":
		list(`{"id":"msg_1","type":"message","role":"assistant","content":[`, `],"stop_reason":"tool_use"}`,
			`{"type":"tool_use","id":"toolu_%[1]d","name":"w","input":{"i":%[1]d}}`)
	}
	return b.String()
}

// TestManyCallsBounded: a batch of many calls costs memory per call that
// does not grow with the number of calls, and what a parser holds is within
// 4× the block's size; time per call does not grow either (pythonic rescanned
// its list from the start for every call; delimiter, mistral and xmljson held
// every call's event; native held every block's members; the renderers
// behind --to held every call and searched the batch from its start for
// every result).
func TestManyCallsBounded(t *testing.T) {
	for _, c := range []struct {
		name    string
		n       int
		inBlock bool // the parser holds the batch as a block: within 4× its size
		perCall float64
	}{
		// Parsers that hand each call on as it is read keep its name and
		// id; pythonic's grammar (participle) builds the list's tree; a
		// renderer of a whole message keeps its calls until it is written.
		{"delimiter", 5000, false, 64}, {"mistral", 5000, true, 64}, {"xmljson", 5000, true, 128}, {"xmljson-results", 5000, true, 128}, {"hermes", 5000, false, 64},
		{"pythonic", 500, false, 1024}, {"native", 5000, true, 512}, {"native>anthropic", 5000, false, 1024}, {"hermes>openai", 5000, false, 1024},
	} {
		src, to, _ := strings.Cut(c.name, ">")
		var perCall [2]float64
		var elapsed [2]time.Duration
		for k, n := range []int{c.n, 8 * c.n} {
			in := []byte(manyCalls(src, n))
			live, took, calls := liveWhileParsing(t, src, to, in)
			if calls != n {
				t.Fatalf("%s: %d calls of %d", c.name, calls, n)
			}
			perCall[k], elapsed[k] = float64(live)/float64(n), took
			if perCall[k] > c.perCall {
				t.Errorf("%s, %d calls: %.0f bytes held a call, over %.0f", c.name, n, perCall[k], c.perCall)
			}
			if c.inBlock && live > 4*uint64(len(in)) {
				t.Errorf("%s, %d calls: %d bytes held for a block of %d (over 4×)", c.name, n, live, len(in))
			}
		}
		t.Logf("%s: %.0f and %.0f bytes held a call; %v and %v a call", c.name, perCall[0], perCall[1],
			elapsed[0]/time.Duration(c.n), elapsed[1]/time.Duration(8*c.n))
		if perCall[1] > 1.5*perCall[0]+64 {
			t.Errorf("%s: memory a call grows with the calls: %.0f bytes at %d calls, %.0f at %d", c.name, perCall[0], c.n, perCall[1], 8*c.n)
		}
		// 8× the calls: 3× the time a call at most (quadratic would be 8×),
		// with room for a pause of the machine's (a busy CI runner's) that
		// a run of a few milliseconds cannot absorb.
		if elapsed[1] > 24*elapsed[0]+200*time.Millisecond {
			t.Errorf("%s: time a call grows with the calls: %v for %d calls, %v for %d", c.name, elapsed[0], c.n, elapsed[1], 8*c.n)
		}
	}
}

// liveWhileParsing parses in (rendering it in syntax to, when to is not
// "") in 4 KB chunks and returns the most heap that stayed live (sampled
// after a collection, at each quarter of the calls), the time it took, and
// the calls.
func liveWhileParsing(t *testing.T, src, to string, in []byte) (live uint64, took time.Duration, calls int) {
	s, err := registry.Lookup(strings.TrimSuffix(src, "-results"))
	if err != nil {
		t.Fatal(err)
	}
	var r syntax.Renderer
	if to != "" {
		ts, err := registry.Lookup(to)
		if err != nil {
			t.Fatal(err)
		}
		r = ts.Render(io.Discard, syntax.Options{})
	}
	// Each sample is taken with a collection, whose time is not the parser's.
	var sampling time.Duration
	runtime.GC()
	runtime.GC() // what the last case left is gone
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	opts := syntax.Options{MaxBlock: 64 << 20}
	approx := max(strings.Count(string(in), `"w"`)+strings.Count(string(in), "get_weather"), 4)
	start := time.Now()
	p := s.New(func(e syntax.Event) {
		if r != nil {
			r.Event(e)
		}
		if e.Type != syntax.Call && e.Type != syntax.Result {
			return
		}
		calls++
		if calls%(approx/4) == 0 {
			t0 := time.Now()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > base.HeapAlloc {
				live = max(live, ms.HeapAlloc-base.HeapAlloc)
			}
			sampling += time.Since(t0)
		}
	}, opts)
	for i := 0; i < len(in); i += 4096 {
		p.Write(in[i:min(i+4096, len(in))])
	}
	p.Close()
	if r != nil {
		r.Close()
	}
	return live, time.Since(start) - sampling, calls
}

// TestBatchOverLimit: what a parser holds of a batch's calls counts against
// MaxBlock; a batch of more calls than it allows gives the calls that fit,
// then an over_limit error for each call that does not (never a call).
func TestBatchOverLimit(t *testing.T) {
	for _, src := range []string{"delimiter", "mistral"} {
		s, _ := registry.Lookup(src)
		evs := syntax.Parse(s, []byte(manyCalls(src, 40)), syntax.Options{MaxBlock: 400})
		calls, over := 0, 0
		for _, e := range evs {
			switch {
			case e.Type == syntax.Call:
				if over > 0 {
					t.Errorf("%s: a call after an over_limit error: %s", src, e)
				}
				calls++
			case e.Type == syntax.Error && e.Code == syntax.CodeOverLimit:
				over++
			case e.Type == syntax.Error:
				t.Errorf("%s: %s", src, e)
			}
		}
		if calls == 0 || over == 0 || calls+over != 40 {
			t.Errorf("%s: %d calls and %d over_limit errors for 40 calls at MaxBlock 400", src, calls, over)
		}
	}
}
