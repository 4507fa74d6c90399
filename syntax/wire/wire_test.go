package wire_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// recorder writes each unit as a line, to show how events are grouped.
type recorder struct{ lines, ids []string }

func (r *recorder) Text(t syntax.Type, s string) error {
	r.lines = append(r.lines, fmt.Sprintf("text %s %q", t, s))
	return nil
}

func (r *recorder) Calls(cs []syntax.Event) error {
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	r.lines = append(r.lines, "calls "+strings.Join(names, ","))
	r.ids = append(r.ids, "calls "+withIDs(cs, func(e syntax.Event) string { return e.Name }))
	return nil
}

func withIDs(evs []syntax.Event, name func(syntax.Event) string) string {
	var s []string
	for _, e := range evs {
		s = append(s, name(e)+"#"+e.ID)
	}
	return strings.Join(s, ",")
}

func (r *recorder) Execute() error {
	r.lines = append(r.lines, "execute")
	r.ids = append(r.ids, "execute")
	return nil
}

func (r *recorder) Results(rs []syntax.Event) error {
	var tools []string
	for _, e := range rs {
		tools = append(tools, e.Tool)
	}
	r.lines = append(r.lines, "results "+strings.Join(tools, ","))
	r.ids = append(r.ids, "results "+withIDs(rs, func(e syntax.Event) string { return e.Tool }))
	return nil
}

func (r *recorder) End() error { r.lines = append(r.lines, "end"); return nil }

func call(name string) syntax.Event {
	return syntax.Event{Type: syntax.Call, Name: name, Args: json.RawMessage("{}")}
}

