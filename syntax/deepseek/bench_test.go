package deepseek_test

import (
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/deepseek"
)

// emptyDSMLParams is one V3.2 DSML block of about size bytes holding
// nothing but empty parameters: the most a block of that size can hold.
func emptyDSMLParams(size int) []byte {
	const param = `<｜DSML｜parameter name="a" string="true"></｜DSML｜parameter>`
	open, end := "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"t\">", "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
	n := (size - len(open) - len(end)) / len(param)
	return []byte(open + strings.Repeat(param, n) + end)
}

// BenchmarkEmptyParams8MB: one DSML block just under the default 8 MiB
// limit made of about 130,000 empty parameters of one key. It reports the
// heap's peak and the bytes allocated per parse, in MB and as multiples of
// the block's size.
func BenchmarkEmptyParams8MB(b *testing.B) {
	parsebench.PeakHeap(b, deepseek.Syntax.New, emptyDSMLParams(syntax.DefaultMaxBlock))
}
