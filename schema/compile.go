package schema

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// errRemote is what the engine's loader answers for every schema outside a
// tool's own: nothing is ever fetched, from the network or from files.
var errRemote = errors.New("remote schemas are never fetched")

type noRemote struct{}

func (noRemote) Load(string) (any, error) { return nil, errRemote }

// newCompiler returns the engine as the package uses it: draft 2020-12 unless
// a schema says otherwise (or is written for draft-07, see chooseDraft),
// formats and content keywords asserted (so that no keyword the engine knows
// is only an annotation), and no loading of other documents.
func newCompiler(draft *jsonschema.Draft) *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.UseLoader(noRemote{})
	c.DefaultDraft(draft)
	c.AssertFormat()
	c.AssertContent()
	return c
}

// location is the URL every tool's schema is compiled at (each by a compiler
// of its own). It is hierarchical, so that a relative "$ref" ("other.json")
// resolves to a document of its own, which the loader refuses.
const location = "toolparse:///tool.json"

// compile summarises and compiles a tool's parameter schema.
func (t *Tool) compile(params []byte) error {
	sum, err := summarise(params)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(params))
	if err != nil {
		return fmt.Errorf("parameters: %v", err)
	}
	draft, err := chooseDraft(doc)
	if err != nil {
		return err
	}
	loc := location
	c := newCompiler(draft)
	if err := c.AddResource(loc, doc); err != nil {
		return fmt.Errorf("parameters: %v", err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return compileError(err, loc, params)
	}
	t.Parameters, t.raw, t.compiled, t.byLoc = sum, params, sch, index(sch)
	t.plain = plainSchema(doc, sum)
	return nil
}

// compileError says in the package's words why a schema did not compile.
func compileError(err error, loc string, params []byte) error {
	local := func(u string) string { return strings.TrimPrefix(u, loc) } // the tool's URL → "#/…"
	var (
		meta    *jsonschema.SchemaValidationError
		load    *jsonschema.LoadURLError
		ptr     *jsonschema.JSONPointerNotFoundError
		anchor  *jsonschema.AnchorNotFoundError
		regex   *jsonschema.InvalidRegexError
		invalid *jsonschema.ValidationError
	)
	switch {
	case errors.As(err, &meta) && errors.As(meta.Err, &invalid):
		var msgs []string
		for _, p := range problemsOf(invalid, params, nil) {
			where := "parameters"
			if p.Path != "" {
				where += "." + p.Path
			}
			msgs = append(msgs, where+": "+p.Msg)
		}
		return fmt.Errorf("not a valid JSON Schema: %s", strings.Join(msgs, "; "))
	case errors.As(err, &load):
		if strings.HasPrefix(load.URL, "https://json-schema.org/") || strings.HasPrefix(load.URL, "http://json-schema.org/") {
			return fmt.Errorf("parameters: unknown $schema %q", load.URL)
		}
		return fmt.Errorf("parameters: refers to %q, outside the tool's schema (%v)", load.URL, errRemote)
	case errors.As(err, &ptr):
		return fmt.Errorf("parameters: $ref to %s, which the schema does not have", local(ptr.URL))
	case errors.As(err, &anchor):
		return fmt.Errorf("parameters: $ref to %s, an anchor the schema does not have", local(anchor.Reference))
	case errors.As(err, &regex):
		return fmt.Errorf("parameters: at %s: invalid regular expression %q: %v", local(regex.URL), regex.Regex, regex.Err)
	}
	return fmt.Errorf("parameters: %s", strings.ReplaceAll(err.Error(), loc, "parameters"))
}

