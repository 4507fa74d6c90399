package toolparse_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// The adversarial tests and the benchmarks run on every built-in syntax.
// Their inputs are written by each syntax's own renderer, so that a new
// syntax is measured and attacked without a line here.

// mark stands for a value while a fixture is rendered; it is then replaced
// or cut at.
const mark = "QZXMARKQZX"

// renderEvents writes evs in s (what s cannot carry is left out, as its
// renderer reports).
func renderEvents(s syntax.Syntax, evs []syntax.Event) []byte {
	var b bytes.Buffer
	syntax.Render(s.Render(&b, syntax.Options{MultipleBlocks: true}), evs)
	return b.Bytes()
}

func call(name string, args map[string]any) syntax.Event {
	b, _ := json.Marshal(args)
	return syntax.Event{Type: syntax.Call, Name: name, Args: b}
}

// opener is the start of a block that, fed text without markers, never
// ends: s's rendering of a call, cut where the call's one value starts.
func opener(t testing.TB, s syntax.Syntax) []byte {
	out := renderEvents(s, []syntax.Event{call("write", map[string]any{"c": mark}), {Type: syntax.Execute}})
	i := bytes.Index(out, []byte(mark))
	if i < 0 {
		t.Fatalf("%s: its renderer does not write a call's value as it is: no opener to test with", s.Name)
	}
	return out[:i]
}

// deepInput is s's rendering of a call whose value is a million '[' (in
// syntaxes that read values as JSON), then of text "after"; ok is false for
// syntaxes whose values are strings, where nesting is not read.
func deepInput(s syntax.Syntax) (in []byte, ok bool) {
	out := renderEvents(s, []syntax.Event{call("x", map[string]any{"a": mark}), {Type: syntax.Execute},
		{Type: syntax.Respond, Content: "after"}})
	quoted := []byte(`"` + mark + `"`)
	if !bytes.Contains(out, quoted) {
		return nil, false
	}
	return bytes.Replace(out, quoted, bytes.Repeat([]byte("["), 1_000_000), 1), true
}

const prose = "The quick brown fox jumps over the lazy dog; numbers like 3 < 4 and a > b appear, so do braces {x} and brackets [y].\n"

// turn is one turn in s: prose, a thought, a call to write arg, its
// execute and result, as far as s carries them.
func turn(s syntax.Syntax, proseLines int, arg string) []byte {
	return renderEvents(s, []syntax.Event{
		{Type: syntax.Think, Content: "Now write it."},
		{Type: syntax.Respond, Content: strings.TrimSpace(strings.Repeat(prose, proseLines))},
		call("write", map[string]any{"path": "a.txt", "content": arg}),
		{Type: syntax.Execute},
		{Type: syntax.Result, Tool: "write", Status: syntax.Success, Value: json.RawMessage(`"ok"`)},
	})
}

// transcript repeats turns up to size bytes.
func transcript(s syntax.Syntax, size, proseLines int, arg string) []byte {
	var b bytes.Buffer
	t := turn(s, proseLines, arg)
	for b.Len() < size {
		b.Write(t)
	}
	return b.Bytes()
}

// builtins are the syntaxes under test.
func builtins() []syntax.Syntax { return registry.Builtin() }
