package delimiter_test

import (
	"strings"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/delimiter"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// A [SYSTEM: line is a result only when its closing "]" lies within the
// first MaxBlock bytes of the line: past the limit, whole input and small
// chunks must read it alike (the kit checks every chunking at MaxBlock 64).
func TestSystemLinePastTheLimit(t *testing.T) {
	batch := "§call: {\"name\":\"a\"}\n§execute\n"
	for _, c := range []struct {
		in     string
		result bool
	}{
		{batch + "[SYSTEM: " + strings.Repeat("x", 70) + "]\nok\n", false},
		{batch + "[SYSTEM: " + strings.Repeat("x", 50) + "]\nok\n", true},
		{batch + "[SYSTEM: " + strings.Repeat("x", 54) + "]\r\nok\n", true},
		{"[SYSTEM: " + strings.Repeat("x]y", 30) + "]\nok\n", false},
	} {
		opts := syntax.Options{MaxBlock: 64}
		got := false
		for _, e := range syntax.Parse(delimiter.Syntax, []byte(c.in), opts) {
			got = got || e.Type == syntax.Result
		}
		if got != c.result {
			t.Errorf("%q at MaxBlock 64: result %v, want %v", c.in, got, c.result)
		}
		if err := syntaxtest.Check(delimiter.Syntax, []byte(c.in), syntaxtest.Config{} /* its second pass is at MaxBlock 64 */); err != nil {
			t.Error(err)
		}
	}
}
