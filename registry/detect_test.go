package registry_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

// golden is a golden case with the syntax whose folder holds it.
type golden struct {
	s    syntax.Syntax
	g    *syntaxtest.Golden
	name string // "<syntax>/<file>"
}

// allGoldens reads every golden case of every registered syntax.
func allGoldens(t *testing.T) []golden {
	t.Helper()
	var out []golden
	for _, s := range registry.List() {
		dir := filepath.Join("..", "syntax", s.Name, "testdata")
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		gs, err := syntaxtest.ReadGoldens(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			out = append(out, golden{s, g, s.Name + "/" + filepath.Base(g.Path)})
		}
	}
	if len(out) < 200 {
		t.Fatalf("only %d golden cases", len(out))
	}
	return out
}

// falseClaims lists the golden cases in which a detector confirms evidence
// of its syntax, and that syntax reads the case differently from the case's
// own: what auto does there is documented in the package.
var falseClaims = map[string]string{
	"hermes in glm/hermes-is-text.txtar":                                                         hermesCallElsewhere,
	"hermes in qwen3coder/hermes-json-is-text.txtar":                                             hermesCallElsewhere,
	"glm in hermes/prose-mentions-tag.txtar":                                                     glmBareName,
	"native in llama3/json-answer-is-text.txtar":                                                 jsonNotACall,
	"native in llama3/missing-name-is-text.txtar":                                                jsonNotACall,
	"native in llama3/adversarial-braces-is-text.txtar":                                          jsonNotACall,
	"native in llama3/xlam-array-not-calls-is-text.txtar":                                        jsonNotACall,
	"native in llama3/xlam-empty-array-is-text.txtar":                                            jsonNotACall,
	"llama3 in qwen3coder/llama-function-json-is-text.txtar":                                     functionTag,
	"qwen3coder in llama3/function-tag-qwen-form-is-text.txtar":                                  functionTag,
	"pythonic in llama3/functionary-meetkai-19-fixture-assistant-turn-12-text-python-code.txtar": codeAfterTag,
	"pythonic in functionary/meetkai-21-fixture-assistant-turn-12-text-python-code.txtar":        codeAfterTag,
	"qwen3coder in seedoss/*":                                                                    qwenBodyInSeed,
	"hunyuan in apriel/*":                                                                        aprielBlockInHunyuan,
	"minimax in pythonic/olmo3-minimax-section-is-text.txtar":                                    minimaxSection,
	"minimax in pythonic/olmo3-empty-block.txtar":                                                minimaxSection,
	"pythonic in minimax/olmo-function-calls-pythonic.txtar":                                     olmoBody,
	"hermes in kimivl/tool-call-markers-are-text.txtar":                                          kimiVLFirst,
	"solaropen in functionary/*":                                                                 contentInHead,
	"harmony in glimmer/header-with-harmony-channel.txtar":                                       harmonyMessage,
}

const harmonyMessage = "a Harmony message (<|start|>, a header holding <|channel|>): glimmer reads it as text, harmony as its message, which auto picks"

const contentInHead = "Functionary v2's segment head (RECIPIENT, a line end, <|content|>) holds Solar Open's content marker: solaropen's detector sees <|content|>, but functionary's head comes first, which auto picks"

const kimiVLFirst = "another format's call after a Kimi-VL thought: that format's detector sees the call, but kimivl's ◁think▷ (no other format's) comes first, which auto picks, and kimivl reads no calls"

const olmoBody = "<function_calls> then a Python call is an Olmo 3 block: minimax reads it as text, pythonic as calls, which auto picks"

const minimaxSection = "<function_calls> then <invoke …> or the closer is minimax's section (an empty one its error): pythonic reads it as text, or as an empty Olmo 3 block; auto picks minimax"

const aprielBlockInHunyuan = "an Apriel call block (<tool_calls>[…]) is Hunyuan's too: hunyuan's detector sees it, but Apriel's [BEGIN FINAL RESPONSE] (or its reasoning opened by the prompt) comes first, which auto picks"

