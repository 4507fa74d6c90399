package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestGoldensAtEveryChunkSize runs the CLI on every golden case of every
// syntax at several chunk sizes: the output must be the golden file's events.
func TestGoldensAtEveryChunkSize(t *testing.T) {
	n := 0
	for _, s := range registry.Builtin() {
		gs, err := syntaxtest.ReadGoldens(filepath.Join("..", "..", "syntax", s.Name, "testdata"))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			if g.Options != (syntax.Options{}) {
				continue // options are covered by the library tests
			}
			for _, size := range []string{"0", "1", "2", "3", "7", "64"} {
				n++
				args := []string{"-s", s.Name, "--chunk-size", size}
				if g.Tools != "" {
					args = append(args, "--tools", g.Tools)
				}
				code, out, errs := runCLI(t, string(g.Input), args...)
				if code != 0 || out != string(g.Events) {
					t.Errorf("%s at --chunk-size %s: exit %d, stderr %q\n got:\n%s\nwant:\n%s", g.Path, size, code, errs, out, g.Events)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no golden cases")
	}
}

func TestAutoIsTheDefault(t *testing.T) {
	for in, want := range map[string]string{
		"^^^ls\n^^^":                          `{"type":"call","name":"ls","args":{}}`,
		"§call: {\"name\": \"ls\"}\n§execute": `{"type":"call","name":"ls","args":{}}`,
		"<tool:ls></tool:ls>":                 `{"type":"call","name":"ls","args":{}}`,
	} {
		if code, out, _ := runCLI(t, in); code != 0 || !strings.Contains(out, want) {
			t.Errorf("%q with no --syntax: exit %d, out %s", in, code, out)
		}
	}
}

func TestExitCodes(t *testing.T) {
	bad := `<execute>[oops]</execute>`
	if code, _, _ := runCLI(t, bad, "-s", "xmljson"); code != 0 {
		t.Errorf("errors without --strict: exit %d, want 0", code)
	}
	if code, out, _ := runCLI(t, bad, "-s", "xmljson", "--strict"); code != 1 || !strings.Contains(out, `"type":"error"`) {
		t.Errorf("--strict: exit %d, want 1 with the error written", code)
	}
	if code, _, _ := runCLI(t, "fine", "--strict"); code != 0 {
		t.Errorf("--strict on good input: exit %d", code)
	}
	for _, args := range [][]string{{"-s", "nope"}, {"--mode", "fast"}, {"-o", "xml"}, {"--bogus"}, {"--chunk-size", "-1"}, {"/no/such/file"}} {
		code, _, errs := runCLI(t, "", args...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}

func TestInfoFlags(t *testing.T) {
	if code, out, _ := runCLI(t, "", "--list"); code != 0 || !strings.Contains(out, "xmljson (xml, cogency)") || !strings.Contains(out, "\nauto\t") {
		t.Errorf("--list: %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "--version"); code != 0 || !strings.HasPrefix(out, "toolparse ") {
		t.Errorf("--version: %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "-h"); code != 0 || !strings.Contains(out, "--chunk-size") || !strings.Contains(out, "Exit status") {
		t.Errorf("-h: %d %q", code, out)
	}
}

func TestFilesAndOutputs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	os.WriteFile(a, []byte("<think>hm</think>hi"), 0o644)
	code, out, _ := runCLI(t, "", a, a)
	if code != 0 || strings.Count(out, `{"type":"end","file":`) != 2 {
		t.Errorf("two files: exit %d, output %q; want one stream each", code, out)
	}
	code, out, _ = runCLI(t, "", "--spans", a)
	if code != 0 || !strings.Contains(out, `{"type":"think","content":"hm","span":[0,17]}`) {
		t.Errorf("--spans: %q", out)
	}
	_, out, _ = runCLI(t, "<think>a</think>x <execute>[{\"name\":\"ls\"}]</execute><results>[{\"tool\":\"ls\",\"status\":\"failure\",\"content\":\"no\"}]</results><execute>[", "-o", "text")
	for _, want := range []string{"think   a", "respond x", "call    ls {}", "result  ls failure: \"no\"", "error   1:"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("text output to a non-terminal has colors")
	}
	code, out, _ = runCLI(t, "Hello there", "--mode", "token", "--chunk-size", "5")
	if code != 0 || !strings.Contains(out, `"partial":true`) || !strings.Contains(out, `{"type":"respond","content":"Hello there"}`) {
		t.Errorf("token mode: %q", out)
	}
}

// examples are the transcripts shipped in testdata/examples, with their syntax.
var examples = map[string]string{
	"xmljson-turn.txt":     "xmljson",
	"caret-turn.txt":       "caret",
	"delimiter-turn.txt":   "delimiter",
	"xmltag-turn.txt":      "xmltag",
	"anthropic-stream.sse": "native",
	"openai-stream.sse":    "openai",
}

func TestExamplesParseCleanly(t *testing.T) {
	for file, syn := range examples {
		code, out, errs := runCLI(t, "", "-s", syn, "--strict", filepath.Join("..", "..", "testdata", "examples", file))
		if code != 0 || !strings.Contains(out, `"type":"call"`) {
			t.Errorf("%s: exit %d, stderr %q, output:\n%s", file, code, errs, out)
		}
	}
}

// writable lists the names --to takes: every built-in syntax with a
// renderer, and each variant that can be written.
func writable() []string {
	var names []string
	for _, s := range registry.Builtin() {
		if s.Render != nil {
			names = append(names, s.Name)
		}
		for _, v := range s.Variants {
			if v.Render != nil {
				names = append(names, v.Name)
			}
		}
	}
	return names
}

// TestTranscodeEveryPair writes every shipped example in every syntax and
// variant and parses the result back: the calls' names must survive in
// order, whatever else a syntax cannot carry (which --to reports on
// standard error).
func TestTranscodeEveryPair(t *testing.T) {
	targets := writable()
	for file, from := range examples {
		path := filepath.Join("..", "..", "testdata", "examples", file)
		_, orig, _ := runCLI(t, "", "-s", from, path)
		want := callNames(t, orig)
		for _, to := range targets {
			s, err := registry.Lookup(to)
			if err != nil {
				t.Fatalf("--to %s: %v", to, err)
			}
			if !syntaxtest.WritesCalls(s) {
				continue // no call form (kimivl): TestToNoCallForm
			}
			code, wire, errs := runCLI(t, "", "-s", from, "--to", to, path)
			if code != 0 {
				t.Errorf("%s --to %s: exit %d: %s", file, to, code, errs)
				continue
			}
			args := []string{"-s", to, "--multiple-blocks"} // one block per message only binds caret
			_, back, _ := runCLI(t, wire, args...)
			if got := callNames(t, back); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s --to %s: calls %v, want %v\nwritten:\n%s", file, to, got, want, wire)
			}
		}
	}
}

// TestToNoCallForm: writing calls in a syntax with no call form says, on
// standard error, that they are not carried, and the text and thoughts are
// written.
func TestToNoCallForm(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "examples", "qwen3-turn.txt")
	for _, s := range registry.Builtin() {
		if syntaxtest.WritesCalls(s) {
			continue
		}
		_, out, errs := runCLI(t, "", "--to", s.Name, path)
		if !strings.Contains(errs, "not written") || !strings.Contains(out, "I'll check both cities.") {
			t.Errorf("--to %s: stderr %q, output %q: want the calls reported as not carried and the text written", s.Name, errs, out)
		}
	}
}

// TestToStream: --to NAME --mode token writes a native form's stream, with
// no word on standard error, and native reads the calls back from it; a
// syntax that writes whole units says --mode token does nothing for it.
func TestToStream(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "examples", "qwen3-turn.txt")
	_, orig, _ := runCLI(t, "", path)
	want := callNames(t, orig)
	for to, first := range map[string]string{"openai": "data: {", "openai-responses": "event: response.created", "anthropic": "event: message_start", "gemini": "data: {", "ollama": "{"} {
		code, stream, errs := runCLI(t, "", "--to", to, "--mode", "token", "--chunk-size", "5", path)
		if code != 0 || errs != "" || !strings.HasPrefix(stream, first) {
			t.Errorf("--to %s --mode token: exit %d, stderr %q, output:\n%s", to, code, errs, stream)
			continue
		}
		_, back, _ := runCLI(t, stream, "-s", "native")
		if got := callNames(t, back); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("--to %s --mode token: calls %v, want %v\nwritten:\n%s", to, got, want, stream)
		}
	}
	if _, _, errs := runCLI(t, "", "--to", "glm", "--mode", "token", path); !strings.Contains(errs, "--mode token does nothing with --to glm") {
		t.Errorf("--to glm --mode token: stderr %q, want a word on --mode token", errs)
	}
}

func callNames(t *testing.T, jsonl string) []string {
	evs, err := syntaxtest.DecodeJSONL([]byte(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range evs {
		if e.Type == "call" {
			names = append(names, e.Name)
		}
	}
	return names
}

func TestConversationFlag(t *testing.T) {
	transcript := `[{"role":"user","content":"hi"},
{"role":"assistant","content":"<execute>[{\"name\":\"ls\"}]</execute>"},
{"role":"user","content":"<results>[{\"tool\":\"ls\",\"status\":\"success\",\"content\":\"a\"}]</results>"}]`
	code, out, errs := runCLI(t, transcript, "--conversation")
	if code != 0 || !strings.Contains(out, `{"type":"result","tool":"ls","status":"success","content":"a"}`) {
		t.Fatalf("exit %d, stderr %q, out:\n%s", code, errs, out)
	}
	code, out, _ = runCLI(t, transcript, "--conversation", "--to", "delimiter")
	if code != 0 || !strings.Contains(out, `[SYSTEM: a]`) || !strings.Contains(out, `§execute`) {
		t.Fatalf("--to delimiter: exit %d, out:\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "not json", "--conversation"); code != 2 {
		t.Errorf("a transcript that is not JSON: exit %d, want 2", code)
	}
}

func TestPromptCommand(t *testing.T) {
	tools := filepath.Join("..", "..", "testdata", "schemas", "mcp.json")
	for _, s := range writable() {
		code, out, errs := runCLI(t, "", "prompt", "--syntax", s, "--tools", tools)
		sx, err := registry.Lookup(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if sx.Prompt == "" {
			// No form to teach (kimivl): an error, never a prompt of
			// tools the model cannot call.
			if code != 2 || !strings.Contains(errs, "no prompt rules") {
				t.Errorf("prompt --syntax %s: exit %d, stderr %q, want 2 and a word that it has no prompt rules", s, code, errs)
			}
			continue
		}
		if code != 0 || !strings.Contains(out, "### read_file") || !strings.Contains(out, "## Examples") {
			t.Errorf("prompt --syntax %s: exit %d, stderr %q", s, code, errs)
		}
	}
	if code, _, _ := runCLI(t, "", "prompt", "--syntax", "xmljson"); code != 2 {
		t.Errorf("prompt without --tools: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, "", "prompt", "--tools", "/no/such.json"); code != 2 {
		t.Errorf("prompt with a missing file: exit %d, want 2", code)
	}
}

func TestToolsFlag(t *testing.T) {
	tools := filepath.Join("..", "..", "testdata", "schemas", "plain.json")
	code, out, _ := runCLI(t, "^^^read_file\npath: a\nlimit: 3\n^^^", "-s", "caret", "--tools", tools, "--strict")
	if code != 0 || !strings.Contains(out, `"args":{"path":"a","limit":3}`) {
		t.Errorf("exit %d, out %s", code, out)
	}
	code, out, _ = runCLI(t, `<execute>[{"name":"rm","args":{}}]</execute>`, "--tools", tools, "--strict")
	if code != 1 || !strings.Contains(out, `"invalid":"unknown tool`) {
		t.Errorf("unknown tool under --strict: exit %d, out %s", code, out)
	}
	if code, _, errs := runCLI(t, "", "--tools", "/no/such.json"); code != 2 || errs == "" {
		t.Errorf("missing tools file: exit %d", code)
	}
}

// TestToolsMaxDepth: --max-depth bounds the JSON a schema reads out of a
// string value, as it bounds the JSON of every syntax.
func TestToolsMaxDepth(t *testing.T) {
	tools := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(tools, []byte(`[{"name":"t","parameters":{"type":"object","properties":{"k":{"type":"array"}}}}]`), 0o644)
	in := "^^^t\nk: [[[[[[1]]]]]]\n^^^\n"
	_, out, _ := runCLI(t, in, "-s", "caret", "--tools", tools)
	if !strings.Contains(out, `"args":{"k":[[[[[[1]]]]]]}`) || strings.Contains(out, `"invalid"`) {
		t.Errorf("at the default depth the value is read:\n%s", out)
	}
	_, out, _ = runCLI(t, in, "-s", "caret", "--tools", tools, "--max-depth", "3")
	if !strings.Contains(out, `nests deeper than the arguments may (3 levels)`) || !strings.Contains(out, `"code":"schema"`) {
		t.Errorf("--max-depth 3 does not bound it:\n%s", out)
	}
}

// TestVariantsEverywhere: a variant's name picks its form on every path that
// writes events.
func TestVariantsEverywhere(t *testing.T) {
	in := `<execute>[{"name":"ls","args":{}}]</execute>`
	_, out, _ := runCLI(t, in, "-s", "xmljson", "--to", "openai")
	if !strings.Contains(out, `"tool_calls":[{"id":"call_1","type":"function"`) {
		t.Errorf("--to openai:\n%s", out)
	}
	_, out, _ = runCLI(t, in, "-s", "xmljson", "--to", "anthropic")
	if !strings.Contains(out, `{"type":"tool_use","id":"call_1","name":"ls"`) {
		t.Errorf("--to anthropic:\n%s", out)
	}
	for to, want := range map[string]string{
		"gemini":           `{"functionCall":{"name":"ls","args":{},"id":"call_1"}}`,
		"ollama":           `"tool_calls":[{"id":"call_1","function":{"name":"ls","arguments":{}}}]`,
		"openai-responses": `{"type":"function_call","call_id":"call_1","name":"ls","arguments":"{}"}`,
	} {
		if code, out, errOut := runCLI(t, in, "-s", "xmljson", "--to", to); code != 0 || !strings.Contains(out, want) {
			t.Errorf("--to %s: exit %d, %q, %q", to, code, out, errOut)
		}
	}
	convo := `[{"role":"assistant","content":"<execute>[{\"name\":\"ls\",\"args\":{}}]</execute>"}]`
	_, out, _ = runCLI(t, convo, "-s", "xmljson", "--conversation", "--to", "openai")
	if !strings.Contains(out, `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function"`) {
		t.Errorf("--conversation --to openai:\n%s", out)
	}
	_, out, _ = runCLI(t, "", "--list")
	if !strings.Contains(out, "  openai\tOpenAI Chat Completions messages") {
		t.Errorf("--list does not show native's forms:\n%s", out)
	}
}

// TestBuildVersion: --version says what the build recorded: the module
// version, else the VCS revision, else "devel".
func TestBuildVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123"}}
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: rev}, true, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, true, "0123456789ab"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})}, true, "0123456789ab+dirty"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
	} {
		if got := buildVersion(c.info, c.ok); got != c.want {
			t.Errorf("buildVersion(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
	if _, out, _ := runCLI(t, "", "--version"); out != "toolparse "+buildVersion(debug.ReadBuildInfo())+"\n" {
		t.Errorf("--version: %q", out)
	}
}

func TestHelpCommand(t *testing.T) {
	code, out, _ := runCLI(t, "", "help")
	if code != 0 || !strings.Contains(out, "Usage: toolparse [flags] [FILE...]") || !strings.Contains(out, "--chunk-size") {
		t.Errorf("help: exit %d, out %q", code, out)
	}
	code, out, _ = runCLI(t, "", "help", "prompt")
	if code != 0 || !strings.Contains(out, "Usage: toolparse prompt") || !strings.Contains(out, "--tools") {
		t.Errorf("help prompt: exit %d, out %q", code, out)
	}
	if code, out, errs := runCLI(t, "", "help", "nope"); code != 2 || out != "" || !strings.Contains(errs, `no help on "nope"`) {
		t.Errorf("help nope: exit %d, out %q, stderr %q", code, out, errs)
	}
}

// TestSubcommandAmongFlags: a subcommand is the first argument that is not a
// flag or a flag's value, wherever it stands; after "--" it is a FILE.
func TestSubcommandAmongFlags(t *testing.T) {
	tools := filepath.Join("..", "..", "testdata", "schemas", "mcp.json")
	for _, args := range [][]string{
		{"-s", "caret", "prompt", "--tools", tools},
		{"--syntax", "caret", "prompt", "--tools", tools},
		{"--syntax=caret", "prompt", "--tools", tools},
		{"-scaret", "prompt", "--tools", tools},
		{"prompt", "-s", "caret", "--tools", tools},
	} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(out, "### read_file") || !strings.Contains(out, "^^^") {
			t.Errorf("%q: exit %d, stderr %q, out %.80q", args, code, errs, out)
		}
	}
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	os.WriteFile("prompt", []byte("^^^ls\n^^^"), 0o644)
	code, out, errs := runCLI(t, "", "-s", "caret", "--", "prompt")
	if code != 0 || !strings.Contains(out, `"type":"call","name":"ls"`) {
		t.Errorf(`-- prompt reads the file "prompt": exit %d, stderr %q, out %q`, code, errs, out)
	}
	code, out, _ = runCLI(t, "", "-s", "caret", "./prompt", "prompt")
	if code != 0 || strings.Count(out, `"name":"ls"`) != 2 {
		t.Errorf("prompt after a FILE is a FILE: exit %d, out %q", code, out)
	}
}

// TestBadFlagOneLine: a bad flag gives one line naming it and where help is,
// not the whole usage.
func TestBadFlagOneLine(t *testing.T) {
	for args, want := range map[string]string{
		"--foo":                   "toolparse: unknown flag --foo (see toolparse --help)\n",
		"-x":                      "toolparse: unknown flag 'x' in -x (see toolparse --help)\n",
		"--syntax":                "toolparse: flag needs an argument: --syntax (see toolparse --help)\n",
		"prompt --foo":            "toolparse prompt: unknown flag --foo (see toolparse help prompt)\n",
		"prompt --syntax xmljson": "toolparse prompt: --tools FILE is required (see toolparse help prompt)\n",
		"--chunk-size x":          "toolparse: invalid argument \"x\" for \"--chunk-size\" flag: strconv.ParseInt: parsing \"x\": invalid syntax (see toolparse --help)\n",
	} {
		code, out, errs := runCLI(t, "", strings.Fields(args)...)
		if code != 2 || out != "" || errs != want {
			t.Errorf("%s: exit %d, out %q, stderr %q; want 2 and %q", args, code, out, errs, want)
		}
	}
}

func TestColor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if isTerminal(devnull) {
		t.Error("/dev/null is taken for a terminal")
	}
	for _, c := range []struct {
		mode string
		env  func(string) string
		want bool
	}{
		{"always", env("NO_COLOR", "1", "TERM", "dumb"), true},
		{"never", env(), false},
		{"auto", env("TERM", "xterm"), false}, // a buffer is not a terminal
	} {
		got, err := useColor(c.mode, &bytes.Buffer{}, c.env)
		if err != nil || got != c.want {
			t.Errorf("--color %s: %v %v, want %v", c.mode, got, err, c.want)
		}
	}
	if _, err := useColor("sometimes", nil, env()); err == nil {
		t.Error("--color sometimes: no error")
	}
	in := `<execute>[{"name":"ls"}]</execute>`
	if _, out, _ := runCLI(t, in, "-o", "text", "--color", "always"); !strings.Contains(out, "\x1b[") {
		t.Errorf("--color always: no colors in %q", out)
	}
	if _, out, _ := runCLI(t, in, "-o", "text", "--color", "never"); strings.Contains(out, "\x1b[") {
		t.Errorf("--color never: colors in %q", out)
	}
	if code, _, errs := runCLI(t, in, "-o", "text", "--color", "maybe"); code != 2 || !strings.Contains(errs, "--color must be auto, always or never") {
		t.Errorf("--color maybe: exit %d, %q", code, errs)
	}
}

// TestFileField: with several FILEs each event names its FILE (like grep -H),
// after its type; --no-filename turns that off; one FILE gets no name.
func TestFileField(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a<1>.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("hi"), 0o644)
	os.WriteFile(b, []byte(`<execute>[{"name":"ls"}]</execute>`), 0o644)
	_, out, _ := runCLI(t, "", "--spans", a, b)
	want := `{"type":"respond","file":"` + a + `","content":"hi","span":[0,2]}` + "\n" +
		`{"type":"end","file":"` + a + `","span":[2,2]}` + "\n"
	if !strings.HasPrefix(out, want) || !strings.Contains(out, `{"type":"call","file":"`+b+`","name":"ls"`) {
		t.Errorf("several FILEs:\n%s\nwant it to start:\n%s", out, want)
	}
	if _, out, _ := runCLI(t, "", "--no-filename", a, b); strings.Contains(out, `"file"`) {
		t.Errorf("--no-filename:\n%s", out)
	}
	if _, out, _ := runCLI(t, "", a); strings.Contains(out, `"file"`) {
		t.Errorf("one FILE:\n%s", out)
	}
	if _, out, _ := runCLI(t, "x", a, "-"); !strings.Contains(out, `{"type":"respond","file":"-","content":"x"}`) {
		t.Errorf("standard input among FILEs:\n%s", out)
	}
}

