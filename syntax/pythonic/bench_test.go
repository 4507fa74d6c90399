package pythonic_test

import (
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/pythonic"
)

// BenchmarkTokenLimit: one call list of as many tokens as the default limit
// allows (syntax.DefaultMaxBlock/128: 65,536), a call with a list of 32,763
// small integers. It reports the heap's peak and the bytes allocated per
// parse, in MB and as multiples of the list's size: participle's parse is
// the cost the token limit bounds.
func BenchmarkTokenLimit(b *testing.B) {
	tokens := syntax.DefaultMaxBlock / 128
	in := []byte("[f(a=[1" + strings.Repeat(",1", (tokens-10)/2) + "])]")
	parsebench.PeakHeap(b, pythonic.Syntax.New, in)
}
