package conversation_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// transcripts are conversations in each syntax, as an agent would store them.
var transcripts = map[string]string{
	"xmljson": `[
 {"role": "system", "content": "You are a coding agent."},
 {"role": "user", "content": "Update the API endpoint."},
 {"role": "assistant", "content": "<think>Read it first</think>\n<execute>\n[{\"name\": \"read\", \"args\": {\"file\": \"config.json\"}}]\n</execute>"},
 {"role": "user", "content": "<results>\n[{\"tool\": \"read\", \"status\": \"success\", \"content\": {\"api\": \"old.com\"}}]\n</results>"},
 {"role": "assistant", "content": "<execute>[{\"name\": \"write\", \"args\": {\"file\": \"config.json\", \"content\": \"{}\"}}, {\"name\": \"read\", \"args\": {\"file\": \"x\"}}]</execute>"},
 {"role": "user", "content": "<results>[{\"tool\": \"write\", \"status\": \"failure\", \"content\": \"denied\"}, {\"tool\": \"read\", \"status\": \"success\", \"content\": \"x\"}]</results>"},
 {"role": "assistant", "content": "I could not write it."}
]`,
	"delimiter": `{"role": "user", "content": "List files"}
{"role": "assistant", "content": "§call: {\"name\": \"file_list\", \"args\": {\"path\": \".\"}}\n§execute"}
{"role": "user", "content": "[SYSTEM: main.py, config.json]"}
{"role": "assistant", "content": "§respond: Two files.\n§end"}`,
	"caret": `{"messages": [
 {"role": "user", "content": "Read main.rs"},
 {"role": "assistant", "content": "Reading.\n^^^read_files\npath: src/main.rs\n^^^"},
 {"role": "tool", "name": "read_files", "content": "fn main() {}"},
 {"role": "assistant", "content": "It is empty."}
]}`,
	"xmltag": `[
 {"role": "assistant", "content": "<tool:list><param:path>.</param:path></tool:list>"},
 {"role": "tool", "name": "list", "content": "{\"files\": [\"a\", \"b\"]}"},
 {"role": "assistant", "content": "<thinking>two</thinking>Two files."}
]`,
}

func TestConversationRoundTrip(t *testing.T) {
	for name, text := range transcripts {
		s, err := registry.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := conversation.Decode(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := conversation.Read(msgs, s, syntax.Options{})
		evs := c.Events()
		var calls, results int
		for _, e := range evs {
			switch e.Type {
			case syntax.Call:
				calls++
			case syntax.Result:
				results++
			case syntax.Error:
				t.Errorf("%s: error event %s", name, e)
			}
		}
		if calls == 0 || results == 0 {
			t.Errorf("%s: %d calls and %d results read", name, calls, results)
		}
		back, err := conversation.Write(c, s, syntax.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again := conversation.Read(back, s, syntax.Options{})
		if d := cmp.Diff(wire.NormalizePair(evs, again.Events())); d != "" {
			t.Errorf("%s: written and read again, the events differ:\n%s", name, d)
		}
		if len(back) != len(msgs) {
			t.Errorf("%s: %d messages written for %d read", name, len(back), len(msgs))
		}
		if msgs[0].Role != "assistant" && !cmp.Equal(back[0], msgs[0]) {
			t.Errorf("%s: first message %+v, want it kept as %+v", name, back[0], msgs[0])
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, bad := range []string{"hello", `{"role": "user"}` + "\nnot json"} {
		if _, err := conversation.Decode(strings.NewReader(bad)); err == nil {
			t.Errorf("%q decoded without error", bad)
		}
	}
}
