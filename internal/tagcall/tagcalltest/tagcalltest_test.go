package tagcalltest

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// ref is a format of the params family owned by the test: the families'
// cases must hold for it, and fail for parsers that break it.
var ref = &tagcall.Format{
	Name:     "ref",
	Think:    tagcall.Tags{Open: "<think>", Close: "</think>"},
	Result:   tagcall.Tags{Open: "<result>", Close: "</result>"},
	Scope:    tagcall.Tags{Open: "<call>", Close: "</call>"},
	Function: tagcall.Tags{Open: "<fn name=\"", Close: "</fn>"},
	NameEnd:  "\">",
	Param:    tagcall.Param{Open: "<p name=\"", KeyClose: "\">", Close: "</p>"},
}

func refSyntax(newParser func(syntax.Handler, syntax.Options) syntax.Parser) syntax.Syntax {
	return syntax.Syntax{Name: "ref", New: newParser, Detect: ref.Detect, Render: ref.Render}
}

// cases reads the params family's cases with their inputs in f's markers,
// leaving out those that do not apply to it.
func cases(t *testing.T, f *tagcall.Format) map[string]struct {
	g     *syntaxtest.Golden
	input []byte
} {
	t.Helper()
	out := map[string]struct {
		g     *syntaxtest.Golden
		input []byte
	}{}
	entries, err := fs.ReadDir(files, "testdata/params")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := fs.ReadFile(files, path.Join("testdata/params", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		g, err := syntaxtest.ParseGolden(data)
		if err != nil {
			t.Fatal(err)
		}
		if in, ok := expand(string(g.Input), f, false); ok && !skipped(g.Comment, f) {
			out[e.Name()] = struct {
				g     *syntaxtest.Golden
				input []byte
			}{g, []byte(in)}
		}
	}
	return out
}

func TestRunFamily(t *testing.T) { RunFamily(t, refSyntax(ref.New), ref) }

// TestFaultyParsers: a parser that loses a call, or changes a value, fails
// the family's cases.
func TestFaultyParsers(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault func(syntax.Handler) syntax.Handler
	}{
		{"loses the last call", func(h syntax.Handler) syntax.Handler {
			var held *syntax.Event
			return func(e syntax.Event) {
				if e.Type == syntax.Call && !e.Partial {
					if held != nil {
						h(*held)
					}
					held = &e
					return
				}
				h(e)
			}
		}},
		{"changes a value", func(h syntax.Handler) syntax.Handler {
			return func(e syntax.Event) {
				e.Args = []byte(strings.ReplaceAll(string(e.Args), "Paris", "Lyon"))
				h(e)
			}
		}},
		{"drops reasoning", func(h syntax.Handler) syntax.Handler {
			return func(e syntax.Event) {
				if e.Type != syntax.Think {
					h(e)
				}
			}
		}},
	} {
		s := refSyntax(func(h syntax.Handler, opts syntax.Options) syntax.Parser { return ref.New(c.fault(h), opts) })
		failed := 0
		for _, k := range cases(t, ref) {
			if len(checkCase(s, ref, k.g, k.input)) > 0 {
				failed++
			}
		}
		if failed == 0 {
			t.Errorf("a parser that %s passes every case", c.name)
		}
	}
}

func TestExpand(t *testing.T) {
	in, ok := expand(`{{call f}}{{param k}}v{{/param}}{{/call}}`, ref, false)
	if want := "<call>\n<fn name=\"f\">\n<p name=\"k\">v</p></fn>\n</call>"; !ok || in != want {
		t.Errorf("expand = %q, %v; want %q", in, ok, want)
	}
	q, _ := expand(`{{call f}}`, ref, true) // inside a JSON string
	if want := `<call>\n<fn name=\"f\">\n`; q != want {
		t.Errorf("quoted expand = %q; want %q", q, want)
	}
	noResult := *ref
	noResult.Result = tagcall.Tags{}
	if _, ok := expand(`{{result}}x{{/result}}`, &noResult, false); ok {
		t.Error("a marker the format lacks expanded")
	}
	if got := len(cases(t, &noResult)); got == 0 || got == len(cases(t, ref)) {
		t.Errorf("a format with no Result runs %d cases of %d", got, len(cases(t, ref)))
	}
}

