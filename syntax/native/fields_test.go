package native

import (
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/jsonscan"
)

// A short string read through the parser's kept words is what Unquote
// gives for it, invalid UTF-8 included, and the same the second time.
func TestWordIsUnquote(t *testing.T) {
	p := &parser{}
	for _, raw := range []string{`""`, `"function"`, `"a\u00e9"`, `"é"`, "\"a\xffb\"", "\"\xed\xa0\x80\"", `"a\nb"`,
		`"` + strings.Repeat("x", maxWord) + `"`, `"` + strings.Repeat("x", maxWord+1) + `"`} {
		want, _ := jsonscan.Unquote([]byte(raw))
		for range 2 {
			got, ok := p.probe([]byte(`{"k":` + raw + `}`)).str("k")
			if !ok || got != want {
				t.Errorf("str(%s) = %q, %v; Unquote gives %q", raw, got, ok, want)
			}
		}
	}
}
