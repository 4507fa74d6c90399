package registry

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/apertus"
	"github.com/toolparse/toolparse/syntax/apriel"
	"github.com/toolparse/toolparse/syntax/caret"
	"github.com/toolparse/toolparse/syntax/cohere"
	"github.com/toolparse/toolparse/syntax/commandr"
	"github.com/toolparse/toolparse/syntax/deepseek"
	"github.com/toolparse/toolparse/syntax/delimiter"
	"github.com/toolparse/toolparse/syntax/functionary"
	"github.com/toolparse/toolparse/syntax/functioncall"
	"github.com/toolparse/toolparse/syntax/functools"
	"github.com/toolparse/toolparse/syntax/gcml"
	"github.com/toolparse/toolparse/syntax/gemma"
	"github.com/toolparse/toolparse/syntax/gigachat"
	"github.com/toolparse/toolparse/syntax/glimmer"
	"github.com/toolparse/toolparse/syntax/glm"
	"github.com/toolparse/toolparse/syntax/granite"
	"github.com/toolparse/toolparse/syntax/harmony"
	"github.com/toolparse/toolparse/syntax/hermes"
	"github.com/toolparse/toolparse/syntax/hunyuan"
	"github.com/toolparse/toolparse/syntax/hy"
	"github.com/toolparse/toolparse/syntax/inkling"
	"github.com/toolparse/toolparse/syntax/internlm"
	"github.com/toolparse/toolparse/syntax/kimi"
	"github.com/toolparse/toolparse/syntax/kimik3"
	"github.com/toolparse/toolparse/syntax/kimivl"
	"github.com/toolparse/toolparse/syntax/llama3"
	"github.com/toolparse/toolparse/syntax/longcat"
	"github.com/toolparse/toolparse/syntax/minicpm"
	"github.com/toolparse/toolparse/syntax/minimax"
	"github.com/toolparse/toolparse/syntax/minimaxm3"
	"github.com/toolparse/toolparse/syntax/mistral"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/nemotron"
	"github.com/toolparse/toolparse/syntax/pythonic"
	"github.com/toolparse/toolparse/syntax/qwen25coder"
	"github.com/toolparse/toolparse/syntax/qwen3coder"
	"github.com/toolparse/toolparse/syntax/seedoss"
	"github.com/toolparse/toolparse/syntax/solaropen"
	"github.com/toolparse/toolparse/syntax/solaropen2"
	"github.com/toolparse/toolparse/syntax/step3"
	"github.com/toolparse/toolparse/syntax/xmljson"
	"github.com/toolparse/toolparse/syntax/xmltag"
)

// Registry maps names and aliases, in any letter case, to syntaxes. It is safe
// for concurrent use. The zero value is an empty registry, ready to use.
type Registry struct {
	mu       sync.RWMutex
	fallback string                   // the first syntax registered: auto-detection's choice when there is no evidence
	byName   map[string]syntax.Syntax // lower-cased name, alias or variant name (with the variant's Render)
	list     []syntax.Syntax
}

