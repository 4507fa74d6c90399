package registry_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// ambiguous lists the golden cases whose text is also, marker for marker,
// another syntax's: auto cannot tell, and its choice is documented.
var ambiguous = map[string]string{
	"xmltag/unterminated-thinking.txtar":           "an unclosed <thinking> with no tool is prose to xmljson; auto needs </thinking> or a <tool:NAME> to pick xmltag",
	"glm/hermes-is-text.txtar":                     hermesCallElsewhere,
	"qwen3coder/hermes-json-is-text.txtar":         hermesCallElsewhere,
	"hermes/prose-mentions-tag.txtar":              glmBareName,
	"llama3/json-answer-is-text.txtar":             jsonNotACall,
	"llama3/missing-name-is-text.txtar":            jsonNotACall,
	"llama3/adversarial-braces-is-text.txtar":      jsonNotACall,
	"llama3/xlam-array-not-calls-is-text.txtar":    jsonNotACall,
	"llama3/xlam-empty-array-is-text.txtar":        jsonNotACall,
	"llama3/function-tag-qwen-form-is-text.txtar":  functionTag,
	"qwen3coder/llama-function-json-is-text.txtar": functionTag,
	"seedoss/qwen-call-is-text.txtar":              "a Qwen3-Coder call: seedoss reads it as text, qwen3coder as a call, which auto picks",
	"seedoss/think-tag-is-text.txtar":              "a <think> block, then prose: no syntax's evidence; seedoss reads the tag as text, auto's fallback as reasoning",
	"granite/unterminated-reasoning.txtar":         "a <think> block cut off, no syntax's evidence: granite words the cut as reasoning's, auto's fallback as <think>'s",
	"pythonic/olmo3-minimax-section-is-text.txtar": minimaxSection,
	"pythonic/olmo3-empty-block.txtar":             minimaxSection,
	"minimax/olmo-function-calls-pythonic.txtar":   olmoBody,
	"glimmer/ollama-malformed-atem.txtar":          glimmerNoOwnToken,
	"glimmer/call-cut-in-opener.txtar":             glimmerNoOwnToken,
	"glimmer/stray-end-marker.txtar":               "prose, then <|eot|> outside any message: no evidence (prose may name an end marker); glimmer drops the marker, auto's fallback keeps it as text",
	"glimmer/header-with-harmony-channel.txtar":    harmonyMessage,
	"native/not-json.txtar":                        "a line of prose, then SSE: native is evidenced only at the start of the input (else no prose could stream before a decision), so this is prose to auto",
}

const glimmerNoOwnToken = "a message to a tool cut off before any token of Glimmer's own (<|eom|>, <|eot|>, an ATEM block, to=self|user), its <|message|> Harmony's too: glimmer reads an error, auto's fallback text"

// TestAutoOnEveryGolden parses every golden case of every syntax with auto,
// whole and at several chunkings, in event and token mode: the events must
// be those of the case's own syntax. (Where a case has no marker at all,
// every syntax but native gives the same events, which is what this checks.)
func TestAutoOnEveryGolden(t *testing.T) {
	auto, err := registry.Lookup("auto")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range registry.Builtin() {
		dir := filepath.Join("..", "syntax", s.Name, "testdata")
		gs, err := syntaxtest.ReadGoldens(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			if why, ok := ambiguous[s.Name+"/"+filepath.Base(g.Path)]; ok {
				if d := cmp.Diff(syntax.Parse(s, g.Input, g.Options), syntax.Parse(auto, g.Input, g.Options)); d == "" {
					t.Errorf("%s: listed as ambiguous, but auto reads it as %s does; drop the entry", g.Path, s.Name)
				}
				t.Logf("%s: skipped: %s", g.Path, why)
				continue
			}
			n++
			want := syntax.Parse(s, g.Input, g.Options)
			topts := g.Options
			topts.Mode = syntax.TokenMode
			for _, size := range []int{len(g.Input) + 1, 1, 3, 17} {
				got := syntax.ParseChunks(auto, syntaxtest.Split(g.Input, size), g.Options)
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s in %d-byte chunks: auto differs from %s:\n%s", g.Path, size, s.Name, d)
					break
				}
				// In token mode, the same once the fragments are dropped.
				got = slices.DeleteFunc(syntax.ParseChunks(auto, syntaxtest.Split(g.Input, size), topts), func(e syntax.Event) bool { return e.Partial })
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s in %d-byte chunks, token mode without fragments: auto differs from %s:\n%s", g.Path, size, s.Name, d)
					break
				}
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d golden cases", n)
	}
}

