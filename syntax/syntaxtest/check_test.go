package syntaxtest_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

// fake is a deliberately careless parser: it treats each line "call NAME" as
// a call and other lines as respond text, with faults switched on by name.
type fake struct {
	h                          syntax.Handler
	buf                        []byte
	off                        int64
	perChunk, dropX, eagerCall bool
	panics, seen               bool
	reentrant                  bool // ignores a Write from its own handler without saying so
	busy                       bool
}

func (f *fake) Write(p []byte) (int, error) {
	if f.busy {
		if f.reentrant {
			return len(p), nil
		}
		return 0, syntax.ErrReentrant
	}
	f.busy = true
	defer func() { f.busy = false }()
	if f.perChunk { // emits text per chunk: output depends on chunking
		f.h(syntax.Event{Type: syntax.Respond, Content: string(p), Span: syntax.Span{Start: f.off, End: f.off + int64(len(p))}})
		f.off += int64(len(p))
		return len(p), nil
	}
	if f.panics && bytes.Contains(p, []byte("!")) {
		panic("boom")
	}
	f.buf = append(f.buf, p...)
	for {
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			break
		}
		f.line(f.buf[:i])
		f.off += int64(i + 1)
		f.buf = f.buf[i+1:]
	}
	return len(p), nil
}

func (f *fake) line(l []byte) {
	span := syntax.Span{Start: f.off, End: f.off + int64(len(l))}
	if name, ok := bytes.CutPrefix(l, []byte("call ")); ok {
		f.h(syntax.Event{Type: syntax.Call, Name: string(name), Args: json.RawMessage("{}"), Span: span})
		return
	}
	if f.dropX && f.seen && bytes.HasPrefix(l, []byte("x")) {
		return // silently loses the line, unless it comes first
	}
	f.seen = f.seen || len(l) > 0
	if t := strings.TrimSpace(string(l)); t != "" {
		f.h(syntax.Event{Type: syntax.Respond, Content: t, Span: span})
	}
}

func (f *fake) Close() error {
	if f.busy {
		return syntax.ErrReentrant
	}
	f.busy = true
	defer func() { f.busy = false }()
	if f.eagerCall || len(f.buf) == 0 {
		f.line(f.buf) // eagerCall: a cut-off "call" line still becomes a call
	} else if len(bytes.TrimSpace(f.buf)) > 0 {
		f.h(syntax.Event{Type: syntax.Error, Code: syntax.CodeTruncated, Message: "unterminated line", Pos: syntax.Pos{Offset: f.off, Line: 1, Column: 1},
			Raw: string(f.buf), Span: syntax.Span{Start: f.off, End: f.off + int64(len(f.buf))}})
	}
	f.h(syntax.Event{Type: syntax.End, Span: syntax.Span{Start: f.off + int64(len(f.buf)), End: f.off + int64(len(f.buf))}})
	return nil
}

func fakeSyntax(mod func(*fake)) syntax.Syntax {
	return syntax.Syntax{Name: "fake", New: func(h syntax.Handler, _ syntax.Options) syntax.Parser {
		f := &fake{h: h}
		mod(f)
		return f
	}}
}

// Line and column of the fake's error are right only on line 1; keep inputs
// such that no error comes later.
func TestCheckPassesACorrectParser(t *testing.T) {
	if err := syntaxtest.Check(fakeSyntax(func(*fake) {}), []byte("hello\ncall ls\nbye\n"), syntaxtest.Config{}); err != nil {
		t.Fatal(err)
	}
}

