// Command peers measures toolparse against the Go parsers a user would
// otherwise pick, on the same payloads, and prints the ratios as a Markdown
// table.
//
// Each payload is one model output holding a single write_file call whose
// content argument is N bytes of source code, in one of four wire formats:
//
//   - hermes: Qwen3's <tool_call>{JSON}</tool_call> — Ollama's Qwen3Parser
//     (model/parsers) and its generic template parser (tools.Parser);
//   - qwen3coder: Qwen3-Coder's XML parameters — Ollama's Qwen3CoderParser;
//   - openai: a streamed Chat Completion (SSE), arguments 4 characters a
//     delta — openai-go's SSE stream and ChatCompletionAccumulator;
//   - anthropic: a streamed Message (SSE), input_json_delta 4 characters a
//     delta — anthropic-sdk-go's SSE stream and Message.Accumulate.
//
// Every parser gets the input in chunks of 1, 4, 64 and 4096 bytes and
// whole, as a network would deliver it, and must produce exactly the call
// (checked); encoding/json.Valid over the call's arguments is the baseline,
// measured in the same run. A parser that passes the time budget on a size
// is stopped and reported as over it, not run to the end.
//
//	cd bench/peers && go run . [-sizes 30000,300000,3000000] [-chunks 1,4,64,4096,0] [-budget 1m]
//
// This is its own module so that the library's go.mod gains none of the
// peers' dependencies.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	sizes := flag.String("sizes", "30000,300000,3000000", "content sizes in bytes, comma-separated")
	chunkList := flag.String("chunks", "1,4,64,4096,0", "chunk sizes in bytes (0: whole input), comma-separated")
	formats := flag.String("formats", "hermes,qwen3coder,openai,anthropic", "payload formats, comma-separated")
	budget := flag.Duration("budget", time.Minute, "time allowed to one parser on one payload before it is stopped")
	flag.Parse()
	ns, err1 := ints(*sizes)
	cs, err2 := ints(*chunkList)
	if err := errors.Join(err1, err2); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(2)
	}
	if err := run(os.Stdout, strings.Split(*formats, ","), ns, cs, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a size", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// run measures every parser on every payload and writes the table. It
// returns an error when a parser produced a wrong result (not when one was
// too slow).
func run(w io.Writer, formats []string, sizes, chunkSizes []int, budget time.Duration) error {
	fmt.Fprintf(w, "%s %s/%s, %d CPUs, budget %v per parser and payload\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), budget)
	fmt.Fprintln(w, "| format | size | chunk | json.Valid | toolparse | peer | peer time | peer ÷ toolparse |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---|---:|---:|")
	var errs []error
	for _, f := range formats {
		for _, n := range sizes {
			p := makePayload(f, n)
			base, _ := measure(jsonValid, p, nil, budget)
			for _, c := range chunkSizes {
				ch := chunks(p.input, c)
				tp, err := measure(toolparse, p, ch, budget)
				if err != nil {
					errs = append(errs, fmt.Errorf("toolparse on %s %d/%d: %w", f, n, c, err))
					continue
				}
				for _, peer := range peers {
					if !peer.reads(f) {
						continue
					}
					d, err := measure(peer, p, ch, budget)
					ratio := ""
					switch {
					case errors.Is(err, errSlow):
						ratio = fmt.Sprintf("> %.0f×", float64(budget)/float64(tp))
					case err != nil:
						errs = append(errs, fmt.Errorf("%s on %s %d/%d: %w", peer.name, f, n, c, err))
						ratio = "wrong: " + err.Error()
					default:
						ratio = fmt.Sprintf("%.1f×", float64(d)/float64(tp))
					}
					fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", f, size(n), chunkName(c), dur(base), dur(tp), peer.name, durOrSlow(d, err), ratio)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// measure runs r on the payload until about 200 ms have passed (at least
// once, at most 50 times) and returns the fastest run.
func measure(r parser, p payload, ch [][]byte, budget time.Duration) (time.Duration, error) {
	var best time.Duration
	var total time.Duration
	for i := 0; i < 50 && total < 200*time.Millisecond; i++ {
		runtime.GC()
		start := time.Now()
		err := r.run(p, ch, start.Add(budget))
		d := time.Since(start)
		if err != nil {
			return d, err
		}
		if i == 0 || d < best {
			best = d
		}
		total += d
	}
	return best, nil
}

func size(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%d MB", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%d KB", n/1000)
	}
	return fmt.Sprintf("%d B", n)
}

func chunkName(c int) string {
	if c == 0 {
		return "whole"
	}
	return strconv.Itoa(c)
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
}

func durOrSlow(d time.Duration, err error) string {
	if errors.Is(err, errSlow) {
		return "> " + dur(d.Truncate(time.Second))
	}
	return dur(d)
}