const qwenBodyInSeed = "a Seed-OSS call or a thought quoting one: qwen3coder reads its bare <function=NAME><parameter=… as a call, but seedoss's evidence (<seed:tool_call> then <function=, or <seed:think>) comes first, which auto picks"

const hermesCallElsewhere = "a Hermes call (<tool_call> then JSON): glm and qwen3coder read it as text, hermes as a call, which auto picks"

const glmBareName = "<tool_call>WORD</tool_call> in prose: a GLM call with no arguments to glm (the earliest evidence), prose to hermes"

const functionTag = "<function=NAME> then '{' is Llama 3.1's (and Functionary v3.1's) function form, which llama3 reads and qwen3coder leaves as text; then a parameter tag, Qwen3-Coder's bare call, which qwen3coder reads and llama3 leaves as text: each syntax's detector claims its own, which auto picks"

const codeAfterTag = "code for a python tool (after Llama 3's <|python_tag|>, or Functionary's python segment) holding [int(…), …]: pythonic's evidence, after the format's own, which auto picks"

const jsonNotACall = "a JSON object (or an array) that opens the input and is no call: native reads it as a document (an error: no provider's shape), llama3 as prose; auto takes native, whose evidence is at the first byte"

// TestDetectorsClaimNothingFalse runs every syntax's detector over every
// other syntax's golden cases: where it confirms evidence, its syntax must
// read the case exactly as the case's own syntax does (prose, say), or the
// claim is false: auto could choose the wrong syntax for it.
func TestDetectorsClaimNothingFalse(t *testing.T) {
	gs := allGoldens(t)
	claims := 0
	used := map[string]bool{}
	for _, x := range registry.List() {
		n, bad := falseClaimsOf(x, gs)
		claims += n
		for _, b := range bad {
			key := b.key
			why, ok := falseClaims[key]
			if !ok {
				key = b.key[:strings.LastIndex(b.key, "/")+1] + "*"
				why, ok = falseClaims[key]
			}
			if ok {
				used[key] = true
				t.Logf("%s: known: %s", b.key, why)
				continue
			}
			t.Error(b.msg)
		}
	}
	t.Logf("%d claims on other syntaxes' cases, each read alike", claims)
	for key := range falseClaims {
		if !used[key] {
			t.Errorf("falseClaims[%q]: no such claim any more; drop the entry", key)
		}
	}

	// The check itself: a detector that takes any '<' for evidence of
	// xmljson makes false claims on other syntaxes' cases.
	eager := xmljson.Syntax
	eager.Name = "eager"
	eager.Detect = func(syntax.Options) syntax.Detector { return markDetector{"<", ""} }
	if _, bad := falseClaimsOf(eager, gs); len(bad) == 0 {
		t.Error("an eager detector made no false claim")
	}
}

type claim struct{ key, msg string }

