package registry_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// readTable reads a tab-separated table of testdata, its comment lines and
// header skipped.
func readTable(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	header := true
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		if header {
			header = false
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows
}

// TestForModel: every real model name of testdata/models.tsv gives its
// syntax, or for a family whose calls no syntax reads an error that says
// so; an unknown name is an error that lists what was tried.
func TestForModel(t *testing.T) {
	rows := readTable(t, "models.tsv")
	if len(rows) < 100 {
		t.Fatalf("%d model names", len(rows))
	}
	covered := map[string]bool{}
	for _, r := range rows {
		name, want := r[0], r[2]
		m, err := registry.ForModel(name)
		switch {
		case want == "none" && err == nil:
			t.Errorf("ForModel(%q) = %s (%s), want an error: no syntax reads it", name, m.Syntax.Name, m.Evidence)
		case want == "none":
			if !strings.Contains(err.Error(), "no syntax reads") {
				t.Errorf("ForModel(%q): %v", name, err)
			}
		case err != nil:
			t.Errorf("ForModel(%q): %v, want %s", name, err, want)
		case m.Syntax.Name != want:
			t.Errorf("ForModel(%q) = %s (%s), want %s", name, m.Syntax.Name, m.Evidence, want)
		default:
			covered[want] = true
		}
	}
	for _, s := range registry.List() {
		if len(s.Models) > 0 && !covered[s.Name] {
			t.Errorf("no model name of the table gives %s", s.Name)
		}
	}
	if _, err := registry.ForModel("acme-chat-7b"); err == nil || !strings.Contains(err.Error(), "tried") {
		t.Errorf("an unknown name: %v", err)
	}
}

// TestForTemplate: every real chat template of the shared set (read from
// ../shared/templates, never copied here) gives the syntax and ThinkOpen of
// testdata/templates.tsv.
func TestForTemplate(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "templates")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the shared chat templates are not there: %v", err)
		}
		t.Skipf("the shared chat templates are not there (%v): CI runs this", err)
	}
	rows := readTable(t, "templates.tsv")
	covered := map[string]bool{}
	for _, r := range rows {
		file, want, wantOpen := r[0], r[1], r[2] == "true"
		text, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := registry.ForTemplate(string(text))
		switch {
		case want == "none" || want == "notools":
			if err == nil {
				t.Errorf("%s: %s (%s), want an error (%s)", file, m.Syntax.Name, m.Evidence, want)
			}
		case err != nil:
			t.Errorf("%s: %v, want %s", file, err, want)
		case m.Syntax.Name != want:
			t.Errorf("%s: %s (%s), want %s", file, m.Syntax.Name, m.Evidence, want)
		case m.Options.ThinkOpen != wantOpen:
			t.Errorf("%s: ThinkOpen %v (%s), want %v (%s)", file, m.Options.ThinkOpen, m.Evidence, wantOpen, r[3])
		default:
			covered[want] = true
		}
	}
	for _, s := range registry.List() {
		if len(s.Templates) > 0 && !covered[s.Name] {
			t.Errorf("no template of the set gives %s", s.Name)
		}
	}
}

// TestVariantNameKept: a variant's name looked up gives the syntax with the
// variant's renderer and its name (Syntax.Variant), so that what writes a
// conversation knows the form without asking the renderer.
func TestVariantNameKept(t *testing.T) {
	for _, name := range []string{"anthropic", "openai", "openai-responses", "gemini", "ollama"} {
		s, err := registry.Lookup(name)
		if err != nil || s.Name != "native" || s.Variant != name {
			t.Errorf("Lookup(%q) = %q variant %q, %v", name, s.Name, s.Variant, err)
		}
	}
	if s, _ := registry.Lookup("native"); s.Variant != "" {
		t.Errorf("native's own variant is %q", s.Variant)
	}
}

