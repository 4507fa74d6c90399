package syntaxtest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
)

// RunGoldens runs every golden case in dir (its *.txtar files) against s, one
// subtest each: the events, in event mode and in token mode, must be those
// the file gives, exactly as the CLI writes them; every invariant [Check]
// verifies must hold at every chunking; and the case must survive a round
// trip through s's renderer ([RoundTrip]). A case's "option tools=FILE"
// checks its calls against those tool definitions, as the CLI's --tools does.
//
// When the test binary has a boolean flag named "update" and it is set
// (define it in the test package: flag.Bool("update", false, …)), RunGoldens
// rewrites each case's expected events and token-mode events from the
// parser's output instead, and logs what changed. It refuses, failing the
// test, to write a case whose new expectation is empty (only the end event,
// for input that is not all white space) or breaks an invariant (bytes that
// no event accounts for, a chunking that changes the events): such output is
// a bug to fix, not an expectation.
//
// It fails when dir holds no case.
func RunGoldens(t *testing.T, s syntax.Syntax, dir string) {
	t.Helper()
	goldens, err := ReadGoldens(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(goldens) == 0 {
		t.Fatalf("%s: no golden cases in %s", s.Name, dir)
	}
	update := false
	if f := flag.Lookup("update"); f != nil {
		update = f.Value.String() == "true"
	}
	for _, g := range goldens {
		t.Run(filepath.Base(g.Path), func(t *testing.T) {
			t.Parallel() // each case is independent: the suite uses every core
			if update {
				updateGolden(t, s, g)
				return
			}
			runGolden(t, s, g)
		})
	}
}

// parseGolden parses g's input with s in the given mode, its calls checked
// against g's tools.
func parseGolden(t *testing.T, s syntax.Syntax, g *Golden, mode syntax.Mode) []syntax.Event {
	t.Helper()
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

func runGolden(t *testing.T, s syntax.Syntax, g *Golden) {
	got := parseGolden(t, s, g, syntax.EventMode)
	text := EncodeJSONL(got)
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
	if g.Tokens == nil {
		t.Errorf("no -- tokens -- section: token-mode output is pinned in every case (run the tests with -update)")
	} else if tokens := EncodeJSONL(parseGolden(t, s, g, syntax.TokenMode)); !bytes.Equal(tokens, g.Tokens) {
		t.Errorf("token-mode JSON lines differ from the file:\n got:\n%s\nwant:\n%s", tokens, g.Tokens)
	}
	if err := Check(s, g.Input, Config{Options: g.Options}); err != nil {
		t.Error(err)
	}
	if err := RoundTrip(s, g.Input, g.Options); err != nil {
		t.Error(err)
	}
}

func updateGolden(t *testing.T, s syntax.Syntax, g *Golden) {
	events := parseGolden(t, s, g, syntax.EventMode)
	text := EncodeJSONL(events)
	tokens := EncodeJSONL(parseGolden(t, s, g, syntax.TokenMode))
	if bytes.Equal(text, g.Events) && bytes.Equal(tokens, g.Tokens) {
		return
	}
	if len(events) <= 1 && len(bytes.TrimSpace(g.Input)) > 0 {
		t.Fatalf("not written: the new expectation is empty (only the end event) for input that is not white space")
	}
	if err := Check(s, g.Input, Config{Options: g.Options}); err != nil {
		t.Fatalf("not written: the parser's output breaks an invariant:\n%v", err)
	}
	if err := os.WriteFile(g.Path, g.Format(text, tokens), 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(text, g.Events) {
		t.Logf("%s: events rewritten:\n%s", g.Path, lineDiff(g.Events, text))
	}
	if !bytes.Equal(tokens, g.Tokens) {
		if g.Tokens == nil {
			t.Logf("%s: token-mode events written", g.Path)
		} else {
			t.Logf("%s: token-mode events rewritten:\n%s", g.Path, lineDiff(g.Tokens, tokens))
		}
	}
}

// lineDiff shows the lines of old and new that differ, "-" and "+".
func lineDiff(old, new []byte) string {
	split := func(b []byte) []string { return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") }
	return cmp.Diff(split(old), split(new))
}

// RoundTripForm writes the events of every golden case in dir, errors
// left out, in s's form (s.Render: a variant's, as a registry Lookup gives
// it) and parses them back: whatever the form carries must come back the
// same (RoundTrip). A case the form cannot carry, and says so, is skipped.
// It returns how many of the cases the form carried, and how many of
// those renderings hold mark (the form's own marker, so that a test can
// say the form was written, not the syntax's other one).
func RoundTripForm(t *testing.T, s syntax.Syntax, dir string, mark []byte) (carried, marked, total int) {
	t.Helper()
	gs, err := ReadGoldens(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		var kept []syntax.Event
		for _, e := range syntax.Parse(s, g.Input, g.Options) {
			if e.Type != syntax.Error {
				kept = append(kept, e)
			}
		}
		var buf bytes.Buffer
		if err := syntax.Render(s.Render(&buf, g.Options), kept); err != nil {
			continue // the form cannot carry something, and said so
		}
		carried++
		if bytes.Contains(buf.Bytes(), mark) {
			marked++
		}
		if err := RoundTrip(s, g.Input, g.Options); err != nil {
			t.Errorf("%s: %v", g.Path, err)
		}
	}
	return carried, marked, len(gs)
}