// falseClaimsOf returns how many of the other syntaxes' cases x's detector
// claims, and the claims whose case x reads differently.
func falseClaimsOf(x syntax.Syntax, gs []golden) (int, []claim) {
	if x.Detect == nil {
		return 0, nil
	}
	n := 0
	var bad []claim
	for _, c := range gs {
		if c.s.Name == x.Name {
			continue
		}
		ev := x.Detect(syntax.Options{}).Look(c.g.Input, true)
		if ev.At < 0 {
			continue
		}
		n++
		if d := cmp.Diff(syntax.Parse(c.s, c.g.Input, c.g.Options), syntax.Parse(x, c.g.Input, c.g.Options)); d != "" {
			bad = append(bad, claim{x.Name + " in " + c.name, fmt.Sprintf(
				"%s's detector claims %s (evidence at %d, %q), but %s reads it differently (-%s +%s):\n%s",
				x.Name, c.name, ev.At, clip(c.g.Input[ev.At:]), x.Name, c.s.Name, x.Name, d)})
		}
	}
	return n, bad
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// TestDetectorContract feeds every detector every golden input (and a few
// made-up ones) at several chunkings and checks the rules of
// syntax.Evidence: what it reports does not depend on the chunking, pending
// and confirmed evidence bound what a longer input can show, and Prose only
// grows.
func TestDetectorContract(t *testing.T) {
	inputs := [][]byte{
		[]byte("<thinking>a</thinking>"), []byte("<think>x</think>\n^^^ls\n^^^\n"), []byte("\n  [ \n {}]"),
		[]byte("§exec§execute"), []byte("[SYSTEM: x]\n[SYS"), []byte("<execute>   \n  </execute>"),
		[]byte("<results>\n<think>"), []byte("<tool:a.b-c>"), []byte("data:[1]"), []byte("event:x"),
	}
	for _, c := range allGoldens(t) {
		inputs = append(inputs, c.g.Input)
	}
	// And marker soup: pieces of every syntax's markers, whole and cut off.
	pieces := []string{"<think>", "</think>", "<execute>", "</execute>", "[", "]", `{"name":"ls"}`, "<results>", "<end>",
		"\n^^^read\npath: a\n^^^\n", "^^^", "^", "\n", " ", `§call: {"name":"x"}`, "§execute", "§end", "§think:", "§EXEC",
		"[SYSTEM: ok]\n", "[SYS", "<thinking>", "</thinking>", "<tool:ls>", "<tool:", "</tool:ls>", "data: {}\n", "data:",
		"event:", "{", "é", "prose ", "<t", "<e", "§", "\xc2"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var in []byte
		for k := rng.IntN(10); k >= 0; k-- {
			in = append(in, pieces[rng.IntN(len(pieces))]...)
		}
		inputs = append(inputs, in)
	}
	for _, s := range registry.List() {
		if s.Detect == nil {
			continue
		}
		for _, in := range inputs {
			whole := s.Detect(syntax.Options{}).Look(in, true)
			if whole.Pending >= 0 {
				t.Errorf("%s on %q: pending %d at eof", s.Name, clip(in), whole.Pending)
			}
			for _, n := range []int{1, 3, 17, 97} {
				if err := detectChunked(s, in, n, whole, syntax.Options{}); err != nil {
					t.Errorf("%s on %q in %d-byte chunks: %v", s.Name, clip(in), n, err)
					break
				}
			}
		}
	}
}

func detectChunked(s syntax.Syntax, in []byte, n int, whole syntax.Evidence, opts syntax.Options) error {
	d := s.Detect(opts)
	prose := 0
	for end := 0; end < len(in); {
		end = min(end+n, len(in))
		seen := in[:end]
		ev := d.Look(seen, false)
		if n == 97 { // the same as a fresh detector given this prefix at once
			if fresh := s.Detect(opts).Look(seen, false); fresh != ev {
				return fmt.Errorf("at %d: %+v; a fresh detector says %+v", end, ev, fresh)
			}
		}
		lb := len(seen)
		for _, o := range []int{ev.At, ev.Pending} {
			if o >= 0 {
				lb = min(lb, o)
			}
		}
		switch {
		case whole.At >= 0 && whole.At < lb:
			return fmt.Errorf("at %d: %+v, but the whole input has evidence at %d", end, ev, whole.At)
		case ev.At >= 0 && (ev.Pending < 0 || ev.Pending > ev.At) && whole.At != ev.At:
			return fmt.Errorf("at %d: evidence at %d, but the whole input's is at %d", end, ev.At, whole.At)
		case ev.Prose < prose || ev.Prose > len(seen):
			return fmt.Errorf("at %d: prose %d after %d", end, ev.Prose, prose)
		case ev.At >= 0 && ev.Prose > ev.At || ev.Pending >= 0 && ev.Prose > ev.Pending:
			return fmt.Errorf("at %d: prose %d past evidence %+v", end, ev.Prose, ev)
		case ev.Never && (whole.At >= 0 || !whole.Never):
			return fmt.Errorf("at %d: never, but the whole input says %+v", end, whole)
		}
		prose = ev.Prose
	}
	if last := d.Look(in, true); last != whole {
		return fmt.Errorf("at the end: %+v, whole: %+v", last, whole)
	}
	return nil
}

// TestAutoDecisionPastTheLimit: evidence is looked for in the first
// BlockLimit bytes only, whole and chunked alike: a caret block after 150
// bytes of prose, at MaxBlock 100, is text (xmljson) at every chunking.
func TestAutoDecisionPastTheLimit(t *testing.T) {
	auto := registry.Default().Auto()
	prose := strings.Repeat("Some prose. ", 13)[:150]
	in := []byte(prose + "\n^^^read_file\npath: a\n^^^\n")
	opts := syntax.Options{MaxBlock: 100}
	want := syntax.Parse(xmljson.Syntax, in, opts)
	for _, n := range []int{len(in), 1, 3, 10, 17, 99, 100, 101} {
		got := syntax.ParseChunks(auto, syntaxtest.Split(in, n), opts)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("MaxBlock 100, %d-byte chunks: not xmljson's events (-want +got):\n%s", n, d)
		}
	}
	// Inside the window, the block is found at every chunking.
	opts.MaxBlock = 1000
	caret, _ := registry.Lookup("caret")
	want = syntax.Parse(caret, in, opts)
	for _, n := range []int{len(in), 1, 10} {
		if d := cmp.Diff(want, syntax.ParseChunks(auto, syntaxtest.Split(in, n), opts)); d != "" {
			t.Errorf("MaxBlock 1000, %d-byte chunks: not caret's events (-want +got):\n%s", n, d)
		}
	}
}