func TestCheckCatches(t *testing.T) {
	for _, c := range []struct {
		name, input, want string
		mod               func(*fake)
	}{
		{"chunking", "hello\nworld\n", "1-byte chunks", func(f *fake) { f.perChunk = true }},
		{"lost bytes", "hello\nxlost\n", "in no event's span", func(f *fake) { f.dropX = true }},
		{"truncated call", "call ls\ncall rm", "gives a call the whole input does not", func(f *fake) { f.eagerCall = true }},
		{"panic", "a!\n", "panicked", func(f *fake) { f.panics = true }},
		{"reentrant", "hello\n", "did not return syntax.ErrReentrant", func(f *fake) { f.reentrant = true }},
		{"dropped arguments", "call ls {\"arguments\": {\"path\": \".\"}}\n", "dropped", func(*fake) {}},
	} {
		err := syntaxtest.Check(fakeSyntax(c.mod), []byte(c.input), syntaxtest.Config{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestCheckCatchesTwoEnds(t *testing.T) {
	twoEnds := syntax.Syntax{Name: "twoends", New: func(h syntax.Handler, o syntax.Options) syntax.Parser {
		p := xmljson.Syntax.New(h, o)
		return closeHook{p, func() { h(syntax.Event{Type: syntax.End}) }}
	}}
	err := syntaxtest.Check(twoEnds, []byte("hi"), syntaxtest.Config{})
	if err == nil || !strings.Contains(err.Error(), "end") {
		t.Fatalf("Check = %v", err)
	}
}

type closeHook struct {
	syntax.Parser
	after func()
}

func (c closeHook) Close() error { err := c.Parser.Close(); c.after(); return err }

func TestGarbageFindsPanics(t *testing.T) {
	err := syntaxtest.Garbage(fakeSyntax(func(f *fake) { f.panics = true }), [][]byte{[]byte("a!b\n")}, 50, 1)
	if err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("Garbage = %v", err)
	}
}

func TestParseGolden(t *testing.T) {
	g, err := syntaxtest.ParseGolden([]byte("A case.\noption no-final-newline\noption max-block=64\n-- input --\nab\n-- events --\n{\"type\":\"end\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if string(g.Input) != "ab" || g.Options.MaxBlock != 64 || !strings.HasPrefix(g.Comment, "A case.") {
		t.Fatalf("parsed %+v", g)
	}
	evs, err := g.WantEvents()
	if err != nil || len(evs) != 1 || evs[0].Type != syntax.End {
		t.Fatalf("events %v, %v", evs, err)
	}
	if _, err := syntaxtest.ParseGolden([]byte("option bogus\n-- input --\n")); err == nil {
		t.Error("unknown option accepted")
	}
}

// TestGoldenFormatKeepsInput: writing a case back (-update) keeps its
// input as it was: with no-final-newline, an input that ends in a blank
// line keeps it (it lost a newline at each rewrite).
func TestGoldenFormatKeepsInput(t *testing.T) {
	for _, in := range []string{"ab\n", "ab\n\n", "ab"} {
		text := "option no-final-newline\n-- input --\n" + in + "-- events --\n"
		if in == "ab" {
			text = "-- input --\nab\n-- events --\n"
		}
		g, err := syntaxtest.ParseGolden([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		again, err := syntaxtest.ParseGolden(g.Format([]byte("{\"type\":\"end\"}\n"), nil))
		if err != nil {
			t.Fatal(err)
		}
		if string(again.Input) != string(g.Input) {
			t.Errorf("input %q, written back, reads as %q", g.Input, again.Input)
		}
	}
}

// TestCheckCatchesPartialWithoutSpan: a parser whose partial events have no
// span (as token mode's call events once had) fails the check.
func TestCheckCatchesPartialWithoutSpan(t *testing.T) {
	noSpans := syntax.Syntax{Name: "nospans", New: func(h syntax.Handler, o syntax.Options) syntax.Parser {
		return xmljson.Syntax.New(func(e syntax.Event) {
			if e.Partial && e.Type == syntax.Call {
				e.Span = syntax.Span{}
			}
			h(e)
		}, o)
	}}
	err := syntaxtest.Check(noSpans, []byte(`<execute>[{"name":"ls","args":{"a":1}}]</execute>`), syntaxtest.Config{})
	if err == nil || !strings.Contains(err.Error(), "not a stretch of the input") {
		t.Fatalf("Check = %v", err)
	}
}

// Check runs a second pass at a small MaxBlock: a parser whose output
// depends on chunking only at a small limit is caught there.
func TestCheckSmallBlockPass(t *testing.T) {
	atSmallLimit := syntax.Syntax{Name: "small", New: func(h syntax.Handler, o syntax.Options) syntax.Parser {
		return &fake{h: h, perChunk: o.MaxBlock == 64}
	}}
	in := []byte("hello\ncall ls\nbye\n")
	err := syntaxtest.Check(atSmallLimit, in, syntaxtest.Config{})
	if err == nil || !strings.Contains(err.Error(), "with MaxBlock 64") {
		t.Errorf("Check = %v, want an error from the MaxBlock 64 pass", err)
	}
	if err := syntaxtest.Check(atSmallLimit, in, syntaxtest.Config{SmallBlock: -1}); err != nil {
		t.Errorf("with SmallBlock -1: %v", err)
	}
	if err := syntaxtest.Check(atSmallLimit, in, syntaxtest.Config{Options: syntax.Options{MaxBlock: 1000}, SmallBlock: 32}); err != nil {
		t.Errorf("with SmallBlock 32: %v", err)
	}
}
