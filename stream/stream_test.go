package stream_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/stream"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/caret"
)

func TestJSONL(t *testing.T) {
	var b bytes.Buffer
	j := stream.NewJSONL(&b)
	j.Event(syntax.Event{Type: syntax.Respond, Content: "<b>&", Span: syntax.Span{Start: 1, End: 4}})
	j.Spans = true
	j.Event(syntax.Event{Type: syntax.End, Span: syntax.Span{Start: 4, End: 4}})
	if b.Len() != 0 {
		t.Error("written before Flush")
	}
	j.Flush()
	want := "{\"type\":\"respond\",\"content\":\"<b>&\"}\n{\"type\":\"end\",\"span\":[4,4]}\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func render(evs []syntax.Event, color bool) string {
	var b bytes.Buffer
	tx := stream.NewText(&b)
	tx.Color = color
	tx.Fold = 20
	for _, e := range evs {
		tx.Event(e)
	}
	tx.Flush()
	return b.String()
}

func TestTextView(t *testing.T) {
	evs := []syntax.Event{
		{Type: syntax.Think, Content: "plan\nsecond line"},
		{Type: syntax.Call, Name: "write", ID: "c1", Args: json.RawMessage(`{"content":"a long value that will be folded"}`)},
		{Type: syntax.Execute},
		{Type: syntax.Result, Tool: "write", Status: syntax.Failure, Value: json.RawMessage(`"denied"`)},
		{Type: syntax.Error, Message: "bad block", Pos: syntax.Pos{Line: 3, Column: 7}, Raw: "<execute>oops"},
		{Type: syntax.End},
	}
	plain := render(evs, false)
	for _, want := range []string{
		"think   plan\n         second line\n",
		"call    write #c1 {\"content\":\"a long v … (",
		"execute ── run the batch ──\n",
		"result  write failure: \"denied\"\n",
		"error   3:7 bad block\n         <execute>oops\n",
		"end\n",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("text view lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "\x1b[") {
		t.Error("colors without Color")
	}
	if colored := render(evs, true); !strings.Contains(colored, "\x1b[31m") {
		t.Error("no red for the failure or the error with Color set")
	}
}

// In token mode a file being written appears as it streams.
func TestTextViewStreamsArguments(t *testing.T) {
	var evs []syntax.Event
	p := caret.Syntax.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{Mode: syntax.TokenMode})
	for _, chunk := range []string{"^^^write\npath: a\n---\nline one\n", "line two\n", "^^^\n"} {
		p.Write([]byte(chunk))
	}
	p.Close()
	out := render(evs, false)
	if !strings.Contains(out, "call    write (streaming) \n         content: line one\n         line two\n         (complete)\n") {
		t.Errorf("streamed call shown as:\n%s", out)
	}
}

// TestTextShowsNotExecutes: escape sequences and control characters that a
// model (or a tool result it quotes) writes are shown escaped in the text
// view, never passed to the terminal: a hostile transcript cannot move the
// cursor, clear the screen or set the window title.
func TestTextShowsNotExecutes(t *testing.T) {
	hostile := "\x1b]0;pwned\x07 \x1b[2J\x1b[H cleared \x9b31m \u202eevil\u202c \x00"
	var b bytes.Buffer
	r := stream.NewText(&b)
	for _, e := range []syntax.Event{
		{Type: syntax.Think, Content: hostile},
		{Type: syntax.Respond, Content: hostile, Partial: true},
		{Type: syntax.Respond, Content: hostile},
		{Type: syntax.Call, Name: "w\x1b[2J", ID: "id\x1b[H", Args: json.RawMessage(`{"t":"\u001b[2J"}`)},
		{Type: syntax.Call, Partial: true, Name: "w", Delta: hostile},
		{Type: syntax.Result, Tool: "t\x1b[2J", Status: syntax.Success, Value: json.RawMessage("\"ok \u009b2J \u202eevil\"")},
		{Type: syntax.Call, Name: "w", Args: json.RawMessage("{\"a\":\"A\u009b2J\u202eevil\"}")},
		{Type: syntax.Error, Code: syntax.CodeMalformed, Message: hostile, Raw: hostile},
		{Type: syntax.End},
	} {
		r.Event(e)
	}
	r.Close()
	for i, c := range b.String() {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 && c <= 0x9f || c == '\u202e' {
			t.Fatalf("a control character %U at byte %d reaches the terminal:\n%q", c, i, b.String())
		}
	}
	if !strings.Contains(b.String(), `\x1b]0;pwned\a`) {
		t.Errorf("the escape sequence is not shown:\n%s", b.String())
	}
}
