package toolparse_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

var update = flag.Bool("update", false, "rewrite the golden files' expected events from the parsers' output")

// TestGolden runs every golden case in testdata/<syntax>/ against the syntax
// of that name: the events must match the file exactly (as the CLI writes
// them), and every invariant the conformance kit checks must hold at every
// chunking.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		s, err := registry.Lookup(filepath.Base(dir))
		if err != nil {
			continue // not a syntax's folder (examples, schemas)
		}
		goldens, err := syntaxtest.ReadGoldens(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range goldens {
			ran++
			t.Run(filepath.Base(dir)+"/"+filepath.Base(g.Path), func(t *testing.T) {
				runGolden(t, s, g)
			})
		}
	}
	if ran == 0 {
		t.Fatal("no golden cases found")
	}
}

func parseGolden(t *testing.T, s syntax.Syntax, g *syntaxtest.Golden, mode syntax.Mode) []syntax.Event {
	var got []syntax.Event
	h := func(e syntax.Event) { got = append(got, e) }
	if g.Tools != "" {
		set, err := schema.LoadFile(g.Tools)
		if err != nil {
			t.Fatal(err)
		}
		h = set.Check(h)
	}
	opts := g.Options
	opts.Mode = mode
	p := s.New(h, opts)
	p.Write(g.Input)
	p.Close()
	return got
}

func runGolden(t *testing.T, s syntax.Syntax, g *syntaxtest.Golden) {
	got := parseGolden(t, s, g, syntax.EventMode)
	text := syntaxtest.EncodeJSONL(got)
	var tokens []byte
	if g.Tokens != nil {
		tokens = syntaxtest.EncodeJSONL(parseGolden(t, s, g, syntax.TokenMode))
	}
	if *update {
		if !bytes.Equal(text, g.Events) || !bytes.Equal(tokens, g.Tokens) {
			if err := os.WriteFile(g.Path, g.Format(text, tokens), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if g.Tokens != nil && !bytes.Equal(tokens, g.Tokens) {
		t.Errorf("token-mode JSON lines differ from the file:\n got:\n%s\nwant:\n%s", tokens, g.Tokens)
	}
	want, err := g.WantEvents()
	if err != nil {
		t.Fatal(err)
	}
	// The JSON form has no span, and a position only on errors.
	onlyErrorPos := cmp.FilterPath(func(p cmp.Path) bool {
		if p.Last().String() != ".Pos" {
			return false
		}
		e, _ := p.Index(-2).Values()
		return e.IsValid() && e.Interface().(syntax.Event).Type != syntax.Error
	}, cmp.Ignore())
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(syntax.Event{}, "Span", "Strings"), onlyErrorPos, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("events differ (-want +got):\n%s", d)
	}
	if !bytes.Equal(text, g.Events) {
		t.Errorf("JSON lines differ from the file:\n got:\n%s\nwant:\n%s", text, g.Events)
	}
	if err := syntaxtest.Check(s, g.Input, syntaxtest.Config{Options: g.Options}); err != nil {
		t.Error(err)
	}
	if err := syntaxtest.RoundTrip(s, g.Input, g.Options); err != nil {
		t.Error(err)
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