// TestUselessOptionsSaySo: options that do nothing together say so on
// standard error, and the command still runs.
func TestUselessOptionsSaySo(t *testing.T) {
	in := `<execute>[{"name":"ls"}]</execute>`
	for args, want := range map[string]string{
		"--spans -o text":               "--spans does nothing with -o text",
		"-o text --to caret":            "-o text does nothing with --to",
		"--spans --to caret":            "--spans does nothing with --to",
		"--to caret --mode token":       "--mode token does nothing with --to",
		"--color always":                "--color does nothing with -o jsonl",
		"--no-filename -o text":         "--no-filename does nothing with -o text",
		"--conversation --chunk-size 3": "--chunk-size does nothing with --conversation",
	} {
		stdin := in
		if strings.Contains(args, "conversation") {
			stdin = `[{"role":"assistant","content":"hi"}]`
		}
		code, _, errs := runCLI(t, stdin, strings.Fields(args)...)
		if code != 0 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want %q", args, code, errs, want)
		}
	}
	if _, _, errs := runCLI(t, in, "-o", "text", "--color", "never"); errs != "" {
		t.Errorf("-o text --color never: stderr %q", errs)
	}
}

// failWriter takes limit bytes, then fails every write, as a full disk does.
type failWriter struct{ limit int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.limit {
		w.limit -= len(p)
		return len(p), nil
	}
	n := w.limit
	w.limit = 0
	return n, errors.New("no space left on device")
}

