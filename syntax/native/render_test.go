package native_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/wire"
)

// providerOf names the provider form a golden case's input is in, by its
// file name ("" for cases of no one provider: schemas, broken input).
func providerOf(path string) string {
	name := strings.TrimPrefix(strings.TrimPrefix(filepath.Base(path), "render-"), "conv-")
	for _, p := range []struct{ prefix, form string }{
		{"openai-responses-", "openai-responses"}, {"openai-", "openai"}, {"mistral-", "openai"},
		{"anthropic-", "anthropic"}, {"gemini-", "gemini"}, {"ollama-", "ollama"},
	} {
		if strings.HasPrefix(name, p.prefix) {
			return p.form
		}
	}
	return ""
}

// writable returns native's forms that can be written, by name.
func writable(t *testing.T) map[string]func(w *bytes.Buffer) syntax.Renderer {
	forms := map[string]func(w *bytes.Buffer) syntax.Renderer{}
	for _, v := range native.Syntax.Variants {
		if v.Render == nil {
			t.Errorf("variant %s has no renderer", v.Name)
			continue
		}
		forms[v.Name] = func(w *bytes.Buffer) syntax.Renderer { return v.Render(w, syntax.Options{}) }
	}
	return forms
}

// TestRenderEveryPair takes the golden cases of every provider form (from),
// renders their events in every form (to) and parses the output back: the
// events must be the same (wire.NormalizePair) unless the renderer reported
// what it could not carry. The losses of each pair are logged (go test -v
// -run TestRenderEveryPair), and every form must carry every case of its own
// provider but those it reports.
func TestRenderEveryPair(t *testing.T) {
	goldens, err := syntaxtest.ReadGoldens(goldens)
	if err != nil {
		t.Fatal(err)
	}
	forms := writable(t)
	names := make([]string, 0, len(forms))
	for n := range forms {
		names = append(names, n)
	}
	sort.Strings(names)
	losses := map[string]map[string]int{} // from→to: loss → cases
	for _, g := range goldens {
		from := providerOf(g.Path)
		if from == "" || g.Tools != "" {
			continue
		}
		var sent []syntax.Event // error events are not part of the conversation: not written
		for _, e := range syntax.Parse(native.Syntax, g.Input, g.Options) {
			if e.Type != syntax.Error {
				sent = append(sent, e)
			}
		}
		for _, to := range names {
			var out bytes.Buffer
			rerr := syntax.Render(forms[to](&out), sent)
			back := syntax.Parse(native.Syntax, out.Bytes(), syntax.Options{})
			for _, e := range back {
				if e.Type == syntax.Error {
					t.Errorf("%s as %s: the output does not read back cleanly: %s\noutput:\n%s", filepath.Base(g.Path), to, e, out.Bytes())
				}
			}
			want, got := wire.NormalizePair(sent, back)
			d := cmp.Diff(want, got)
			if rerr == nil {
				if d != "" {
					t.Errorf("%s as %s: nothing reported lost, but the events read back differ (-sent +back):\n%s\noutput:\n%s", filepath.Base(g.Path), to, d, out.Bytes())
				}
				continue
			}
			if !errors.Is(rerr, wire.ErrCannotCarry) {
				t.Errorf("%s as %s: %v", filepath.Base(g.Path), to, rerr)
			}
			key := from + " → " + to
			if losses[key] == nil {
				losses[key] = map[string]int{}
			}
			for _, line := range strings.Split(rerr.Error(), "\n") {
				losses[key][lossKind(line)]++
				if !expectedLoss(to, line) {
					t.Errorf("%s as %s: a loss the form's documentation does not list: %s", filepath.Base(g.Path), to, line)
				}
			}
		}
	}
	keys := make([]string, 0, len(losses))
	for k := range losses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kinds := make([]string, 0, len(losses[k]))
		for l, n := range losses[k] {
			kinds = append(kinds, "\t"+l+" ×"+strconv.Itoa(n))
		}
		sort.Strings(kinds)
		t.Logf("%s cannot carry:\n%s", k, strings.Join(kinds, "\n"))
	}
}

// cannotCarry lists, for each form, what it may report it cannot carry
// (as the Writing section of the package documentation says); anthropic
// carries everything the parser reads.
var cannotCarry = map[string][]string{
	"anthropic": {"state of a", "the tool name of a result", "answers no call"},
	"openai": {"order within a message", "two refusals in one message", "the custom flag of call",
		"a hosted call", "a hosted result", "state of a"},
	"openai-responses": {"the custom flag of call", "the tool name of a result",
		"without its result", "without its call", "that is not an object", "which its item has already", "state of a"},
	"gemini": {"the refusal flag", "the custom flag of call", "a hosted call", "a hosted result", "the failure status", "whose content is not an object", "state of a"},
	"ollama": {"order within a message", "the refusal flag", "the custom flag of call", "a hosted call", "a hosted result", "state of a"},
}

func expectedLoss(form, msg string) bool {
	for _, what := range cannotCarry[form] {
		if strings.Contains(msg, what) {
			return true
		}
	}
	return false
}

