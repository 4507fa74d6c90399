package gemma_test

import (
	"strconv"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/gemma"
)

// manyKeys is one call of about size bytes whose arguments are nothing but
// distinct short keys with a small value each (k1:1,k2:1,…).
func manyKeys(size int) []byte {
	b := []byte("<|tool_call>call:t{")
	for i := 0; len(b) < size-32; i++ {
		b = append(strconv.AppendInt(append(b, 'k'), int64(i), 10), ":1,"...)
	}
	return append(b, "z:1}<tool_call|>"...)
}

// BenchmarkManyKeys8MB: one call just under the default 8 MiB limit made
// of about 930,000 keys. It reports the heap's peak and the bytes allocated
// per parse, in MB and as multiples of the block's size.
func BenchmarkManyKeys8MB(b *testing.B) {
	parsebench.PeakHeap(b, gemma.Syntax.New, manyKeys(syntax.DefaultMaxBlock))
}
