package gemma

import (
	"math/rand/v2"
	"testing"

	"github.com/toolparse/toolparse/syntax"
)

// TestEscapeAgreesWithAppendQuote: escape writes what syntax.AppendQuote
// writes inside the quotes (invalid UTF-8 as U+FFFD included), and in two
// pieces, the first not final, the same as in one.
func TestEscapeAgreesWithAppendQuote(t *testing.T) {
	alphabet := []string{"a", "Z", " ", `"`, `\`, "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "é", "€", "😀", "\xff", "\xe2\x82", "\xf0"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var p []byte
		for range rng.IntN(12) {
			p = append(p, alphabet[rng.IntN(len(alphabet))]...)
		}
		q := syntax.AppendQuote(nil, string(p))
		want := string(q[1 : len(q)-1])
		if got, n := escape(nil, p, true); string(got) != want || n != len(p) {
			t.Fatalf("escape(%q) = %q, %d; want %q, %d", p, got, n, want, len(p))
		}
		for cut := range len(p) + 1 {
			out, n := escape(nil, p[:cut], false)
			out, m := escape(out, p[n:], true)
			if string(out) != want || n+m != len(p) {
				t.Fatalf("escape(%q) cut at %d = %q; want %q", p, cut, out, want)
			}
		}
	}
}