// New returns a registry holding exactly the given syntaxes. It fails if two
// of them share a name or alias.
func New(syntaxes ...syntax.Syntax) (*Registry, error) {
	r := &Registry{}
	for _, s := range syntaxes {
		if err := r.Register(s); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Builtin lists the syntaxes that ship with toolparse. The first, xmljson,
// is auto-detection's fallback in the default registry.
func Builtin() []syntax.Syntax {
	return []syntax.Syntax{xmljson.Syntax, caret.Syntax, delimiter.Syntax, native.Syntax, xmltag.Syntax, harmony.Syntax, gemma.Syntax, pythonic.Syntax, llama3.Syntax, mistral.Syntax, qwen3coder.Syntax, glm.Syntax, deepseek.Syntax, minimax.Syntax, hermes.Syntax, kimi.Syntax, seedoss.Syntax, nemotron.Syntax, granite.Syntax, cohere.Syntax, functools.Syntax, hunyuan.Syntax, apriel.Syntax, longcat.Syntax, minimaxm3.Syntax, kimik3.Syntax, hy.Syntax, gigachat.Syntax, internlm.Syntax, commandr.Syntax, gcml.Syntax, apertus.Syntax, minicpm.Syntax, step3.Syntax, functionary.Syntax, qwen25coder.Syntax, kimivl.Syntax, functioncall.Syntax, solaropen.Syntax, solaropen2.Syntax, inkling.Syntax, glimmer.Syntax}
}

var defaultRegistry = func() *Registry {
	r, err := New(Builtin()...)
	if err != nil {
		panic(err) // the built-in names are fixed; a clash is a bug caught by the tests
	}
	return r
}()

// Default returns the registry of the built-in syntaxes, to which Register adds.
func Default() *Registry { return defaultRegistry }

// Register adds s to the default registry.
func Register(s syntax.Syntax) error { return defaultRegistry.Register(s) }

// Lookup finds a syntax by name or alias in the default registry.
func Lookup(name string) (syntax.Syntax, error) { return defaultRegistry.Lookup(name) }

// List returns the default registry's syntaxes sorted by name.
func List() []syntax.Syntax { return defaultRegistry.List() }

// Register adds s. Its name must be non-empty, it must have a constructor, and
// neither its name nor an alias nor a variant's name may already be taken.
func (r *Registry) Register(s syntax.Syntax) error {
	if s.Name == "" {
		return fmt.Errorf("registry: syntax has no name")
	}
	if s.New == nil {
		return fmt.Errorf("registry: syntax %q has no constructor", s.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName == nil {
		r.byName = map[string]syntax.Syntax{}
	}
	keys := append([]string{s.Name}, s.Aliases...)
	for _, v := range s.Variants {
		keys = append(keys, v.Name)
	}
	for _, k := range keys {
		if strings.EqualFold(k, AutoName) {
			return fmt.Errorf("registry: the name %q is kept for auto-detection", AutoName)
		}
		if old, ok := r.byName[strings.ToLower(k)]; ok {
			return fmt.Errorf("registry: name %q of syntax %q is taken by syntax %q", k, s.Name, old.Name)
		}
	}
	for _, k := range keys {
		r.byName[strings.ToLower(k)] = s
	}
	if r.fallback == "" {
		r.fallback = s.Name
	}
	for _, v := range s.Variants {
		r.byName[strings.ToLower(v.Name)] = withVariant(s, v)
	}
	i, _ := slices.BinarySearchFunc(r.list, s.Name, func(a syntax.Syntax, name string) int { return strings.Compare(a.Name, name) })
	r.list = slices.Insert(r.list, i, s)
	return nil
}

// withVariant is s as a Lookup of variant v gives it: v's Render, and its
// Prompt when it has one.
func withVariant(s syntax.Syntax, v syntax.Variant) syntax.Syntax {
	s.Render, s.Variant = v.Render, v.Name
	if v.Prompt != "" {
		s.Prompt = v.Prompt
	}
	return s
}

// Lookup finds a syntax by name, alias or variant name, in any letter case.
// A variant's name gives the syntax with that variant's Render (nil when the
// form cannot be written yet), so that every path that writes events —
// a renderer, a prompt's examples, a conversation — writes that form. An
// unknown name is an error that lists the known ones.
func (r *Registry) Lookup(name string) (syntax.Syntax, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if key == AutoName {
		return r.Auto(), nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if s, ok := r.byName[key]; ok {
		return s, nil
	}
	names := make([]string, len(r.list))
	for i, s := range r.list {
		names[i] = s.Name
		var other []string
		other = append(other, s.Aliases...)
		for _, v := range s.Variants {
			other = append(other, v.Name)
		}
		if len(other) > 0 {
			names[i] += " (" + strings.Join(other, ", ") + ")"
		}
	}
	hint := ""
	if m, err := r.ForModel(name); err == nil && !strings.ContainsAny(name, " ,") {
		hint = fmt.Sprintf("; %q is a model name, whose syntax is %s", name, m.Syntax.Name)
	}
	return syntax.Syntax{}, fmt.Errorf("unknown syntax %q (known, with their aliases and forms: %s; or auto)%s", name, strings.Join(names, ", "), hint)
}

// List returns the registered syntaxes sorted by name.
func (r *Registry) List() []syntax.Syntax {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.list)
}