// TestWriteFailureExits2: a failure to write the output exits 2 with a
// message on every path, wherever the output fails.
func TestWriteFailureExits2(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.txt")
	os.WriteFile(file, []byte(`<think>hm</think><execute>[{"name":"ls"}]</execute>`), 0o644)
	convoFile := filepath.Join(dir, "convo.json")
	os.WriteFile(convoFile, []byte(`[{"role":"assistant","content":"<execute>[{\"name\":\"ls\"}]</execute>"}]`), 0o644)
	tools := filepath.Join("..", "..", "testdata", "schemas", "mcp.json")
	for _, args := range [][]string{
		{file},
		{file, file},
		{"-o", "text", file},
		{"--to", "caret", file},
		{"--to", "openai", file},
		{"--conversation", convoFile},
		{"--conversation", "--to", "delimiter", convoFile},
		{"prompt", "--tools", tools},
		{"--list"},
		{"--version"},
		{"--help"},
		{"help"},
		{"help", "prompt"},
	} {
		for _, limit := range []int{0, 5} {
			var errb bytes.Buffer
			code := run(args, strings.NewReader(""), &failWriter{limit: limit}, &errb)
			if code != 2 || !strings.Contains(errb.String(), "toolparse: writing output: no space left on device") {
				t.Errorf("%q, output failing after %d bytes: exit %d, stderr %q; want 2 and a message", args, limit, code, errb.String())
			}
		}
	}
}

