package tagcall_test

import (
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// TestTokenForm: the token form with markers whose lead byte is not ASCII
// (◁, 0xE2) and no reasoning tags reads a call; two Formats sharing one
// Token each read their own reasoning tags.
func TestTokenForm(t *testing.T) {
	tok := &tagcall.Token{
		Open: []string{"◁s▷"}, Close: []string{"◁e▷"},
		Call: tagcall.Tags{Open: "◁c▷", Close: "◁ce▷"}, Sep: "◁a▷",
		Header:      func(h string) (string, string, string) { return h, "", "" },
		WriteHeader: func(name, _ string, _ int) string { return name },
	}
	parse := func(f *tagcall.Format, in string) string {
		var b strings.Builder
		for _, e := range syntax.Parse(syntax.Syntax{Name: f.Name, New: f.New}, []byte(in), syntax.Options{}) {
			b.WriteString(e.String() + "\n")
		}
		return b.String()
	}
	bare := &tagcall.Format{Name: "bare", Token: tok}
	if got, want := parse(bare, "hi◁s▷◁c▷f◁a▷{}◁ce▷◁e▷"), `{"type":"respond","content":"hi"}
{"type":"call","name":"f","args":{}}
{"type":"execute"}
{"type":"end"}
`; got != want {
		t.Errorf("non-ASCII leads, no reasoning tags:\n%s\nwant\n%s", got, want)
	}
	a := &tagcall.Format{Name: "a", Think: tagcall.Tags{Open: "[T]", Close: "[/T]"}, Token: tok}
	b := &tagcall.Format{Name: "b", Think: tagcall.Tags{Open: "<t>", Close: "</t>"}, Token: tok}
	parse(a, "[T]x[/T]y")
	if got, want := parse(b, "<t>x</t>y"), `{"type":"think","content":"x"}
{"type":"respond","content":"y"}
{"type":"end"}
`; got != want {
		t.Errorf("a second Format sharing the Token:\n%s\nwant\n%s", got, want)
	}
}
