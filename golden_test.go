package toolparse_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/caret"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

var update = flag.Bool("update", false, "rewrite the golden files' expected events from the parsers' output")

// TestGolden runs every golden case in testdata/<syntax>/ against the syntax
// of that name: the events must match the file exactly (as the CLI writes
// them), and every invariant of SPEC §2 must hold at every chunking.
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

// completeAt lists, per syntax, the cut points where a truncated input is
// complete by the syntax's own rules (see syntaxtest.Config.CompleteAt).
var completeAt = map[string]func([]byte) bool{
	"caret": caret.EndsWithFence,
}

func runGolden(t *testing.T, s syntax.Syntax, g *syntaxtest.Golden) {
	got := syntax.Parse(s, g.Input, g.Options)
	text := syntaxtest.EncodeJSONL(got)
	if *update {
		if !bytes.Equal(text, g.Events) {
			if err := os.WriteFile(g.Path, g.Format(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want, err := g.WantEvents()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(syntax.Event{}, "Span"), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("events differ (-want +got):\n%s", d)
	}
	if !bytes.Equal(text, g.Events) {
		t.Errorf("JSON lines differ from the file:\n got:\n%s\nwant:\n%s", text, g.Events)
	}
	if err := syntaxtest.Check(s, g.Input, syntaxtest.Config{Options: g.Options, CompleteAt: completeAt[s.Name]}); err != nil {
		t.Error(err)
	}
}