// TestMissingLaterFile: when a FILE cannot be opened, the events of the
// FILEs before it, their end included, are written, the FILEs after it are
// still parsed, and the exit status is 2.
func TestMissingLaterFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	os.WriteFile(a, []byte("hi"), 0o644)
	missing := filepath.Join(dir, "missing.txt")
	for _, args := range [][]string{{a, missing, a}, {"--to", "delimiter", a, missing}, {"-o", "text", a, missing}} {
		code, out, errs := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(errs, "missing.txt") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and the missing file named", args, code, errs)
		}
		if !strings.Contains(out, "hi") {
			t.Errorf("%q: the first FILE's events are not written:\n%s", args, out)
		}
	}
	_, out, _ := runCLI(t, "", a, missing, a)
	if strings.Count(out, `{"type":"end","file":"`+a+`"}`) != 2 {
		t.Errorf("not every readable FILE's stream is written, end included:\n%s", out)
	}
}

// TestConversationToWritesPlainJSON: --conversation --to writes < and > as
// they are, like every other path, and counts what it cannot carry under
// --strict.
func TestConversationToWritesPlainJSON(t *testing.T) {
	transcript := `[{"role":"assistant","content":"a <b> c <execute>[{\"name\":\"ls\"}]</execute>"}]`
	code, out, errs := runCLI(t, transcript, "-s", "xmljson", "--conversation", "--to", "xmljson")
	if code != 0 || !strings.Contains(out, `<execute>`) || strings.Contains(out, `\u003c`) {
		t.Errorf("exit %d, stderr %q, out:\n%s", code, errs, out)
	}
	bad := `[{"role":"assistant","content":"<execute>[oops]</execute>"}]`
	if code, _, _ := runCLI(t, bad, "-s", "xmljson", "--conversation", "--to", "caret", "--strict"); code != 1 {
		t.Errorf("an error event under --conversation --to --strict: exit %d, want 1", code)
	}
}