// TestRefEnd: the ARGS of {{obj}} and {{tcall}} are read as JSON, a "}}"
// in them theirs.
func TestRefEnd(t *testing.T) {
	json := &tagcall.Format{Scope: tagcall.Tags{Open: "<b>", Close: "</b>"}, JSON: &jsoncall.Keys{Name: "name", Args: "args"}}
	for in, want := range map[string]string{
		`{{obj f {"a": {"b": {}}, "c": 2}}}.`: `{"name": "f", "args": {"a": {"b": {}}, "c": 2}}.`,
		`{{obj f {"s": "}}x"}}}.`:             `{"name": "f", "args": {"s": "}}x"}}.`,
		`{{obj f null}}.`:                     `{"name": "f", "args": null}.`,
		`{{objopen f}}{"a"`:                   `{"name": "f", "args": {"a"`,
	} {
		if got, ok := expand(in, json, false); !ok || got != want {
			t.Errorf("%s = %q; want %q", in, got, want)
		}
	}
}

// TestExpandForms: the markers of the token and invoke forms.
func TestExpandForms(t *testing.T) {
	tok := &tagcall.Format{Token: &tagcall.Token{
		Open: []string{"<s>"}, Close: []string{"</s>"}, Call: tagcall.Tags{Open: "<c>", Close: "</c>"}, Sep: "<a>",
		Header:      func(h string) (string, string, string) { id, name, _ := strings.Cut(h, "@"); return name, id, "" },
		WriteHeader: func(name, _ string, k int) string { return "id" + string(rune('0'+k)) + "@" + name },
	}}
	for in, want := range map[string]string{
		`{{calls}}{{tcall 1 f {"a": 1}}}{{/calls}}`: `<s><c>id1@f<a>{"a": 1}</c></s>`,
		`{{topen 0 g}}{}{{/tcall}} {{id 2 g}}`:      `<c>id0@g<a>{}</c> id2`,
	} {
		if got, ok := expand(in, tok, false); !ok || got != want {
			t.Errorf("token form: %s = %q, %v; want %q", in, got, ok, want)
		}
	}
	inv := &tagcall.Format{Invoke: &tagcall.Invoke{Sections: []tagcall.Tags{{Open: "<fc>", Close: "</fc>"}}}}
	inv.Invoke.Tags.Invoke, inv.Invoke.Tags.InvokeEnd, inv.Invoke.Tags.Param, inv.Invoke.Tags.ParamEnd = "<invoke", "</invoke>", "<parameter", "</parameter>"
	in := `{{section}}{{invoke f}}{{param k}}v{{/param}}{{/invoke}}{{/section}}`
	if got, _ := expand(in, inv, false); got != `<fc><invoke name="f"><parameter name="k">v</parameter></invoke></fc>` {
		t.Errorf("invoke form: %q", got)
	}
	if _, ok := expand("{{obj f {}}}", inv, false); ok {
		t.Error("a JSON call object expanded for a format of the invoke form")
	}
}

func TestSkipped(t *testing.T) {
	reopens := *ref
	reopens.Reopens = true
	if skipped("family-skip Reopens", ref) || !skipped("family-skip Reopens", &reopens) {
		t.Error("family-skip Reopens does not follow the field")
	}
	if skipped("family-only Scope.Close", ref) || !skipped("family-only Scope.Close", &tagcall.Format{}) {
		t.Error("family-only Scope.Close does not follow the field")
	}
	if skipped("family-skip CDATA", ref) || skipped("family-skip Invoke.Own", ref) || !skipped("family-only Invoke.Own", ref) {
		t.Error("a field of Param, or behind a nil pointer, is not read as unset")
	}
	defer func() {
		if recover() == nil {
			t.Error("family-skip of no field did not panic")
		}
	}()
	skipped("family-skip NoSuchField", ref)
}
