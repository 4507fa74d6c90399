package minimax_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/minimax"
)

// emptyParams is one tool block of about size bytes holding nothing but
// empty parameters: the most a block of that size can hold.
func emptyParams(size int) []byte {
	const param = `<parameter name="a"></parameter>`
	open, end := "<minimax:tool_call>\n<invoke name=\"t\">", "</invoke>\n</minimax:tool_call>"
	n := (size - len(open) - len(end)) / len(param)
	return []byte(open + strings.Repeat(param, n) + end)
}

// BenchmarkEmptyParams8MB: one block just under the default 8 MiB limit
// made of about 260,000 empty parameters of one key. It reports the heap's
// peak and the bytes allocated per parse, in MB and as multiples of the
// block's size.
func BenchmarkEmptyParams8MB(b *testing.B) {
	parsebench.PeakHeap(b, minimax.Syntax.New, emptyParams(syntax.DefaultMaxBlock))
}

// BenchmarkValuesEndedByInvoke: n invokes whose values the invoke's closer
// ends, then a </parameter> after the section, all in one Write. Each value
// looks for its closer in the bytes at hand (to size the block once); a
// search that started at each value's start reached the distant closer
// every time: 5,000 values took 0.6 s and 20,000 took 10.8 s. Linear cost
// shows as the same time per value at every n.
func BenchmarkValuesEndedByInvoke(b *testing.B) {
	for _, n := range []int{5_000, 20_000} {
		in := "<minimax:tool_call>" + strings.Repeat(`<invoke name="f"><parameter name="a">x</invoke>`, n) +
			"</minimax:tool_call>\nsome text </parameter> " + strings.Repeat("y", 50*n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				p := minimax.Syntax.New(func(syntax.Event) {}, syntax.Options{})
				p.Write([]byte(in))
				p.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
		})
	}
}