// TestDetectCommand: "toolparse detect" answers from a model name and from
// a chat template, one JSON line; an unknown name is exit 1 with the
// families tried.
func TestDetectCommand(t *testing.T) {
	code, out, errs := runCLI(t, "", "detect", "--model", "Qwen/Qwen3-Coder-30B-A3B-Instruct")
	if code != 0 || !strings.HasPrefix(out, `{"syntax":"qwen3coder","think_open":false,"evidence":`) || errs != "" {
		t.Errorf("detect --model: %d %q %q", code, out, errs)
	}
	tmpl := filepath.Join(t.TempDir(), "chat.jinja")
	os.WriteFile(tmpl, []byte("{%- if tools %}<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>{%- endif %}\n{%- if add_generation_prompt %}<|im_start|>assistant\n<think>\n{%- endif %}"), 0o644)
	code, out, _ = runCLI(t, "", "detect", "--template", tmpl)
	if code != 0 || !strings.HasPrefix(out, `{"syntax":"hermes","think_open":true,`) {
		t.Errorf("detect --template: %d %q", code, out)
	}
	code, _, errs = runCLI(t, "", "detect", "--model", "acme-chat-7b")
	if code != 1 || !strings.Contains(errs, "tried") {
		t.Errorf("detect an unknown model: %d %q", code, errs)
	}
}