// chooseDraft picks the draft for a schema without "$schema": draft-07 when
// it uses keywords only draft-07 gives a meaning ("dependencies",
// "additionalItems", "items" as an array), draft-04 when it gives
// exclusiveMinimum or exclusiveMaximum as a boolean, draft 2019-09 when it
// uses "$recursiveRef", draft 2020-12 otherwise. A schema
// that uses both kinds is an error: either draft would ignore some of its
// keywords. ("definitions" is read in both: a "$ref" may point anywhere in
// the document.)
func chooseDraft(doc any) (*jsonschema.Draft, error) {
	if m, ok := doc.(map[string]any); ok {
		if _, ok := m["$schema"]; ok {
			return jsonschema.Draft2020, nil // the default only; "$schema" decides
		}
	}
	old, newer := map[string]bool{}, map[string]bool{} // draft-07 (or -04) only; 2019-09 and later
	only2019, only2020 := map[string]bool{}, map[string]bool{}
	draft4 := false
	visitSchemas(doc, func(m map[string]any) {
		for k, v := range m {
			switch k {
			case "exclusiveMinimum", "exclusiveMaximum":
				if _, ok := v.(bool); ok {
					old[k+" (a boolean)"], draft4 = true, true
				}
			case "dependencies", "additionalItems":
				old[k] = true
			case "items":
				if _, ok := v.([]any); ok {
					old["items (an array)"] = true
				}
			case "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains":
				newer[k] = true
			case "prefixItems", "$dynamicRef", "$dynamicAnchor":
				newer[k], only2020[k] = true, true
			case "$recursiveRef", "$recursiveAnchor":
				newer[k], only2019[k] = true, true
			}
		}
	})
	switch {
	case len(old) > 0 && len(newer) > 0:
		return nil, fmt.Errorf(`parameters: mixes draft-07 keywords (%s) with later drafts' keywords (%s); say which draft with "$schema"`,
			sortedKeys(old), sortedKeys(newer))
	case len(only2019) > 0 && len(only2020) > 0:
		return nil, fmt.Errorf(`parameters: mixes draft 2019-09 keywords (%s) with draft 2020-12 keywords (%s); say which draft with "$schema"`,
			sortedKeys(only2019), sortedKeys(only2020))
	case len(only2019) > 0:
		return jsonschema.Draft2019, nil
	case draft4:
		return jsonschema.Draft4, nil
	case len(old) > 0:
		return jsonschema.Draft7, nil
	}
	return jsonschema.Draft2020, nil
}

func sortedKeys(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// visitSchemas calls f with every schema object in doc: doc itself and the
// subschemas of every keyword that holds schemas.
func visitSchemas(doc any, f func(map[string]any)) {
	m, ok := doc.(map[string]any)
	if !ok {
		return
	}
	f(m)
	for k, v := range m {
		switch k {
		case "additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else",
			"unevaluatedProperties", "unevaluatedItems", "contentSchema":
			visitSchemas(v, f)
		case "items":
			if a, ok := v.([]any); ok {
				for _, s := range a {
					visitSchemas(s, f)
				}
			} else {
				visitSchemas(v, f)
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			if a, ok := v.([]any); ok {
				for _, s := range a {
					visitSchemas(s, f)
				}
			}
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
			if sm, ok := v.(map[string]any); ok {
				for _, s := range sm {
					visitSchemas(s, f)
				}
			}
		}
	}
}

// index lists every compiled subschema by its location, the SchemaURL of the
// engine's errors.
func index(root *jsonschema.Schema) map[string]*jsonschema.Schema {
	idx := map[string]*jsonschema.Schema{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || idx[s.Location] == s {
			return
		}
		idx[s.Location] = s
		forSubschemas(s, walk)
	}
	walk(root)
	return idx
}

// forSubschemas calls f with each schema that s holds or refers to.
func forSubschemas(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	for _, x := range []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.PropertyNames,
		s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema} {
		if x != nil {
			f(x)
		}
	}
	if s.DynamicRef != nil && s.DynamicRef.Ref != nil {
		f(s.DynamicRef.Ref)
	}
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, x := range list {
			f(x)
		}
	}
	for _, x := range s.Properties {
		f(x)
	}
	for _, x := range s.PatternProperties {
		f(x)
	}
	for _, x := range s.DependentSchemas {
		f(x)
	}
	for _, x := range s.Dependencies {
		if x, ok := x.(*jsonschema.Schema); ok {
			f(x)
		}
	}
	for _, x := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch x := x.(type) {
		case *jsonschema.Schema:
			f(x)
		case []*jsonschema.Schema:
			for _, y := range x {
				f(y)
			}
		}
	}
}