// The same at the default limit of 8 MiB.
func TestAutoDecisionPastTheDefaultLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("8 MiB of prose")
	}
	auto := registry.Default().Auto()
	in := append(bytes.Repeat([]byte("Prose, no markers.\n"), syntax.DefaultMaxBlock/19+10), "^^^read_file\npath: a\n^^^\n"...)
	summary := func(evs []syntax.Event) string {
		var b strings.Builder
		for _, e := range evs {
			fmt.Fprintf(&b, "%s:%s ", e.Type, e.Name)
		}
		return b.String()
	}
	whole := summary(syntax.Parse(auto, in, syntax.Options{}))
	if strings.Contains(whole, "call") {
		t.Errorf("a caret block past the window was found: %s", whole)
	}
	if got := summary(syntax.ParseChunks(auto, syntaxtest.Split(in, 4096), syntax.Options{})); got != whole {
		t.Errorf("in 4 KiB chunks: %s; whole: %s", got, whole)
	}
}

// TestAutoPendingEvidenceWaits: xmltag's <thinking> at 10 is confirmed only
// by its </thinking> at 39, delimiter's §call: at 20 at once. Whole, the
// earlier evidence wins; chunked, auto must wait for <thinking> to be
// decided instead of taking §call: as soon as it is confirmed.
func TestAutoPendingEvidenceWaits(t *testing.T) {
	auto := registry.Default().Auto()
	in := []byte(`Hi there. <thinking>§call: {"name": "ls"}</thinking> done`)
	xmltag, _ := registry.Lookup("xmltag")
	want := syntax.Parse(xmltag, in, syntax.Options{})
	for n := 1; n <= len(in); n++ {
		if d := cmp.Diff(want, syntax.ParseChunks(auto, syntaxtest.Split(in, n), syntax.Options{})); d != "" {
			t.Fatalf("%d-byte chunks: not xmltag's events (-want +got):\n%s", n, d)
		}
	}
	// Without the </thinking>, the §call: is the evidence.
	in = []byte(`Hi there. <thinking>§call: {"name": "ls"}`)
	delimiter, _ := registry.Lookup("delimiter")
	want = syntax.Parse(delimiter, in, syntax.Options{})
	for _, n := range []int{1, 26, len(in)} {
		if d := cmp.Diff(want, syntax.ParseChunks(auto, syntaxtest.Split(in, n), syntax.Options{})); d != "" {
			t.Fatalf("%d-byte chunks: not delimiter's events (-want +got):\n%s", n, d)
		}
	}
}

// markDetector is a made-up detector: evidence is mark, confirmed once
// confirm has come after it (at once when confirm is empty); pending while
// mark is cut off at the end, or before its confirm comes. It rescans from
// the start: it is for small test inputs only.
type markDetector struct{ mark, confirm string }

