package gemma_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax/gemma"
)

func BenchmarkZZManyKeys(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<|tool_call>call:t{")
	for i := 0; sb.Len() < 8<<20-100; i++ {
		fmt.Fprintf(&sb, "k%d:1,", i)
	}
	sb.WriteString("z:1}<tool_call|>")
	parsebench.PeakHeap(b, gemma.New, []byte(sb.String()))
}