// lossKind is a loss's message without its renderer's name.
func lossKind(msg string) string {
	_, msg, _ = strings.Cut(msg, ": ")
	return msg
}

// formsEvents is a conversation with every kind of event a renderer takes.
const formsEvents = `{"type":"think","content":"Both files are needed."}
{"type":"respond","content":"Reading them."}
{"type":"call","name":"read","args":{"path":"a.txt"},"id":"toolu_01"}
{"type":"call","name":"read","args":{"path":"b.txt"}}
{"type":"execute"}
{"type":"result","tool":"read","id":"toolu_01","status":"success","content":"alpha"}
{"type":"result","tool":"read","status":"failure","content":{"error":"no such file"}}
{"type":"hosted_call","name":"web_search","args":{"query":"b.txt"},"id":"srvtoolu_01"}
{"type":"hosted_result","tool":"web_search","id":"srvtoolu_01","status":"success","content":[{"type":"web_search_result","url":"https://example.com/b","title":"b.txt"}]}
{"type":"respond","content":"b.txt is missing."}
{"type":"respond","content":"I cannot delete it for you.","refusal":true}
{"type":"call","name":"apply_patch","args":{"input":"*** Begin Patch\n*** End Patch"},"id":"call_p","custom":true}
{"type":"execute"}
{"type":"end"}
`

// TestRenderForms writes one conversation with every kind of event in each
// form, and compares the output, and what was not carried, with
// testdata/render-forms.FORM.txt (go test -update rewrites them).
func TestRenderForms(t *testing.T) {
	evs, err := syntaxtest.DecodeJSONL([]byte(formsEvents))
	if err != nil {
		t.Fatal(err)
	}
	update := flag.Lookup("update").Value.String() == "true"
	for name, render := range writable(t) {
		var out bytes.Buffer
		err := syntax.Render(render(&out), evs)
		if err != nil {
			out.WriteString("-- not carried --\n" + err.Error() + "\n")
		}
		path := filepath.Join(goldens, "render-forms."+name+".txt")
		if update {
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", name, out.Bytes(), want)
		}
	}
}

// TestResultWithoutItsCall: a result whose call is not in the stream (an
// Ollama tool message alone, as a fuzz run found) loses its tool name in the
// forms whose result has no name field (Anthropic, Responses): that is
// reported, never silent; with no id at all, Anthropic's tool_result has
// nothing the API takes to pair it.
func TestResultWithoutItsCall(t *testing.T) {
	for _, in := range []string{
		`{"message":{"role":"tool","content":"sunny","tool_name":"get_weather"},"done":true}`,
		`{"role":"tool","content":"sunny","tool_call_id":"c9","name":"get_weather"}`,
	} {
		evs := syntax.Parse(native.Syntax, []byte(in), syntax.Options{})
		if evs[0].Type != syntax.Result || evs[0].Tool != "get_weather" {
			t.Fatalf("%s: read as %v", in, evs)
		}
		for _, form := range []string{"anthropic", "openai-responses"} {
			var b bytes.Buffer
			err := syntax.Render(writable(t)[form](&b), evs)
			if !errors.Is(err, wire.ErrCannotCarry) || !strings.Contains(err.Error(), "get_weather") {
				t.Errorf("%s as %s: error %v, want the tool name reported as not carried", in, form, err)
			}
		}
	}
}

// TestOpaqueStateRoundTrip: the state a provider gave for the client to send
// back (thinking signatures, redacted thinking, Gemini's thought
// signatures, Responses reasoning items and item ids) survives parse →
// render in the provider's own form → parse, byte for byte, in every golden
// case that has some; and every other form reports it as not carried.
func TestOpaqueStateRoundTrip(t *testing.T) {
	gs, err := syntaxtest.ReadGoldens(goldens)
	if err != nil {
		t.Fatal(err)
	}
	forms := writable(t)
	cases := 0
	for _, g := range gs {
		form := providerOf(g.Path)
		evs := syntax.Parse(native.Syntax, g.Input, g.Options)
		var states []string
		for _, e := range evs {
			if len(e.Opaque) > 0 {
				states = append(states, string(e.Opaque))
			}
		}
		if form == "" || len(states) == 0 {
			continue
		}
		cases++
		var sent []syntax.Event
		for _, e := range evs {
			if e.Type != syntax.Error {
				sent = append(sent, e)
			}
		}
		for to, render := range forms {
			var out bytes.Buffer
			err := syntax.Render(render(&out), sent)
			var back []string
			for _, e := range syntax.Parse(native.Syntax, out.Bytes(), syntax.Options{}) {
				if len(e.Opaque) > 0 {
					back = append(back, string(e.Opaque))
				}
			}
			switch {
			case to == form && !cmp.Equal(states, back):
				t.Errorf("%s as %s: state %q read back as %q", filepath.Base(g.Path), to, states, back)
			case to != form && (err == nil || !strings.Contains(err.Error(), "state of a")):
				t.Errorf("%s as %s: the %s state is not reported as not carried (%v)", filepath.Base(g.Path), to, form, err)
			}
		}
	}
	if cases < 8 {
		t.Errorf("%d golden cases with opaque state, want 8 or more", cases)
	}
}