func (m markDetector) Look(seen []byte, eof bool) syntax.Evidence {
	i := bytes.Index(seen, []byte(m.mark))
	if i < 0 {
		for k := min(len(m.mark)-1, len(seen)); k > 0 && !eof; k-- {
			if bytes.HasSuffix(seen, []byte(m.mark[:k])) {
				return syntax.Evidence{At: -1, Pending: len(seen) - k, Prose: len(seen) - k}
			}
		}
		return syntax.NoEvidence(len(seen))
	}
	if bytes.Contains(seen[i+len(m.mark):], []byte(m.confirm)) {
		return syntax.Evidence{At: i, Pending: -1, Prose: i}
	}
	if eof {
		return syntax.Evidence{At: -1, Pending: -1, Prose: i}
	}
	return syntax.Evidence{At: -1, Pending: i, Prose: i}
}

// named makes a syntax whose parser reports only its own name, as a
// respond event: which syntax auto chose.
func named(name, mark, confirm string) syntax.Syntax {
	return syntax.Syntax{
		Name:   name,
		Detect: func(syntax.Options) syntax.Detector { return markDetector{mark, confirm} },
		New: func(h syntax.Handler, opts syntax.Options) syntax.Parser {
			return &namer{h: h, name: name}
		},
	}
}

type namer struct {
	h    syntax.Handler
	name string
}

func (n *namer) Write(b []byte) (int, error) { return len(b), nil }
func (n *namer) Close() error {
	n.h(syntax.Event{Type: syntax.Respond, Content: n.name})
	n.h(syntax.Event{Type: syntax.End})
	return nil
}

// TestAutoRule checks the rule with made-up syntaxes, at every chunking:
// the earliest evidence wins, pending evidence before it is waited for, and
// at the same place the name that sorts first wins.
func TestAutoRule(t *testing.T) {
	for _, c := range []struct {
		syntaxes []syntax.Syntax
		in, want string
	}{
		// A's marker at 10, confirmed at 30; B's at 20, confirmed at 25.
		{[]syntax.Syntax{named("a", "[a", "]"), named("b", "(b)", "")}, "0123456789[a 34567(b)234567890]", "a"},
		{[]syntax.Syntax{named("a", "[a", "]"), named("b", "(b)", "")}, "0123456789[a 34567(b)234567890", "b"},
		// A tie at 2: "a" sorts first, and is waited for while pending.
		{[]syntax.Syntax{named("b", "(b)", ""), named("a", "(", "!")}, "xx(b)yyyy!", "a"},
		{[]syntax.Syntax{named("b", "(b)", ""), named("a", "(", "!")}, "xx(b)yyyy", "b"},
		{[]syntax.Syntax{named("b", "(b)", ""), named("c", "(b", "")}, "xx(b)yyyy", "b"},
		// No evidence: the fallback, the first by name without xmljson.
		{[]syntax.Syntax{named("b", "(b)", ""), named("c", "(b", "")}, "xx", "b"},
	} {
		r, err := registry.New(c.syntaxes...)
		if err != nil {
			t.Fatal(err)
		}
		auto := r.Auto()
		for n := 1; n <= len(c.in); n++ {
			evs := syntax.ParseChunks(auto, syntaxtest.Split([]byte(c.in), n), syntax.Options{})
			if len(evs) != 2 || evs[0].Content != c.want {
				t.Errorf("%q in %d-byte chunks: chose %v, want %s", c.in, n, evs, c.want)
				break
			}
		}
	}
}