// TestReadmeCommands runs every command the README shows: each "go run
// ./cmd/toolparse …" and "toolparse …" line of its sh blocks, from the
// repository's root, must exit 0 and write something (a command shown is a
// command that works as written).
func TestReadmeCommands(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	n := 0
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(readme), -1) {
		for _, line := range strings.Split(block[1], "\n") {
			line, _, _ = strings.Cut(line, "#")
			line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
			var args []string
			switch {
			case strings.HasPrefix(line, "go run ./cmd/toolparse"):
				args = strings.Fields(strings.TrimPrefix(line, "go run ./cmd/toolparse"))
			case strings.HasPrefix(line, "toolparse "):
				args = strings.Fields(strings.TrimPrefix(line, "toolparse"))
			default:
				continue
			}
			n++
			code, out, errs := runCLI(t, "", args...)
			if code != 0 || out == "" {
				t.Errorf("README: toolparse %s: exit %d, %d bytes out, stderr %q", strings.Join(args, " "), code, len(out), errs)
			}
		}
	}
	if n < 10 {
		t.Errorf("%d commands found in the README", n)
	}
}

// TestCLIWording: a directory given as FILE is named once, and said to be a
// directory; a prompt's error carries no doubled prefix.
func TestCLIWording(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := runCLI(t, "", dir)
	if code != 2 || strings.Count(errs, "read") > 0 || !strings.Contains(errs, dir+": is a directory") {
		t.Errorf("a directory: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "prompt", "-s", "auto", "--tools", filepath.Join("..", "..", "testdata", "schemas", "examples.json"))
	if code != 2 || strings.Contains(errs, "prompt: prompt:") {
		t.Errorf("prompt -s auto: exit %d, %q", code, errs)
	}
}

// FuzzCLIOutput: whatever the input, every line the CLI writes (auto, event
// and token mode, and written back as Anthropic and OpenAI) is valid UTF-8
// JSON, one document a line — invalid UTF-8 in a call's arguments was once
// copied raw into the output.
func FuzzCLIOutput(f *testing.F) {
	for _, s := range []string{
		`<execute>[{"name":"w","args":{"t":"a` + "\xff" + `b"}}]</execute>`,
		"<tool_call>{\"name\":\"w\",\"arguments\":{\"t\":\"\xfe\"}}</tool_call>",
		`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"w","arguments":"{\"t\":\"x\"}"}}]}`,
		"^^^w\nt: a\xffb\n^^^\n",
		"[TOOL_CALLS][{\"name\":\"w\",\"arguments\":{\"t\":\"\xc3\"}}]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, args := range [][]string{{}, {"--mode", "token"}, {"--to", "anthropic"}, {"--to", "openai"}} {
			var out, errb bytes.Buffer
			run(args, bytes.NewReader(in), &out, &errb)
			for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				if line == "" {
					continue
				}
				if !utf8.ValidString(line) || !json.Valid([]byte(line)) {
					t.Fatalf("toolparse %v wrote a line that is not UTF-8 JSON: %q", args, line)
				}
			}
		}
	})
}