// TestForModelNameForms: the same model under the names people meet it by —
// bartowski's Org_Model repositories and files, a Windows path, an OpenAI
// fine-tune, a Bedrock id, Mistral's API names — and ThinkOpen from a name
// whose template opens reasoning.
func TestForModelNameForms(t *testing.T) {
	for name, want := range map[string]string{
		"bartowski/Qwen_Qwen3-8B-GGUF":                       "hermes",
		"Qwen_Qwen3-8B-Q4_K_M.gguf":                          "hermes",
		"hf.co/bartowski/Qwen_Qwen3-8B-GGUF:Q4_K_M":          "hermes",
		"bartowski/deepseek-ai_DeepSeek-R1-0528-GGUF":        "deepseek",
		`C:\models\Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf`: "qwen3coder",
		"ft:gpt-4o-mini-2024-07-18:org::abc":                 "native",
		"anthropic.claude-3-5-sonnet-20240620-v1:0":          "native",
		"open-mistral-nemo":                                  "native",
		"devstral-small-latest":                              "native",
		"mistralai/Devstral-Small-2507":                      "mistral",
	} {
		m, err := registry.ForModel(name)
		if err != nil || m.Syntax.Name != want {
			t.Errorf("ForModel(%q) = %s, %v; want %s", name, m.Syntax.Name, err, want)
		}
	}
	if _, err := registry.ForModel("bartowski/google_gemma-3-27b-it-GGUF"); err == nil || !strings.Contains(err.Error(), "no syntax reads") {
		t.Errorf("Gemma 3 under bartowski's name: %v", err)
	}
	for _, name := range []string{"Qwen/Qwen3.5-9B", "MiniMaxAI/MiniMax-M2", "zai-org/GLM-4.7-Flash", "baidu/ERNIE-4.5-21B-A3B-Thinking"} {
		if m, err := registry.ForModel(name); err != nil || !m.Options.ThinkOpen {
			t.Errorf("ForModel(%q): ThinkOpen %v, %v", name, m.Options.ThinkOpen, err)
		}
	}
}

// TestThinkOpenIdioms: the Jinja a template switches reasoning with, read
// as Jinja reads it with the variable left at its default (undefined unless
// the template gives one).
func TestThinkOpenIdioms(t *testing.T) {
	head := `{%- for tool in tools %}{{ tool | tojson }}{% endfor %}<tool_call>{"name": ..., "arguments": ...}</tool_call>` + "\n"
	for tmpl, want := range map[string]bool{
		`{%- if add_generation_prompt and enable_thinking %}{{- "<|im_start|>assistant\n<think>\n" }}{%- elif add_generation_prompt %}{{- "<|im_start|>assistant\n" }}{%- endif %}`:                                  false,
		`{%- if add_generation_prompt %}{{- "<|im_start|>assistant\n" }}{%- if enable_thinking | default(true) %}{{- "<think>\n" }}{%- endif %}{%- endif %}`:                                                         true,
		`{%- if add_generation_prompt %}{{- "<|im_start|>assistant\n" }}{%- if reasoning_effort != "none" %}{{- "<think>\n" }}{%- endif %}{%- endif %}`:                                                              true,
		`{%- set thinking_mode = thinking_mode | default("enabled") %}{%- if add_generation_prompt %}{{- "<|im_start|>assistant\n" }}{%- if thinking_mode == "enabled" %}{{- "<think>\n" }}{%- endif %}{%- endif %}`: true,
		`{%- if add_generation_prompt %}{{- "<|im_start|>assistant\n" }}{%- if enable_thinking is false %}{{- "<think>\n\n</think>\n\n" }}{%- else %}{{- "<think>\n" }}{%- endif %}{%- endif %}`:                     true,
		`{%- if add_generation_prompt %}{{- "<|im_start|>assistant\n" }}{%- if enable_thinking %}{{- "<think>\n" }}{%- endif %}{%- endif %}`:                                                                         false,
	} {
		m, err := registry.ForTemplate(head + tmpl)
		if err != nil || m.Options.ThinkOpen != want {
			t.Errorf("%s: ThinkOpen %v (%s), want %v; %v", tmpl, m.Options.ThinkOpen, m.Evidence, want, err)
		}
	}
}