// TestAutoSharedMarker: <think> is shared by xmljson with most model formats,
// so it is no evidence: while only it has been seen, auto is undecided
// (nothing comes out in event mode); what follows decides.
func TestAutoSharedMarker(t *testing.T) {
	auto := registry.Default().Auto()
	var evs []syntax.Event
	p := auto.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{})
	p.Write([]byte("<think>Which tool?</think>\nI will read it.\n"))
	if len(evs) != 0 {
		t.Fatalf("events while only a shared marker was seen: %v", evs)
	}
	p.Write([]byte("^^^read_file\npath: a\n^^^\n"))
	p.Close()
	var types []syntax.Type
	for _, e := range evs {
		types = append(types, e.Type)
	}
	// caret reads <think> as text.
	if d := cmp.Diff([]syntax.Type{"respond", "call", "execute", "end"}, types); d != "" {
		t.Errorf("events %v:\n%s", evs, d)
	}
	// An <execute> block inside a thought is thought, in xmljson too: no evidence.
	in := []byte("<think>Maybe <execute>[{\"name\":\"x\"}]</execute>?</think>\n§call: {\"name\": \"ls\"}\n§execute\n")
	if s, ok := registry.Default().Detect(in); !ok || s.Name != "delimiter" {
		t.Errorf("Detect = %s, %v; want delimiter", s.Name, ok)
	}
	// With only shared markers to the end, xmljson reads the input as any
	// syntax with <think> would.
	in = []byte("<think>hm</think> The answer is 4.")
	if _, ok := registry.Default().Detect(in); ok {
		t.Error("<think> was taken for evidence")
	}
	want := []syntax.Event{{Type: syntax.Think, Content: "hm"}, {Type: syntax.Respond, Content: "The answer is 4."}, {Type: syntax.End}}
	if d := cmp.Diff(want, syntax.Parse(auto, in, syntax.Options{}), cmpNoSpans); d != "" {
		t.Error(d)
	}
}

var cmpNoSpans = cmp.Transformer("nospan", func(e syntax.Event) syntax.Event { e.Span = syntax.Span{}; return e })

// TestAutoStreamsProse: in token mode, a prose answer streams as it arrives,
// before auto has decided anything; the events are still those of the
// chosen syntax.
func TestAutoStreamsProse(t *testing.T) {
	auto := registry.Default().Auto()
	var evs []syntax.Event
	p := auto.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{Mode: syntax.TokenMode})
	var streamed strings.Builder
	chunks := []string{"  The answer", " is 42 ", "— as far as I can tell", ". Ask me < or > anything", " else.\n"}
	for _, c := range chunks {
		p.Write([]byte(c))
		for _, e := range evs {
			if !e.Partial || e.Type != syntax.Respond {
				t.Fatalf("before Close: %s", e)
			}
			streamed.WriteString(e.Content)
		}
		evs = evs[:0]
	}
	got := streamed.String()
	if want := "The answer is 42 — as far as I can tell. Ask me "; !strings.HasPrefix(got, want) {
		t.Errorf("streamed before Close: %q, want at least %q", got, want)
	}
	p.Close()
	all := strings.Join(chunks, "")
	var whole []syntax.Event
	for _, e := range evs {
		if e.Partial {
			streamed.WriteString(e.Content)
		} else {
			whole = append(whole, e)
		}
	}
	if streamed.String() != strings.TrimLeft(all, " ") {
		t.Errorf("fragments join to %q", streamed.String())
	}
	want := []syntax.Event{{Type: syntax.Respond, Content: strings.TrimSpace(all)}, {Type: syntax.End}}
	if d := cmp.Diff(want, whole, cmpNoSpans); d != "" {
		t.Error(d)
	}

	// Prose, then a marker: the prose streams, then the chosen parser goes
	// on from where it stopped.
	in := []byte("Let me look at the file first.\n^^^read_file\npath: a.txt\n^^^\n")
	evs = nil
	p = auto.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{Mode: syntax.TokenMode})
	p.Write(in[:20])
	// The "f" waits: it may start functools[, a word that opens a call.
	if len(evs) != 1 || !evs[0].Partial || evs[0].Content != "Let me look at the " {
		t.Errorf("after 20 bytes: %v", evs)
	}
	p.Write(in[20:])
	p.Close()
	if err := syntaxtest.Check(auto, in, syntaxtest.Config{}); err != nil {
		t.Error(err)
	}
}

