package minimax_test

import (
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
	parsebench.PeakHeap(b, minimax.New, emptyParams(syntax.DefaultMaxBlock))
}