// TestServe runs toolparse serve against a fake backend on the loopback
// interface: a Chat Completions client gets the call the backend model
// wrote as Hermes text as a native tool call.
func TestServe(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}\n</tool_call>"},"finish_reason":null}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer backend.Close()
	addrs := make(chan string, 1)
	stops := make(chan func(), 1)
	done := make(chan int, 1)
	var errs bytes.Buffer
	dir := t.TempDir()
	go func() {
		done <- runServe([]string{"--listen", "127.0.0.1:0", "--backend", backend.URL + "/v1", "--syntax", "hermes", "--quiet", "--record", dir}, io.Discard, &errs,
			func(addr string, stop func()) { addrs <- addr; stops <- stop })
	}()
	var addr string
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("serve ended: %d: %s", code, errs.String())
	}
	res, err := http.Post("http://"+addr+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"ls"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"tool_calls":[{"id":`) || !strings.Contains(string(body), `"name":"ls"`) {
		t.Errorf("status %d: %s", res.StatusCode, body)
	}
	// The recording replays: toolparse replay gives the events the client
	// got (a streamed Anthropic client, with tools).
	res, err = http.Post("http://"+addr+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","max_tokens":99,"stream":true,"messages":[{"role":"user","content":"ls"}],"tools":[{"name":"ls","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	replays, _ := filepath.Glob(filepath.Join(dir, "*.replay.json"))
	var checked int
	for _, r := range replays {
		base := strings.TrimSuffix(r, ".replay.json")
		code, out, stderr := runCLI(t, "", "replay", base)
		client, err := os.ReadFile(base + ".client")
		if code != 0 || err != nil {
			t.Fatalf("replay %s: exit %d, %v: %s", base, code, err, stderr)
		}
		if !strings.HasPrefix(string(client), "event: ") {
			continue // the whole Chat response: the replay writes its stream
		}
		view := func(b []byte) string {
			var v []string
			native, _ := registry.Lookup("native")
			for _, e := range syntax.Parse(native, b, syntax.Options{}) {
				if !e.Partial && e.Type != syntax.End {
					v = append(v, string(e.Type)+":"+e.Name+string(e.Args)+e.Content)
				}
			}
			return strings.Join(v, "\n")
		}
		if got, want := view([]byte(out)), view(client); got != want || !strings.Contains(want, "call:ls") {
			t.Errorf("replay %s gives\n%s\nthe client got\n%s", base, got, want)
		}
		checked++
	}
	if checked != 1 {
		t.Errorf("%d streamed recordings replayed, of %v", checked, replays)
	}
	(<-stops)()
	if code := <-done; code != 0 {
		t.Errorf("serve exit %d: %s", code, errs.String())
	}
}