// TestAutoProseStopsAtMarkers: streaming stops where any syntax that may
// still be chosen sees a marker, shared markers and cut-off ones included.
func TestAutoProseStopsAtMarkers(t *testing.T) {
	auto := registry.Default().Auto()
	for in, want := range map[string]string{
		"Hello <think>x":         "Hello ",
		"Hello <thi":             "Hello ",
		"Hello\n^^":              "Hello\n",
		"Hello §ca":              "Hello ",
		"Hello\n[SYSTEM: x]":     "Hello\n",
		"Say <thinking> more":    "Say ",
		"Say <execute> now, ok.": "Say <execute> now, ok.", // prose that mentions the tag
		"{\"choices\": [":        "",                       // native
		"data: {":                "",
	} {
		var got strings.Builder
		p := auto.New(func(e syntax.Event) { got.WriteString(e.Content) }, syntax.Options{Mode: syntax.TokenMode})
		p.Write([]byte(in))
		if got.String() != want {
			t.Errorf("%q streamed %q before Close, want %q", in, got.String(), want)
		}
	}
}

// TestAutoPassesTheKit runs the conformance kit on auto with every golden
// input: its events do not depend on chunking (at the golden's limits and at
// a MaxBlock of 64), token mode streams prose and still gives the event-mode
// events once fragments are dropped, and a handler cannot re-enter it.
func TestAutoPassesTheKit(t *testing.T) {
	auto := registry.Default().Auto()
	for _, c := range allGoldens(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each case is independent: the suite uses every core
			cfg := syntaxtest.Config{Options: c.g.Options, RandomSplits: 5, MaxExhaustive: 128}
			if syntaxtest.Full() { // CI's full pass (TOOLPARSE_FULL)
				cfg.MaxExhaustive = 512
			}
			if err := syntaxtest.Check(auto, c.g.Input, cfg); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		})
	}
}

// TestAutoPendingIsLinear: evidence that stays pending over many writes (an
// unclosed <thinking>, an <execute> tag followed by white space, a leading
// "[" followed by white space, a <think> block) must not make detection
// rescan the held input at each write: 2 MiB in 16-byte chunks, in token
// mode too.
func TestAutoPendingIsLinear(t *testing.T) {
	auto := registry.Default().Auto()
	const size = 2 << 20
	for _, c := range []struct{ head, fill string }{
		{"Hello <thinking>", "thought "},
		{"Hello <execute>", " \n"},
		{"[", " \n"},
		{"<think>", "thought "},
		{"Hi ", "prose "},
		{"Hi\n[SYSTEM: ", "words "}, // a result line no ']' ends: delimiter's parser waits on it
	} {
		in := []byte(c.head + strings.Repeat(c.fill, size/len(c.fill)))
		for _, mode := range []syntax.Mode{syntax.EventMode, syntax.TokenMode} {
			evs := syntax.ParseChunks(auto, syntaxtest.Split(in, 16), syntax.Options{Mode: mode})
			if len(evs) == 0 || evs[len(evs)-1].Type != syntax.End {
				t.Errorf("%q…: no end", c.head)
			}
		}
	}
}

// FuzzDetectorContract checks every detector's contract (see
// TestDetectorContract) on any input: most detectors are their syntax's
// parser (scan.NewDetector), so this is also a check that each parser's
// decisions, and where it makes them, do not depend on the chunking.
// Its seeds are a few mixed markers (TestDetectorContract runs the goldens).
func FuzzDetectorContract(f *testing.F) {
	for _, s := range []string{
		"Hi <think>x</think><tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>",
		`<tool_call>{"name":"f","arguments":{}}</tool_call> <minimax:tool_call><invoke name="f"></invoke>`,
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
		"Ok.<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}",
		"<execute>[{\"name\":\"ls\"}]</execute>\n^^^read\npath: a\n^^^\n",
		"data: {\"choices\":[]}\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 1024 {
			return
		}
		for _, s := range registry.List() {
			if s.Detect == nil {
				continue
			}
			for _, opts := range []syntax.Options{{}, {ThinkOpen: true}} {
				whole := s.Detect(opts).Look(in, true)
				if whole.Pending >= 0 {
					t.Errorf("%s (%+v): pending %d at eof", s.Name, opts, whole.Pending)
				}
				for _, n := range []int{1, 7, 97} {
					if err := detectChunked(s, in, n, whole, opts); err != nil {
						t.Errorf("%s (%+v) in %d-byte chunks: %v", s.Name, opts, n, err)
						break
					}
				}
			}
		}
	})
}
