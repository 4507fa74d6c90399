package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Schema summarises a JSON Schema for people: the types, properties and
// values a prompt lists. A "$ref" within the tool's own schema, "allOf",
// and "anyOf"/"oneOf" whose every branch names its types (Pydantic's
// Optional[int] is anyOf integer, null) are folded in, so a property of
// type {"anyOf":[{"type":"integer"},{"type":"null"}]} reads "integer or
// null". The summary leaves keywords out (patterns, bounds…): validation
// never reads it; it uses the whole schema.
type Schema struct {
	Types       []string // "string", "number", "integer", "boolean", "object", "array", "null"; none means any
	Description string
	Properties  []Property // in the order the schema lists them
	Required    []string
	Items       *Schema
	Enum        []json.RawMessage // "enum", or "const" as a list of one
	// AdditionalProperties is nil when unconstrained; otherwise a schema
	// that extra properties must match (False when they are not allowed).
	AdditionalProperties *Schema
	False                bool // the schema `false`: nothing matches
}

// Property is one named property of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

var knownTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "object": true, "array": true, "null": true}

// describer summarises the schemas of one document, root, in which "$ref"s
// are resolved.
type describer struct {
	root      []byte
	expanding map[string]bool    // the refs being expanded: a recursive schema stops at itself
	done      map[string]*Schema // the refs expanded so far, each summarised once
	// kids holds the members (or elements, by index) of each container a
	// "$ref" passed through, by its JSON pointer: each is read once, so
	// resolving n refs costs the document's size plus n lookups, not n
	// reads of the document.
	kids map[string]map[string][]byte
}

// summarise reads the summary of a tool's parameter schema. Its errors are
// the plain mistakes (an unknown type name, properties that are not an
// object), named by their path; the engine checks the rest at compile time.
func summarise(raw []byte) (*Schema, error) {
	d := &describer{root: raw, expanding: map[string]bool{}, done: map[string]*Schema{}, kids: map[string]map[string][]byte{}}
	return d.schema(raw, "parameters")
}

