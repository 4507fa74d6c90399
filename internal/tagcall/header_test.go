package tagcall_test

import (
	"testing"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// TestHeader: a word a kind marker follows is a message's header; the
// calls that take it in are the JSON form's and the Function tag's, while
// a word-named call takes none (the word before it is text). Every input
// holds the kit's relations at every chunking.
func TestHeader(t *testing.T) {
	word := &tagcall.Format{Name: "word", Think: tagcall.Tags{Open: "<think>", Close: "</think>"},
		Scope:  tagcall.Tags{Open: "<tool_call>", Close: "</tool_call>"},
		Param:  tagcall.Param{Open: "<arg_key>", KeyClose: "</arg_key>", ValueOpen: "<arg_value>", Close: "</arg_value>"},
		Header: "<|hdr|>", Kinds: []string{"<|text|>"}}
	js := &tagcall.Format{Name: "json", Think: tagcall.Tags{Open: "<think>", Close: "</think>"},
		Scope: tagcall.Tags{Open: "<call>", Close: "</call>"}, JSON: &jsoncall.Keys{Name: "name", Args: "args"}, Object: true,
		Header: "<|hdr|>", Kinds: []string{"<|text|>"}}
	for _, c := range []struct {
		f     *tagcall.Format
		in    string
		types string // the events' types, one letter each: r respond, t think, c call, e error, x execute
		first string // the first event's content, if any
	}{
		{word, "me<tool_call>get\n<arg_key>a</arg_key><arg_value>1</arg_value></tool_call><think>x</think>", "rctx", "me"},
		{word, "<|hdr|>me<think>x</think><|hdr|>you<|text|>here", "tr", "x"},
		{js, `me<call>{"name": "f", "args": {}}</call><|hdr|>you here`, "crx", ""},
		{js, "<|hdr|>  <|text|>hi", "r", "hi"},
		{js, "<|hdr|>me<call>", "e", ""},
		{js, "<|hdr|>me<|hdr|>you<|text|>hi", "rr", "me"},
	} {
		s := syntax.Syntax{Name: c.f.Name, New: c.f.New, Detect: c.f.Detect, Render: c.f.Render}
		evs := syntax.Parse(s, []byte(c.in), syntax.Options{})
		types := ""
		for _, e := range evs[:len(evs)-1] {
			types += map[syntax.Type]string{syntax.Respond: "r", syntax.Think: "t", syntax.Call: "c", syntax.Error: "e", syntax.Execute: "x"}[e.Type]
		}
		if types != c.types || c.first != "" && evs[0].Content != c.first {
			t.Errorf("%s %q: events %v", c.f.Name, c.in, evs)
		}
		if err := syntaxtest.Check(s, []byte(c.in), syntaxtest.Config{}); err != nil {
			t.Errorf("%s %q: %v", c.f.Name, c.in, err)
		}
	}
}