func TestDetect(t *testing.T) {
	r := registry.Default()
	for in, want := range map[string]string{
		"Some prose first.\n\n<execute>[]</execute>":      "xmljson",
		"Let me see.\n^^^read_files\npath: a\n^^^":        "caret",
		"Plan:\n§call: {\"name\": \"x\"}\n§execute":       "delimiter",
		"Ok <tool:ls><param:p>.</param:p></tool:ls>":      "xmltag",
		"  {\"choices\": []}":                             "native",
		"event: ping\ndata: {\"type\":\"ping\"}\n":        "native",
		"[SYSTEM: hello]\n§respond: hi":                   "delimiter",
		"<thinking>a</thinking> then <think>x</think>":    "xmltag",
		"<think>x</think> then <execute>\n[]</execute>":   "xmljson",
		"<think>x</think>\n^^^ls\n^^^\n":                  "caret",
		"<think>\n<execute>[]</execute></think> §execute": "delimiter",
		"<tool:ls> <thinking>":                            "xmltag",
		"<results>\n  {}</results>":                       "xmljson",
		"[{\"type\":\"text\"}]":                           "native",
		"Text\n<end>":                                     "xmljson",
	} {
		s, ok := r.Detect([]byte(in))
		if !ok || s.Name != want {
			t.Errorf("Detect(%q) = %s, %v; want %s", in, s.Name, ok, want)
		}
	}
	for _, in := range []string{
		"Just prose, no markers <div>.",
		"I use <thinking> tags and then <think>x</think>", // <think> is shared: no evidence
		"Prose first.\ndata: {}\n",                        // native only at the start
		"[1, 2] is a list",
		"The <execute> tag holds calls.",
		"^^^ not a fence\n",
		"§ 12 and §executed",
	} {
		if s, ok := r.Detect([]byte(in)); ok {
			t.Errorf("Detect(%q) = %s: prose was taken for a syntax", in, s.Name)
		}
	}
}

// In event mode, while undecided, nothing is emitted and nothing is lost.
func TestAutoHoldsBackUntilEvidence(t *testing.T) {
	auto, _ := registry.Lookup("auto")
	var evs []syntax.Event
	p := auto.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{})
	p.Write([]byte("A long preamble "))
	p.Write([]byte("with no markers. "))
	if len(evs) != 0 {
		t.Fatalf("events before any evidence: %v", evs)
	}
	p.Write([]byte("§call: {\"name\": \"ls\"}\n§exec"))
	p.Write([]byte("ute\n"))
	p.Close()
	var types []syntax.Type
	for _, e := range evs {
		types = append(types, e.Type)
	}
	if d := cmp.Diff([]syntax.Type{"respond", "call", "execute", "end"}, types); d != "" {
		t.Error(d)
	}
	if evs[0].Content != "A long preamble with no markers." {
		t.Errorf("respond %q", evs[0].Content)
	}
}

// A long stream with no evidence, in tiny chunks, must not be rescanned on
// every write.
func TestAutoLongPreambleIsLinear(t *testing.T) {
	auto, _ := registry.Lookup("auto")
	prose := []byte("Prose with <angle> brackets, § signs, ^^^ carets and {braces} but no markers.\n")
	var in []byte
	for len(in) < 4<<20 {
		in = append(in, prose...)
	}
	evs := syntax.ParseChunks(auto, syntaxtest.Split(in, 16), syntax.Options{})
	// No evidence: the prose is held, then parsed as xmljson, in which it is
	// all text (cut into runs of at most the block limit).
	var text strings.Builder
	for _, e := range evs[:len(evs)-1] {
		if e.Type != syntax.Respond {
			t.Fatalf("event %s in prose with no markers", e)
		}
		text.WriteString(e.Content)
	}
	if evs[len(evs)-1].Type != syntax.End || text.Len() < len(in)-len(in)/100 {
		t.Fatalf("%d bytes of text back from %d of prose", text.Len(), len(in))
	}
}

// TestAutoProseMentioningExecute: prose that mentions the <execute> tag is
// not evidence for xmljson, so a caret block after it is still found, at
// every chunking; a tag followed by white space over chunk boundaries and
// then '[' is.
func TestAutoProseMentioningExecute(t *testing.T) {
	auto := registry.Default().Auto()
	for _, c := range []struct{ in, want string }{
		{"Calls go in the <execute> tag.\n^^^read_file\npath: a\n^^^\n", "caret"},
		{"Now:\n<execute>\n\n\n\n\n\n\n\n\n\n\n\n[{\"name\":\"ls\"}]</execute>\n^^^read_file\npath: a\n^^^\n", "xmljson"},
	} {
		s, _ := registry.Lookup(c.want)
		want := syntax.Parse(s, []byte(c.in), syntax.Options{})
		for _, n := range []int{1, 3, len(c.in)} {
			got := syntax.ParseChunks(auto, syntaxtest.Split([]byte(c.in), n), syntax.Options{})
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%q in %d-byte chunks: not read as %s (-want +got):\n%s", c.in, n, c.want, d)
			}
		}
	}
}