func (d *describer) schema(raw []byte, path string) (*Schema, error) {
	switch string(trimSpace(raw)) {
	case "true":
		return &Schema{}, nil
	case "false":
		return &Schema{False: true}, nil
	}
	if kindOf(raw) != '{' {
		return nil, fmt.Errorf("%s: a schema must be an object or a boolean, not %s", path, kindName(kindOf(raw)))
	}
	s := &Schema{}
	var err error
	var ref string
	var all, alternatives []*Schema
	sub := func(list *[]*Schema, v []byte, key string) {
		i := 0
		elements(v, func(e []byte, _ int) bool {
			var b *Schema
			b, err = d.schema(e, fmt.Sprintf("%s.%s[%d]", path, key, i))
			*list = append(*list, b)
			i++
			return err == nil
		})
	}
	members(raw, func(k string, v []byte) bool {
		switch k {
		case "type":
			err = s.parseType(v, path)
		case "description":
			s.Description, _ = unquote(v)
		case "properties":
			if kindOf(v) != '{' {
				err = fmt.Errorf("%s.properties: must be an object", path)
				break
			}
			members(v, func(name string, pv []byte) bool {
				var ps *Schema
				ps, err = d.schema(pv, path+".properties."+name)
				s.Properties = append(s.Properties, Property{name, ps})
				return err == nil
			})
		case "required":
			if e := json.Unmarshal(v, &s.Required); e != nil {
				err = fmt.Errorf("%s.required: must be an array of names", path)
			}
		case "items":
			if kindOf(v) != '[' { // an array of schemas is draft-07's tuple form
				s.Items, err = d.schema(v, path+".items")
			}
		case "enum":
			if e := json.Unmarshal(v, &s.Enum); e != nil {
				err = fmt.Errorf("%s.enum: must be an array", path)
			}
		case "const":
			s.Enum = []json.RawMessage{compact(v)}
		case "additionalProperties":
			s.AdditionalProperties, err = d.schema(v, path+".additionalProperties")
		case "$ref":
			ref, _ = unquote(v)
		case "allOf":
			sub(&all, v, k)
		case "anyOf", "oneOf":
			sub(&alternatives, v, k)
		}
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	if t, ok := d.done[ref]; ok {
		all = append(all, t)
	} else if target := d.resolve(ref); target != nil && d.expanding[ref] {
		shallow := &Schema{} // a schema that contains itself: its types only
		members(target, func(k string, v []byte) bool {
			if k == "type" {
				shallow.parseType(v, path)
			}
			return true
		})
		all = append(all, shallow)
	} else if target != nil {
		d.expanding[ref] = true
		// Named where it stands in the document, not by the way here: a
		// chain of refs would make the path as long as the chain.
		t, e := d.schema(target, "parameters"+strings.ReplaceAll(strings.TrimPrefix(ref, "#"), "/", "."))
		delete(d.expanding, ref)
		if e != nil {
			return nil, e
		}
		d.done[ref] = t
		all = append(all, t)
	}
	for _, b := range all {
		s.fold(b)
	}
	s.foldAlternatives(alternatives)
	return s, nil
}

// resolve finds the schema a "$ref" names within the document: a JSON
// pointer ("#/$defs/Item", "#/definitions/Item"). Other refs (anchors, other
// documents) are left to the engine.
func (d *describer) resolve(ref string) []byte {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	frag, err := url.PathUnescape(frag)
	if err != nil || frag != "" && frag[0] != '/' {
		return nil
	}
	cur := d.root
	if frag == "" {
		return cur
	}
	if d.kids == nil {
		d.kids = map[string]map[string][]byte{}
	}
	ptr := ""
	for _, raw := range strings.Split(frag[1:], "/") {
		tok := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		kids, ok := d.kids[ptr]
		if !ok {
			kids = map[string][]byte{}
			switch kindOf(cur) {
			case '{':
				members(cur, func(k string, v []byte) bool {
					if _, dup := kids[k]; !dup { // the first of a repeated key
						kids[k] = v
					}
					return true
				})
			case '[':
				n := 0
				elements(cur, func(e []byte, _ int) bool {
					kids[strconv.Itoa(n)] = e
					n++
					return true
				})
			}
			d.kids[ptr] = kids
		}
		next := kids[tok]
		if next == nil {
			return nil
		}
		ptr += "/" + raw // as written: "~1" keeps a "/" in a key apart from a step
		cur = next
	}
	return cur
}

// fold adds what b says to s, where both apply ($ref, allOf).
func (s *Schema) fold(b *Schema) {
	if b == nil {
		return
	}
	if len(s.Types) == 0 {
		s.Types = slices.Clone(b.Types)
	}
	if s.Description == "" {
		s.Description = b.Description
	}
	for _, p := range b.Properties {
		if _, ok := s.property(p.Name); !ok {
			s.Properties = append(s.Properties, p)
		}
	}
	for _, r := range b.Required {
		if !slices.Contains(s.Required, r) {
			s.Required = append(s.Required, r)
		}
	}
	if s.Items == nil {
		s.Items = b.Items
	}
	if s.Enum == nil {
		s.Enum = b.Enum
	}
	if s.AdditionalProperties == nil {
		s.AdditionalProperties = b.AdditionalProperties
	}
	s.False = s.False || b.False
}

// foldAlternatives adds the branches of anyOf/oneOf to s when every branch
// names its types: the types are those of all the branches, the rest is
// taken from the first branch that has it.
func (s *Schema) foldAlternatives(bs []*Schema) {
	if len(bs) == 0 || len(s.Types) > 0 {
		return
	}
	for _, b := range bs {
		if len(b.Types) == 0 {
			return
		}
	}
	for _, b := range bs {
		for _, t := range b.Types {
			if !slices.Contains(s.Types, t) {
				s.Types = append(s.Types, t)
			}
		}
		if s.Description == "" {
			s.Description = b.Description
		}
		if len(s.Properties) == 0 {
			s.Properties, s.Required, s.AdditionalProperties = b.Properties, b.Required, b.AdditionalProperties
		}
		if s.Items == nil {
			s.Items = b.Items
		}
	}
}

func (s *Schema) parseType(v []byte, path string) error {
	var one string
	if json.Unmarshal(v, &one) == nil {
		s.Types = []string{one}
	} else if json.Unmarshal(v, &s.Types) != nil {
		return fmt.Errorf("%s.type: must be a type name or a list of them", path)
	}
	for _, t := range s.Types {
		if !knownTypes[t] {
			return fmt.Errorf("%s.type: unknown type %q", path, t)
		}
	}
	return nil
}

// has reports whether the schema allows type t (any type when none is given).
func (s *Schema) has(t string) bool {
	if len(s.Types) == 0 {
		return true
	}
	for _, x := range s.Types {
		if x == t || t == "integer" && x == "number" {
			return true
		}
	}
	return false
}

// property returns the schema of the named property, if listed.
func (s *Schema) property(name string) (*Schema, bool) {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema, true
		}
	}
	return nil, false
}

// TypeString describes the schema's type for people: "string", "integer or
// null", "array of string".
func (s *Schema) TypeString() string {
	if s == nil || len(s.Types) == 0 {
		return "any"
	}
	parts := make([]string, len(s.Types))
	for i, t := range s.Types {
		if t == "array" && s.Items != nil && len(s.Items.Types) > 0 {
			t = "array of " + s.Items.TypeString()
		}
		parts[i] = t
	}
	return strings.Join(parts, " or ")
}
