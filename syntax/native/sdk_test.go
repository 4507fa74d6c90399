package native_test

import (
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// TestChunks: chunks given as []byte (as json.Marshal gives them, for the
// Gemini SDK) read as the same stream in JSON lines, and a loop that stops
// early stops reading chunks.
func TestChunks(t *testing.T) {
	docs := []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me look.","thought":true}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"ls","args":{"dir":"."}}}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"STOP"}]}`,
	}
	read := 0
	chunks := func(yield func([]byte, error) bool) {
		for _, d := range docs {
			read++
			if !yield([]byte(d), nil) {
				return
			}
		}
	}
	var got []syntax.Event
	for e, err := range native.Chunks(chunks, syntax.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	var lines []byte
	for _, d := range docs {
		lines = append(append(lines, d...), '\n')
	}
	if want := syntax.Parse(native.Syntax, lines, syntax.Options{}); string(syntaxtest.EncodeJSONL(got)) != string(syntaxtest.EncodeJSONL(want)) {
		t.Errorf("got:\n%s\nwant:\n%s", syntaxtest.EncodeJSONL(got), syntaxtest.EncodeJSONL(want))
	}
	read = 0
	for e := range native.Chunks(chunks, syntax.Options{}) {
		if e.Type != syntax.Think {
			t.Errorf("first event %s", e)
		}
		break
	}
	if read != 2 { // the thought ends where the call starts
		t.Errorf("%d chunks read when the loop stopped at the first event, want 2", read)
	}
}
