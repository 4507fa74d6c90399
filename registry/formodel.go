package registry

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/toolparse/toolparse/syntax"
)

// Match is the syntax a model name or a chat template calls for, with the
// options to read it with and what decided it.
type Match struct {
	Syntax  syntax.Syntax
	Options syntax.Options // ThinkOpen when the template's generation prompt opens reasoning
	// Evidence says what decided: the pattern the name matched, or the
	// markers the template holds (and, for ThinkOpen, what opens it).
	Evidence string
}

// unread are model families whose tool calls no built-in syntax reads: a
// name or a template of theirs is a clear "no syntax reads …", not a
// guess at a syntax whose markers they share.
var unread = []struct {
	family    string
	models    []string
	templates []syntax.Fingerprint
}{
	{"Gemma 2 and 3 (no tool tokens)", []string{"gemma-3*", "gemma3*", "gemma-2*", "gemma2*"}, nil},
	{"MiroThinker (<use_mcp_tool>)", []string{"mirothinker*"}, []syntax.Fingerprint{{All: []string{"<use_mcp_tool>"}}}},
	{"Llama 3.0 (no tool format)", []string{"meta-llama-3-*", "llama3", "llama-3-[0-9]*"}, nil},
}

// thinkOpenModels are the models whose chat template, as published, opens
// reasoning in the generation prompt (by default): read from their templates
// (the shared set the tests read). A name is only a hint; the template
// decides (ForTemplate).
var thinkOpenModels = []string{
	"deepseek-r1-distill*", "qwq*", "*-thinking-2507*", "qwen3.5*", "qwen3.6*", "*nemotron-3-nano*", "*nemotron-nano-*v2*", "apriel*",
	"glm-4.7*", "glm-5*", "minimax-m2*", "step-3.5*", "step3.5*", "step3", "step3-*", "step-3", "step-3-*", "ernie-4.5*thinking*", "kimi-k3*",
}

