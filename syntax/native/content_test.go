package native_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// TestContentHeldBounded: the content syntax's events wait for a provider
// call before them that is still open, but what waits is bounded by
// MaxBlock: past it they go out at once, before the call, and nothing is
// lost. (Not a golden case: the kit's round trip renders the whole message
// as one document, over so small a MaxBlock.)
func TestContentHeldBounded(t *testing.T) {
	hermes, err := registry.Lookup("hermes")
	if err != nil {
		t.Fatal(err)
	}
	const piece = "a piece of text that waits for the call. "
	var in strings.Builder
	in.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"read","arguments":"{}"}}]}}]}` + "\n\n")
	const pieces = 40
	for range pieces {
		fmt.Fprintf(&in, `data: {"choices":[{"index":0,"delta":{"content":%q}}]}`+"\n\n", piece)
	}
	in.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")

	for _, limit := range []int{300, 0} {
		opts := syntax.Options{Mode: syntax.TokenMode, MaxBlock: limit, Content: &hermes}
		var text strings.Builder
		before, call := 0, -1
		for i, e := range syntax.Parse(native.Syntax, []byte(in.String()), opts) {
			switch {
			case e.Type == syntax.Error:
				t.Errorf("MaxBlock %d: %s", limit, e.Message)
			case e.Type == syntax.Respond && e.Partial:
				text.WriteString(e.Content)
				if call < 0 {
					before++
				}
			case e.Type == syntax.Call && !e.Partial:
				call = i
			}
		}
		// Without spaces: a text run cut at MaxBlock loses the space at the
		// cut (a run's ends are trimmed; known, left).
		bare := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if bare(text.String()) != bare(strings.Repeat(piece, pieces)) {
			t.Errorf("MaxBlock %d: text %q, want %d times %q", limit, text.String(), pieces, piece)
		}
		switch {
		case limit > 0 && before == 0:
			t.Errorf("MaxBlock %d: every fragment waited for the call: what waits is not bounded", limit)
		case limit == 0 && before != 0:
			t.Errorf("default MaxBlock: %d fragments came before the call they wait for", before)
		}
	}
}