func TestGrouping(t *testing.T) {
	var rec recorder
	r := wire.New("rec", &rec)
	var errs []string
	for _, e := range []syntax.Event{
		{Type: syntax.Respond, Content: "a"},
		{Type: syntax.Error, Code: syntax.CodeMalformed, Message: "bad block", Pos: syntax.Pos{Offset: 2, Line: 1, Column: 3}, Raw: "<x>"},
		{Type: syntax.Respond, Content: "b"},
		{Type: syntax.Respond, Content: "frag", Partial: true},
		call("x"), call("y"),
		{Type: syntax.Think, Content: "between"},
		{Type: syntax.Think, Content: "twice"},
		call("z"),
		{Type: syntax.Execute},
		{Type: syntax.Result, Tool: "x"}, {Type: syntax.Result, Tool: "y"},
		{Type: "user", Content: "hi"},
		{Type: syntax.End},
		{Type: syntax.Respond, Content: "after end"},
	} {
		if err := r.Event(e); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if err := r.Close(); err != nil {
		errs = append(errs, err.Error())
	}
	want := []string{`text respond "a\n\nb"`, "calls x,y", `text think "between"`, `text think "twice"`, "calls z", "execute", "results x,y", "end"}
	if d := cmp.Diff(want, rec.lines); d != "" {
		t.Error(d)
	}
	wantErrs := []string{
		"rec cannot carry: an error event (malformed at 1:3: bad block), with the 3 bytes of source text it holds: not written",
		"rec cannot carry: a user event (a framework's, not the model's): not written",
	}
	if d := cmp.Diff(wantErrs, errs); d != "" {
		t.Error(d)
	}
}

// TestIDs checks that calls get ids when the wire form needs them, and
// results the id of the call they answer: by id when they have one, else
// the first unanswered call of their tool in the last batch.
func TestIDs(t *testing.T) {
	var rec recorder
	r := wire.New("rec", &rec)
	r.IDs = true
	withID := call("b")
	withID.ID = "toolu_9"
	evs := []syntax.Event{
		call("a"), withID, call("a"), {Type: syntax.Execute},
		{Type: syntax.Result, Tool: "a"}, {Type: syntax.Result, Tool: "b"}, {Type: syntax.Result, Tool: "a"},
		call("c"), {Type: syntax.Execute},
		{Type: syntax.Result, Tool: "c", ID: "mine"}, {Type: syntax.Result, Tool: "a"},
	}
	if err := syntax.Render(r, evs); err != nil {
		t.Fatal(err)
	}
	want := []string{"calls a#call_1,b#toolu_9,a#call_2", "execute", "results a#call_1,b#toolu_9,a#call_2",
		"calls c#call_3", "execute", "results c#mine,a#"}
	if d := cmp.Diff(want, rec.ids); d != "" {
		t.Error(d)
	}
}

func TestNotCarried(t *testing.T) {
	var rec recorder
	r := wire.New("rec", &rec)
	refusal := syntax.Event{Type: syntax.Respond, Content: "no", Refusal: true}
	custom := call("patch")
	custom.Custom = true
	err := syntax.Render(r, []syntax.Event{refusal, custom, {Type: syntax.Execute},
		{Type: syntax.HostedCall, Name: "web_search"}, {Type: syntax.HostedResult, Tool: "web_search"}})
	want := "rec cannot carry: the refusal flag of respond text (written as plain text)\n" +
		"rec cannot carry: the custom flag of call patch (written as an ordinary call)\n" +
		"rec cannot carry: a hosted call web_search (run by the provider; rec has no form for it): not written\n" +
		"rec cannot carry: a hosted result of web_search (run by the provider; rec has no form for it): not written"
	if err == nil || err.Error() != want {
		t.Errorf("got error\n%v\nwant\n%s", err, want)
	}
	if d := cmp.Diff([]string{`text respond "no"`, "calls patch", "execute", "end"}, rec.lines); d != "" {
		t.Error(d)
	}
}

func TestNormalize(t *testing.T) {
	got := wire.Normalize([]syntax.Event{
		{Type: syntax.Think, Content: "a", Span: syntax.Span{Start: 1, End: 2}},
		{Type: syntax.Error, Message: "x"},
		{Type: syntax.Think, Content: "b"},
		{Type: syntax.Respond, Content: "c", Partial: true},
		call("x"),
	})
	want := []syntax.Event{{Type: syntax.Think, Content: "a\n\nb"}, call("x")}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
}

// flagged is a recorder that carries the flags.
type flagged struct{ recorder }

func (f *flagged) Refusal(s string) error {
	f.lines = append(f.lines, fmt.Sprintf("refusal %q", s))
	return nil
}

// TestFlags checks that units implementing Flags get refused text as a run
// of its own, and no error for the flags; other units write it as text and
// say the flag was lost.
func TestFlags(t *testing.T) {
	custom := call("patch")
	custom.Custom = true
	evs := []syntax.Event{
		{Type: syntax.Respond, Content: "a"},
		{Type: syntax.Respond, Content: "no", Refusal: true},
		{Type: syntax.Respond, Content: "b"},
		custom, {Type: syntax.Execute},
	}
	var f flagged
	if err := syntax.Render(wire.New("f", &f), evs); err != nil {
		t.Fatal(err)
	}
	want := []string{`text respond "a"`, `refusal "no"`, `text respond "b"`, "calls patch", "execute", "end"}
	if d := cmp.Diff(want, f.lines); d != "" {
		t.Error(d)
	}
	var plain recorder
	err := syntax.Render(wire.New("p", &plain), evs)
	if err == nil || !strings.Contains(err.Error(), "refusal flag") || !strings.Contains(err.Error(), "custom flag") {
		t.Errorf("want both flags reported as not carried, got %v", err)
	}
	if d := cmp.Diff([]string{`text respond "a\n\nno\n\nb"`, "calls patch", "execute", "end"}, plain.lines); d != "" {
		t.Error(d)
	}
	got := wire.Normalize(evs[:3])
	if len(got) != 3 {
		t.Errorf("Normalize joined a refusal with other text: %v", got)
	}
}

func TestTail(t *testing.T) {
	var b strings.Builder
	tail := &wire.Tail{W: &b}
	if tail.NeedsLineEnd() {
		t.Error("nothing written: no line end needed")
	}
	for _, c := range []struct {
		write string
		want  bool
	}{{"a", true}, {"b\n", false}, {"", false}, {"c", true}} {
		tail.Write([]byte(c.write))
		if got := tail.NeedsLineEnd(); got != c.want {
			t.Errorf("after %q: NeedsLineEnd %v, want %v", c.write, got, c.want)
		}
	}
	if b.String() != "ab\nc" {
		t.Errorf("passed on %q", b.String())
	}
}