// normalise reduces a model name to what the patterns are matched
// against: lower case, without an organisation or a path ("Qwen/…",
// "hf.co/org/…"), an Ollama or OpenRouter tag (":30b", ":free"), a file
// extension (".gguf") and quantisation or packaging suffixes ("-Q4_K_M",
// "-GGUF", "-AWQ", "-4bit", "-00001-of-00003").
func normalise(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.ReplaceAll(n, `\`, "/") // a Windows path
	n = strings.TrimPrefix(n, "ft:")    // an OpenAI fine-tune: ft:BASE:ORG::ID
	n = strings.TrimSuffix(n, ".gguf")
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	for _, vendor := range []string{"anthropic.", "meta.", "mistral.", "cohere.", "amazon.", "ai21.", "us.anthropic.", "eu.anthropic."} {
		n = strings.TrimPrefix(n, vendor) // a Bedrock id
	}
	if i := strings.IndexByte(n, ':'); i >= 0 {
		n = n[:i]
	}
	for {
		m := quantSuffix.FindStringIndex(n)
		if m == nil || m[0] == 0 {
			return n
		}
		n = n[:m[0]]
	}
}

var quantSuffix = regexp.MustCompile(`[-._](ud-)?(i?q[0-9]_[a-z0-9_]+|q[0-9]_[0-9]|bf16|f16|f32|fp8|fp16|mxfp4|gguf|gptq[a-z0-9-]*|awq|mlx|[0-9]bit|[0-9]+-of-[0-9]+)$`)

// patternMatch reports whether name matches the glob p, and where in name
// the first literal text of p matched (a family named at the start of a
// name is its family; "Hermes-3-Llama-3.1" is Hermes).
func patternMatch(p, name string) (at int, ok bool) {
	if ok, _ := path.Match(p, name); !ok {
		return 0, false
	}
	lit := strings.TrimLeft(p, "*?")
	if i := strings.IndexAny(lit, "*?["); i >= 0 {
		lit = lit[:i]
	}
	return max(strings.Index(name, lit), 0), true
}

// literal is how much of a pattern is literal text: the more, the more
// specific.
func literal(p string) int {
	n := 0
	for _, c := range p {
		if c != '*' && c != '?' {
			n++
		}
	}
	return n
}

// ForModel finds the syntax of the default registry that a model writes
// its tool calls in, from its name: a Hugging Face id
// ("Qwen/Qwen3-Coder-30B-A3B-Instruct"), an Ollama tag ("qwen3-coder:30b"),
// a GGUF file ("Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf"), an OpenRouter
// id ("qwen/qwen3-coder"), or an API model ("claude-sonnet-4-5", "gpt-4o":
// native). See [Registry.ForModel].
func ForModel(name string) (Match, error) { return defaultRegistry.ForModel(name) }

// ForModel finds the syntax for a model name among the Models patterns of
// the registered syntaxes (see syntax.Syntax.Models). The name is matched
// lower-cased without its organisation, tag, file extension and
// quantisation; of the patterns that match, the one whose text is found
// earliest in the name wins (a family is named first: "Hermes-3-Llama-3.1"
// is Hermes), then the longest ("qwen3-coder*" over "qwen3*"). A model
// family whose calls no syntax reads, and a name no pattern matches, are an
// error that says so and lists the families tried.
func (r *Registry) ForModel(name string) (Match, error) {
	m, err := r.forModel(name, normalise(name))
	if err != nil {
		// An "Org_Model" name (bartowski's GGUF repositories and files,
		// LM Studio): the model's own name after the organisation's.
		if n := normalise(name); strings.Contains(n, "_") {
			_, rest, _ := strings.Cut(n, "_")
			if m2, err2 := r.forModel(name, rest); err2 == nil || strings.Contains(err2.Error(), "no syntax reads") {
				return m2, err2
			}
		}
	}
	return m, err
}

func (r *Registry) forModel(name, n string) (Match, error) {
	r.mu.RLock()
	list := slices.Clone(r.list)
	r.mu.RUnlock()
	best, bestAt, bestLen := -1, 0, 0 // best: an index of list, -2 for a family no syntax reads
	bestVariant := -1                 // the index of the variant whose Models matched, or -1
	var bestPattern, unreadFamily string
	consider := func(i, v int, p string, family string) {
		at, ok := patternMatch(p, n)
		if !ok {
			return
		}
		if best == -1 || at < bestAt || at == bestAt && literal(p) > bestLen {
			best, bestVariant, bestAt, bestLen, bestPattern, unreadFamily = i, v, at, literal(p), p, family
		}
	}
	for i, s := range list {
		for _, p := range s.Models {
			consider(i, -1, p, "")
		}
		for v, vr := range s.Variants {
			for _, p := range vr.Models {
				consider(i, v, p, "")
			}
		}
	}
	for _, u := range unread {
		for _, p := range u.models {
			consider(-2, -1, p, u.family)
		}
	}
	switch {
	case best >= 0:
		s := list[best]
		if bestVariant >= 0 {
			s = withVariant(s, s.Variants[bestVariant])
		}
		m := Match{Syntax: s, Evidence: fmt.Sprintf("model name %q (as %q) matches %q", name, n, bestPattern)}
		for _, p := range thinkOpenModels {
			if ok, _ := path.Match(p, n); ok {
				m.Options.ThinkOpen = true
				m.Evidence += fmt.Sprintf("; its chat template opens reasoning in the prompt (%q; the template decides: ForTemplate)", p)
				break
			}
		}
		return m, nil
	case best == -2:
		return Match{}, fmt.Errorf("no syntax reads the tool calls of %q (as %q, %q): %s", name, n, bestPattern, unreadFamily)
	}
	return Match{}, fmt.Errorf("no syntax known for model %q (as %q); tried the names of: %s", name, n, strings.Join(families(list), ", "))
}

// families lists the syntaxes that have model names, and what they are.
func families(list []syntax.Syntax) []string {
	var out []string
	for _, s := range list {
		if len(s.Models) > 0 {
			out = append(out, fmt.Sprintf("%s (%s)", s.Name, strings.Join(s.Models[:min(3, len(s.Models))], " ")))
		}
	}
	return out
}

// ForTemplate finds the syntax of the default registry that a chat
// template (its Jinja source) teaches. See [Registry.ForTemplate].
func ForTemplate(text string) (Match, error) { return defaultRegistry.ForTemplate(text) }

// ForTemplate finds the syntax a chat template teaches from the markers its
// source holds (see syntax.Syntax.Templates): a format no syntax reads is
// looked for first (Functionary writes <function= with no <parameter=), then
// of the syntaxes whose fingerprint the template holds the one with the
// most markers wins (<tool_call> with <function= and <parameter= is
// qwen3coder's; with "name" only, hermes'), ties going to the one
// registered first. ThinkOpen is set when the template's generation prompt
// opens a reasoning block (its add_generation_prompt branch writes an
// opener such as <think> that it does not close); when that depends on a
// variable (enable_thinking, thinking, …) it is set as the variable's
// default, and the evidence says so.
func (r *Registry) ForTemplate(text string) (Match, error) {
	for _, u := range unread {
		for _, f := range u.templates {
			if has, _ := fingerprintHeld(f, text); has {
				return Match{}, fmt.Errorf("no syntax reads the tool calls this template teaches: %s", u.family)
			}
		}
	}
	r.mu.RLock()
	list := slices.Clone(r.list)
	r.mu.RUnlock()
	best, bestVariant, bestN := -1, -1, 0
	var evidence []string
	for _, i := range builtinOrder(list) {
		for _, f := range list[i].Templates {
			if ok, markers := fingerprintHeld(f, text); ok && len(markers) > bestN {
				best, bestVariant, bestN, evidence = i, -1, len(markers), markers
			}
		}
		for v, vr := range list[i].Variants {
			for _, f := range vr.Templates {
				if ok, markers := fingerprintHeld(f, text); ok && len(markers) > bestN {
					best, bestVariant, bestN, evidence = i, v, len(markers), markers
				}
			}
		}
	}
	if best < 0 {
		if strings.Contains(text, "tool_calls") || regexp.MustCompile(`\btools\b`).MatchString(text) {
			return Match{}, fmt.Errorf("no syntax known for this template: it has tools, but none of the markers of a known format")
		}
		return Match{}, fmt.Errorf("no syntax known for this template: it has no tool section (the model's name may tell: ForModel)")
	}
	open, why := thinkOpen(text)
	s := list[best]
	if bestVariant >= 0 {
		s = withVariant(s, s.Variants[bestVariant])
	}
	m := Match{Syntax: s, Options: syntax.Options{ThinkOpen: open}, Evidence: "template holds " + strings.Join(quoteAll(evidence), ", ")}
	if why != "" {
		m.Evidence += "; " + why
	}
	return m, nil
}

// builtinOrder lists the indexes of list (sorted by name) in the order the
// syntaxes were registered: ties go to the earlier.
func builtinOrder(list []syntax.Syntax) []int {
	rank := map[string]int{}
	for i, s := range Builtin() {
		rank[s.Name] = i
	}
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ra, oka := rank[list[a].Name]
		rb, okb := rank[list[b].Name]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return idx
}

// fingerprintHeld reports whether text holds f, and the markers that
// showed it.
func fingerprintHeld(f syntax.Fingerprint, text string) (bool, []string) {
	var markers []string
	for _, m := range f.All {
		if !strings.Contains(text, m) {
			return false, nil
		}
		markers = append(markers, m)
	}
	if len(f.Any) > 0 {
		found := ""
		for _, m := range f.Any {
			if strings.Contains(text, m) {
				found = m
				break
			}
		}
		if found == "" {
			return false, nil
		}
		markers = append(markers, found)
	}
	for _, m := range f.None {
		if strings.Contains(text, m) {
			return false, nil
		}
	}
	return len(markers) > 0, markers
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
