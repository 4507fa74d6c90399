package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
)

// Schema is the subset of JSON Schema that tool definitions use.
type Schema struct {
	Types       []string // "string", "number", "integer", "boolean", "object", "array", "null"; none means any
	Description string
	Properties  []Property // in the order the schema lists them
	Required    []string
	Items       *Schema
	Enum        []json.RawMessage
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

// Tool is one tool definition.
type Tool struct {
	Name        string
	Description string
	Parameters  *Schema // an object schema; nil means any arguments
}

// Set is a set of tools, in the order they were defined.
type Set struct {
	Tools  []*Tool
	byName map[string]*Tool
}

// Lookup finds a tool by name.
func (s *Set) Lookup(name string) (*Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// Names returns the tool names, sorted.
func (s *Set) Names() []string {
	names := make([]string, 0, len(s.Tools))
	for _, t := range s.Tools {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// LoadFile reads tool definitions from a JSON file.
func LoadFile(path string) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// FromValue reads tool definitions from a Go value in any of the accepted
// shapes — say the tools slice an SDK request already holds — through its
// JSON encoding.
func FromValue(v any) (*Set, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("tool definitions: %v", err)
	}
	return Load(data)
}

// Load reads tool definitions in any of the accepted shapes.
func Load(data []byte) (*Set, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, fmt.Errorf("tool definitions are not valid JSON: %v", err)
	}
	raw := data
	if jsonscan.Kind(raw) == '{' {
		// An MCP tools/list result, bare or in a JSON-RPC response.
		var wrap struct {
			Tools  json.RawMessage `json:"tools"`
			Result *struct {
				Tools json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		json.Unmarshal(raw, &wrap)
		switch {
		case wrap.Tools != nil:
			raw = wrap.Tools
		case wrap.Result != nil && wrap.Result.Tools != nil:
			raw = wrap.Result.Tools
		default:
			return nil, fmt.Errorf(`tool definitions: an object must hold a "tools" array (an MCP tools/list result)`)
		}
	}
	if jsonscan.Kind(raw) != '[' {
		return nil, fmt.Errorf("tool definitions must be an array of tools (OpenAI, Anthropic or plain) or an MCP tools/list result")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("tool definitions: %v", err)
	}
	s := &Set{byName: map[string]*Tool{}}
	for i, it := range items {
		t, err := loadTool(it)
		if err != nil {
			return nil, fmt.Errorf("tool %d: %w", i+1, err)
		}
		if _, dup := s.byName[t.Name]; dup {
			return nil, fmt.Errorf("tool %d: the name %q is defined twice", i+1, t.Name)
		}
		s.Tools = append(s.Tools, t)
		s.byName[t.Name] = t
	}
	return s, nil
}

func loadTool(raw json.RawMessage) (*Tool, error) {
	var d struct {
		Type     string `json:"type"`
		Function *struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		InputSchema json.RawMessage `json:"input_schema"`
		MCPSchema   json.RawMessage `json:"inputSchema"`
	}
	if jsonscan.Kind(raw) != '{' {
		return nil, fmt.Errorf("is %s, not an object", jsonscan.KindName(jsonscan.Kind(raw)))
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	t := &Tool{Name: d.Name, Description: d.Description}
	params := d.Parameters
	if d.Function != nil { // OpenAI
		t.Name, t.Description, params = d.Function.Name, d.Function.Description, d.Function.Parameters
	}
	for _, p := range []json.RawMessage{d.InputSchema, d.MCPSchema} { // Anthropic, MCP
		if p != nil {
			params = p
		}
	}
	if t.Name == "" {
		return nil, fmt.Errorf(`has no name (expected "name", or "function": {"name"} for OpenAI tools)`)
	}
	if params != nil && string(params) != "null" {
		sc, err := parseSchema(params, "parameters")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		t.Parameters = sc
	}
	return t, nil
}

var knownTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "object": true, "array": true, "null": true}

// parseSchema reads a JSON Schema; path names it in errors.
func parseSchema(raw json.RawMessage, path string) (*Schema, error) {
	switch strings.TrimSpace(string(raw)) {
	case "true":
		return &Schema{}, nil
	case "false":
		return &Schema{False: true}, nil
	}
	if jsonscan.Kind(raw) != '{' {
		return nil, fmt.Errorf("%s: a schema must be an object or a boolean, not %s", path, jsonscan.KindName(jsonscan.Kind(raw)))
	}
	s := &Schema{}
	var err error
	jsonscan.Members(raw, func(k string, v []byte) bool {
		switch k {
		case "type":
			err = s.parseType(v, path)
		case "description":
			s.Description, _ = jsonscan.Unquote(v)
		case "properties":
			if jsonscan.Kind(v) != '{' {
				err = fmt.Errorf("%s.properties: must be an object", path)
				break
			}
			jsonscan.Members(v, func(name string, pv []byte) bool {
				var ps *Schema
				ps, err = parseSchema(pv, path+".properties."+name)
				s.Properties = append(s.Properties, Property{name, ps})
				return err == nil
			})
		case "required":
			if e := json.Unmarshal(v, &s.Required); e != nil {
				err = fmt.Errorf("%s.required: must be an array of names", path)
			}
		case "items":
			s.Items, err = parseSchema(v, path+".items")
		case "enum":
			if e := json.Unmarshal(v, &s.Enum); e != nil {
				err = fmt.Errorf("%s.enum: must be an array", path)
			}
		case "additionalProperties":
			s.AdditionalProperties, err = parseSchema(v, path+".additionalProperties")
		}
		return err == nil
	})
	return s, err
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