// TestAutoReadsEveryRenderer: what each renderer writes (a call alone,
// after text or after a thought, with plain and awkward arguments) auto
// reads as the same calls as the syntax that wrote it: the forms toolparse
// writes are forms it finds again. (Apriel's call block with no reasoning
// before it is Hunyuan's <tool_calls> block, and auto reads it as Hunyuan:
// the same calls, their ids included.)
func TestAutoReadsEveryRenderer(t *testing.T) {
	auto, err := registry.Lookup("auto")
	if err != nil {
		t.Fatal(err)
	}
	calls := func(evs []syntax.Event) []syntax.Event {
		return slices.DeleteFunc(evs, func(e syntax.Event) bool { return e.Type != syntax.Call })
	}
	n := 0
	for _, s := range registry.Builtin() {
		if !syntaxtest.WritesCalls(s) {
			continue
		}
		for _, before := range [][]syntax.Event{nil, {{Type: syntax.Respond, Content: "Let me check the weather."}}, {{Type: syntax.Think, Content: "The user wants the weather."}}} {
			for _, args := range []string{`{"city":"Paris"}`, `{"a":"</parameter>"}`, `{"q":"x\ny","n":3}`, `{}`} {
				evs := append(slices.Clone(before), syntax.Event{Type: syntax.Call, Name: "get_weather", ID: "call_1", Args: []byte(args)},
					syntax.Event{Type: syntax.Execute}, syntax.Event{Type: syntax.End})
				var out strings.Builder
				if err := syntax.Render(s.Render(&out, syntax.Options{}), evs); err != nil {
					continue // what the syntax cannot write is not its output
				}
				n++
				in := []byte(out.String())
				want, got := calls(syntax.Parse(s, in, syntax.Options{})), calls(syntax.Parse(auto, in, syntax.Options{}))
				if d := cmp.Diff(want, got, cmpopts.IgnoreFields(syntax.Event{}, "Span", "Pos")); d != "" {
					t.Errorf("%s wrote %q; auto reads other calls (-%s +auto):\n%s", s.Name, in, s.Name, d)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d rendered outputs", n)
	}
}

// TestAutoHarmonyOrGlimmer: Harmony and Glimmer share <|start|> and
// <|message|>, and each is told by tokens of its own; prose, or reasoning
// the prompt opened, that names the other's end marker decides nothing.
func TestAutoHarmonyOrGlimmer(t *testing.T) {
	auto, err := registry.Lookup("auto")
	if err != nil {
		t.Fatal(err)
	}
	open := syntax.Options{ThinkOpen: true}
	for _, c := range []struct {
		in   string
		opts syntax.Options
		want string
	}{
		{"Llama 4 ends a turn with <|eot|>.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>", syntax.Options{}, "hermes"},
		{"Llama ends turns with <|eot|> tokens.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"SF\"}<|call|>", open, "harmony"},
		{"Harmony ends with <|end|> tokens.<|eom|><|start|>assistant to=read<|message|><atem:function_calls>\n<atem:invoke name=\"read\">\n<atem:parameter name=\"path\">a</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eot|>", open, "glimmer"},
		{" to=self<|message|>Think.<|eom|><|start|>assistant to=read<|message|><atem:function_calls>\n<atem:invoke name=\"read\">\n</atem:invoke>\n</atem:function_calls>", syntax.Options{}, "glimmer"},
		{"<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary to=functions.read <|constrain|>json<|message|>{}<|call|>", syntax.Options{}, "harmony"},
	} {
		s, err := registry.Lookup(c.want)
		if err != nil {
			t.Fatal(err)
		}
		want := syntax.Parse(s, []byte(c.in), c.opts)
		if !slices.ContainsFunc(want, func(e syntax.Event) bool { return e.Type == syntax.Call }) {
			t.Fatalf("%q: %s reads no call in it", c.in, c.want)
		}
		for _, size := range []int{len(c.in), 1, 7} {
			if d := cmp.Diff(want, syntax.ParseChunks(auto, syntaxtest.Split([]byte(c.in), size), c.opts)); d != "" {
				t.Errorf("%q in %d-byte chunks: auto differs from %s:\n%s", c.in, size, c.want, d)
			}
		}
	}
}
