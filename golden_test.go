package toolparse_test

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

var update = flag.Bool("update", false, "rewrite the golden files' expected events from the parsers' output")

// goldenDir is where a built-in syntax's golden cases live: beside its
// package, run by that package's tests (syntaxtest.RunGoldens).
func goldenDir(s syntax.Syntax) string { return filepath.Join("syntax", s.Name, "testdata") }

// TestEverySyntaxIsComplete holds every built-in syntax to what a syntax
// must have: golden cases (tokens pinned), a renderer, prompt rules and a
// detector. A new syntax that lacks one fails here, saying what is missing.
func TestEverySyntaxIsComplete(t *testing.T) {
	for _, s := range registry.Builtin() {
		gs, err := syntaxtest.ReadGoldens(goldenDir(s))
		switch {
		case err != nil:
			t.Errorf("%s: %v", s.Name, err)
		case len(gs) < 20:
			t.Errorf("%s: %d golden cases in %s; a syntax needs at least 20 (markers split, truncation, errors, limits, round trips)", s.Name, len(gs), goldenDir(s))
		}
		for _, g := range gs {
			if g.Tokens == nil {
				t.Errorf("%s: %s has no -- tokens -- section", s.Name, g.Path)
			}
		}
		if s.Render == nil {
			t.Errorf("%s: no renderer (Syntax.Render)", s.Name)
		}
		if s.Prompt == "" && syntaxtest.WritesCalls(s) {
			// Only a form with no calls (Kimi-VL's reasoning alone) has
			// nothing to teach: its renderer cannot write a call.
			t.Errorf("%s: no prompt rules (Syntax.Prompt)", s.Name)
		}
		if s.Detect == nil {
			t.Errorf("%s: no detector (Syntax.Detect): auto cannot find it", s.Name)
		}
	}
}

// TestRenderGolden writes every shipped example, and each input in
// testdata/render/in (named <case>.<syntax it is written in>), in every
// syntax and compares the text with testdata/render/<input>.<syntax>
// (rewritten by -update): the renderers' golden cases, one per direction.
// What a syntax cannot carry is listed after the text.
func TestRenderGolden(t *testing.T) {
	examples := map[string]string{
		"examples/xmljson-turn.txt": "xmljson", "examples/caret-turn.txt": "caret", "examples/delimiter-turn.txt": "delimiter",
		"examples/xmltag-turn.txt": "xmltag", "examples/anthropic-stream.sse": "native", "examples/openai-stream.sse": "native",
		"examples/qwen3-turn.txt": "hermes",
	}
	cases, _ := filepath.Glob(filepath.Join("testdata", "render", "in", "*.*"))
	for _, c := range cases {
		examples[filepath.Join("render", "in", filepath.Base(c))] = strings.TrimPrefix(filepath.Ext(c), ".")
	}
	for file, from := range examples {
		in, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Base(file)
		src, _ := registry.Lookup(from)
		evs := syntax.Parse(src, in, syntax.Options{})
		for _, to := range registry.List() {
			var out bytes.Buffer
			if err := syntax.Render(to.Render(&out, syntax.Options{}), evs); err != nil {
				out.WriteString("-- not carried --\n" + err.Error() + "\n")
			}
			path := filepath.Join("testdata", "render", file+"."+to.Name)
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				os.WriteFile(path, out.Bytes(), 0o644)
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test . -update)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("%s rendered as %s:\n got:\n%s\nwant:\n%s", file, to.Name, out.Bytes(), want)
			}
		}
	}
}

// TestRenderArgsAsValues: a renderer reads a call's Args as a JSON value.
// A call with no Args is a call with no arguments ({}, as Event.ArgsJSON
// says), written as one whose Args are {}; Args with white space between
// their tokens, or a character written as an escape, are written as the
// same value compacted or decoded would be, and reported the same (a
// renderer's check that its call reads back compares values, not bytes).
func TestRenderArgsAsValues(t *testing.T) {
	render := func(s syntax.Syntax, args []byte) string {
		var out bytes.Buffer
		evs := []syntax.Event{{Type: syntax.Call, Name: "get_weather", ID: "call_1", Args: args}, {Type: syntax.Execute}, {Type: syntax.End}}
		if err := syntax.Render(s.Render(&out, syntax.Options{}), evs); err != nil {
			out.WriteString("-- not carried --\n" + err.Error() + "\n")
		}
		return out.String()
	}
	report := func(out string) string { _, r, _ := strings.Cut(out, "-- not carried --\n"); return r }
	for _, s := range registry.List() {
		if !syntaxtest.WritesCalls(s) {
			continue
		}
		if got, want := render(s, nil), render(s, []byte("{}")); got != want {
			t.Errorf("%s: a call with no Args:\n%s\nwith Args {}:\n%s", s.Name, got, want)
		}
		for _, c := range [][2]string{
			{`{ "city" : "Paris", "days" : [1, 2] }`, `{"city":"Paris","days":[1,2]}`},
			{`{"city":"Z\u00fcrich"}`, `{"city":"Zürich"}`},
		} {
			if got, want := report(render(s, []byte(c[0]))), report(render(s, []byte(c[1]))); got != want {
				t.Errorf("%s: Args %s are reported %q, but %s %q", s.Name, c[0], got, c[1], want)
			}
		}
	}
}