// TestForModelVariant: a model that writes a variant's form gets the
// syntax with that variant, its renderer and its prompt.
func TestForModelVariant(t *testing.T) {
	for _, c := range []struct{ model, syntax, variant, marker string }{
		{"google/functiongemma-270m-it", "gemma", "functiongemma", "<start_function_call>"},
		{"allenai/Olmo-3-7B-Instruct", "pythonic", "olmo3", "<function_calls>"},
		{"openbmb/MiniCPM4-8B", "pythonic", "minicpm4", "```python"},
		{"Salesforce/Llama-xLAM-2-8b-fc-r", "llama3", "xlam", `[{"name"`},
		{"google/gemma-4-31B-it", "gemma", "", "<|tool_call>"},
		{"deepseek-ai/DeepSeek-V4-Flash", "deepseek", "deepseek-v4", "<｜DSML｜tool_calls>"},
		{"deepseek-ai/DeepSeek-V3.2", "deepseek", "deepseek-dsml", "<｜DSML｜function_calls>"},
		{"meetkai/functionary-small-v2.5", "functionary", "functionary-v2", "<|content|>"},
	} {
		m, err := registry.ForModel(c.model)
		if err != nil {
			t.Errorf("%s: %v", c.model, err)
			continue
		}
		if m.Syntax.Name != c.syntax || m.Syntax.Variant != c.variant {
			t.Errorf("%s: syntax %s variant %q, want %s variant %q", c.model, m.Syntax.Name, m.Syntax.Variant, c.syntax, c.variant)
		}
		if !strings.Contains(m.Syntax.Prompt, c.marker) {
			t.Errorf("%s: the prompt does not name %s:\n%s", c.model, c.marker, m.Syntax.Prompt)
		}
		var b strings.Builder
		if err := syntax.Render(m.Syntax.Render(&b, syntax.Options{}), []syntax.Event{{Type: syntax.Call, Name: "f", Args: []byte(`{"a":"x"}`)}, {Type: syntax.Execute}}); err != nil {
			t.Errorf("%s: %v", c.model, err)
		}
		if !strings.Contains(b.String(), strings.TrimSuffix(c.marker, `"name"`)) {
			t.Errorf("%s: the renderer wrote %q, not %s's form", c.model, b.String(), c.marker)
		}
	}
}

// TestForTemplateVariant: a template that teaches a variant's form gets the
// syntax with that variant, its renderer and its prompt.
func TestForTemplateVariant(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "templates")
	for _, c := range []struct{ file, syntax, variant, marker string }{
		{"llama-cpp-microsoft-Phi-4-mini-instruct.jinja", "granite", "phi4-llamacpp", "<|/tool_call|>"},
		{"hfjs-meetkai-functionary-medium-v2.2.jinja", "functionary", "functionary-v2", "<|content|>"},
	} {
		text, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal(err)
			}
			t.Skipf("the shared chat templates are not there (%v): CI runs this", err)
		}
		m, err := registry.ForTemplate(string(text))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if m.Syntax.Name != c.syntax || m.Syntax.Variant != c.variant {
			t.Errorf("%s: syntax %s variant %q, want %s variant %q", c.file, m.Syntax.Name, m.Syntax.Variant, c.syntax, c.variant)
		}
		if !strings.Contains(m.Syntax.Prompt, c.marker) {
			t.Errorf("%s: the prompt does not name %s", c.file, c.marker)
		}
		var b strings.Builder
		if err := syntax.Render(m.Syntax.Render(&b, syntax.Options{}), []syntax.Event{{Type: syntax.Call, Name: "f", Args: []byte(`{"a":"x"}`)}, {Type: syntax.Execute}}); err != nil || !strings.Contains(b.String(), c.marker) {
			t.Errorf("%s: the renderer wrote %q (%v), not the form with %s", c.file, b.String(), err, c.marker)
		}
	}
}
