package tagcall_test

import (
	"testing"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// Two formats of the JSON form, one with a closer and one without, held to
// the kit's checks at every chunking on inputs that exercise each rule.
func TestJSONForm(t *testing.T) {
	keys := &jsoncall.Keys{Name: "name", Args: "arguments", ID: "id"}
	closed := &tagcall.Format{Name: "closed", Think: tagcall.Tags{Open: "<think>", Close: "</think>"}, Scope: tagcall.Tags{Open: "<TOOLCALL>", Close: "</TOOLCALL>"}, JSON: keys}
	open := &tagcall.Format{Name: "open", Scope: tagcall.Tags{Open: "<|tool_call|>"}, JSON: keys}
	syn := func(f *tagcall.Format) syntax.Syntax {
		return syntax.Syntax{Name: f.Name, New: f.New, Detect: f.Detect, Render: f.Render}
	}
	for _, c := range []struct {
		f    *tagcall.Format
		in   string
		want string
	}{
		{closed, `Hi <TOOLCALL>[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]</TOOLCALL>`, "respond call call execute end"},
		{closed, `<think>plan</think><TOOLCALL>{"name": "a", "arguments": {"s": "</TOOLCALL>"}}</TOOLCALL> done`, "think call respond execute end"},
		{closed, `<TOOLCALL>[{"name": "a", "arguments": {"x": 1}}] oops</TOOLCALL>`, "error end"},
		{closed, `<TOOLCALL>[{"name": "a", "arguments": {"x": 1</TOOLCALL>`, "error end"},
		{closed, `<TOOLCALL>[{"name": "a", "arguments": {"x": 1}}]`, "error end"},
		{closed, `<TOOLCALL></TOOLCALL>`, "error end"},
		{closed, `<TOOLCALL> is a tag`, "respond end"},
		{closed, `<TOOLCALL>[{"arguments": {}}]</TOOLCALL>`, "error end"},
		{closed, `<TOOLCALL>[{"name": "a", "parameters": {"x": 1}}]</TOOLCALL>`, "call execute end"},
		{open, `<|tool_call|>[{"name": "a", "arguments": {"x": 1}}] and after`, "call respond execute end"},
		{open, `<|tool_call|>[{"name": "a", "arguments": {"x": 1}`, "error end"},
		{open, `<|tool_call|>[{"name": "a", "arguments": {"x": 1}]}] text`, "error respond end"},
	} {
		s := syn(c.f)
		var got string
		for _, e := range syntax.Parse(s, []byte(c.in), syntax.Options{}) {
			if got != "" {
				got += " "
			}
			got += string(e.Type)
		}
		if got != c.want {
			t.Errorf("%s %q: %s, want %s", c.f.Name, c.in, got, c.want)
		}
		if err := syntaxtest.Check(s, []byte(c.in), syntaxtest.Config{}); err != nil {
			t.Errorf("%s %q: %v", c.f.Name, c.in, err)
		}
	}
}