// TestRenderNeverAWrongCall: what a renderer writes without a report reads
// back as the calls it was given, for arguments that are hard to write
// (markers, quotes, line ends, escapes, numbers beyond float64, nested
// values, strings that look like JSON), after text, a thought or another
// call, with ThinkOpen or not, in every form a syntax writes (its variants
// too). A renderer that cannot write a call says so;
// it never writes one that reads back as another.
func TestRenderNeverAWrongCall(t *testing.T) {
	argsList := []string{
		`{}`, `{"a":""}`, `{"a":" x "}`, `{"a":"\n"}`, `{"a":"x\r\ny"}`, `{"a":"   "}`, `{"a":"\t"}`, `{"a":"\u0000"}`, `{"a":"\u001b"}`,
		`{"a":"<"}`, `{"a":"</parameter>"}`, `{"a":"</function>"}`, `{"a":"<think>"}`, `{"a":"</think>"}`, `{"a":"<tool_call>"}`,
		`{"a":"[TOOL_CALLS]"}`, `{"a":"<|"}`, `{"a":"]"}`, `{"a":"}"}`, `{"a":"'"}`, `{"a":"a'b\"c"}`, `{"a":"\\"}`, `{"a":"😀"}`,
		`{"a":1}`, `{"a":-1.5e3}`, `{"a":0.1}`, `{"a":1e400}`, `{"a":12345678901234567890}`, `{"a":true}`, `{"a":null}`,
		`{"a":[]}`, `{"a":["x"]}`, `{"a":["x","y"]}`, `{"a":{"b":{"c":[1,{"d":null}]}}}`,
		`{"a":"{\"b\":1}"}`, `{"a":"[1]"}`, `{"a":"1"}`, `{"a":"true"}`, `{"a":"null"}`,
		`{"ключ":"значение"}`, `{"a b":"x"}`, `{"a\"b":"x"}`, `{"":"x"}`, `{"a":"x","a2":"y","a3":"z"}`,
	}
	before := [][]syntax.Event{
		nil,
		{{Type: syntax.Respond, Content: "Let me check."}},
		{{Type: syntax.Think, Content: "I should call it."}},
		{{Type: syntax.Call, Name: "first", ID: "call_0", Args: []byte(`{"q":"v"}`)}},
	}
	calls := func(evs []syntax.Event) (cs []syntax.Event) {
		for _, e := range evs {
			if e.Type == syntax.Call {
				cs = append(cs, e)
			}
		}
		return cs
	}
	type form struct {
		name   string
		render func(io.Writer, syntax.Options) syntax.Renderer
	}
	for _, s := range registry.List() {
		if !syntaxtest.WritesCalls(s) {
			continue
		}
		forms := []form{{s.Name, s.Render}}
		for _, v := range s.Variants {
			if v.Render != nil {
				forms = append(forms, form{s.Name + " " + v.Name, v.Render})
			}
		}
		for _, f := range forms {
			for _, thinkOpen := range []bool{false, true} {
				opts := syntax.Options{ThinkOpen: thinkOpen}
				for _, pre := range before {
					for _, args := range argsList {
						evs := append(slices.Clone(pre), syntax.Event{Type: syntax.Call, Name: "get_weather", ID: "call_1", Args: []byte(args)},
							syntax.Event{Type: syntax.Execute}, syntax.Event{Type: syntax.End})
						var out bytes.Buffer
						if err := syntax.Render(f.render(&out, opts), evs); err != nil {
							continue // reported
						}
						want, got := calls(evs), calls(syntax.Parse(s, out.Bytes(), opts))
						same := len(got) == len(want)
						for i := 0; same && i < len(got); i++ {
							same = got[i].Name == want[i].Name && jsonscan.Equal(got[i].Args, want[i].Args)
						}
						if !same {
							t.Errorf("%s (ThinkOpen %v): %v is written, with no report, as %q, which reads back as the calls %v", f.name, thinkOpen, evs, out.String(), got)
						}
					}
				}
			}
		}
	}
}
