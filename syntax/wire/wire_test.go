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
type recorder struct{ lines []string }

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
	return nil
}

func (r *recorder) Execute() error { r.lines = append(r.lines, "execute"); return nil }

func (r *recorder) Results(rs []syntax.Event) error {
	r.lines = append(r.lines, fmt.Sprintf("results %d", len(rs)))
	return nil
}

func (r *recorder) End() error { r.lines = append(r.lines, "end"); return nil }

func call(name string) syntax.Event {
	return syntax.Event{Type: syntax.Call, Name: name, Args: json.RawMessage("{}")}
}

func TestGrouping(t *testing.T) {
	var rec recorder
	r := wire.New(&rec)
	for _, e := range []syntax.Event{
		{Type: syntax.Respond, Content: "a"},
		{Type: syntax.Error, Message: "dropped"},
		{Type: syntax.Respond, Content: "b"},
		{Type: syntax.Respond, Content: "frag", Partial: true},
		call("x"), call("y"),
		{Type: syntax.Think, Content: "between"},
		call("z"),
		{Type: syntax.Execute},
		{Type: syntax.Result, Tool: "x"}, {Type: syntax.Result, Tool: "y"},
		{Type: syntax.End},
		{Type: syntax.Respond, Content: "after end"},
	} {
		if err := r.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	r.Close()
	want := []string{`text respond "a\n\nb"`, "calls x,y", `text think "between"`, "calls z", "execute", "results 2", "end"}
	if d := cmp.Diff(want, rec.lines); d != "" {
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
