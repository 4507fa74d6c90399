package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Tool is one tool definition.
type Tool struct {
	Name        string
	Description string
	// Parameters summarises the tool's parameter schema for people and
	// prompts (nil means any arguments). Validation and conversion use the
	// whole schema, compiled when the tool was loaded.
	Parameters *Schema

	raw      []byte                        // the parameter schema as compiled (Gemini's rewritten as JSON Schema)
	compiled *jsonschema.Schema            // nil when the tool takes any arguments
	byLoc    map[string]*jsonschema.Schema // every compiled subschema, by its location
	plain    *Schema                       // set when the fast path can validate calls on its own
}

// Set is a set of tools, in the order they were defined.
type Set struct {
	Tools []*Tool
	// MaxDepth bounds the nesting of a call's arguments, JSON written inside
	// a string value that conversion reads included. Deeper arguments are a
	// problem, and such a string is left as it is. Zero means
	// syntax.DefaultMaxDepth (512), the limit the parsers use.
	MaxDepth int

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

// Load reads tool definitions in any of the accepted shapes (see the package
// documentation). Each tool's schema is compiled here, once; a schema that
// does not compile, or that refers to a schema outside itself, is an error
// that names the tool.
func Load(data []byte) (*Set, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, fmt.Errorf("tool definitions are not valid JSON: %v", err)
	}
	raw := data
	if kindOf(raw) == '{' {
		// An MCP tools/list result (bare or in a JSON-RPC response), a
		// request that holds a tools array, or one Gemini tool.
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
		case geminiDeclarations(raw) != nil:
			raw = append(append([]byte{'['}, raw...), ']')
		default:
			return nil, fmt.Errorf(`tool definitions: an object must hold a "tools" array (an MCP tools/list result) or "functionDeclarations" (a Gemini tool)`)
		}
	}
	if kindOf(raw) != '[' {
		return nil, fmt.Errorf("tool definitions must be an array of tools (OpenAI, Anthropic, Gemini or plain) or an MCP tools/list result")
	}
	s := &Set{byName: map[string]*Tool{}}
	add := func(it []byte, gemini bool) error {
		t, err := loadTool(it, gemini)
		if err != nil || t == nil {
			return err
		}
		if _, dup := s.byName[t.Name]; dup {
			return fmt.Errorf("the name %q is defined twice", t.Name)
		}
		s.Tools = append(s.Tools, t)
		s.byName[t.Name] = t
		return nil
	}
	var err error
	i := 0
	elements(raw, func(it []byte, _ int) bool {
		i++
		where := fmt.Sprintf("tool %d", i)
		if decls := geminiDeclarations(it); decls != nil {
			if kindOf(decls) != '[' {
				err = fmt.Errorf("%s: functionDeclarations must be an array", where)
				return false
			}
			j := 0
			elements(decls, func(d []byte, _ int) bool {
				j++
				if e := add(d, true); e != nil {
					err = fmt.Errorf("%s, declaration %d: %w", where, j, e)
				}
				return err == nil
			})
			return err == nil
		}
		if e := add(it, false); e != nil {
			err = fmt.Errorf("%s: %w", where, e)
		}
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// geminiDeclarations returns the function declarations of a Gemini tool
// object, or nil when raw is not one.
func geminiDeclarations(raw []byte) []byte {
	if kindOf(raw) != '{' {
		return nil
	}
	var decls []byte
	members(raw, func(k string, v []byte) bool {
		if k == "functionDeclarations" || k == "function_declarations" {
			decls = v
			return false
		}
		return true
	})
	return decls
}

// loadTool reads one tool in any shape. It returns nil, and no error, for a
// provider's built-in tool that has no name (OpenAI {"type":"web_search"},
// Gemini {"googleSearch":{}}): the provider runs those itself, and their
// calls are hosted calls, which are not checked.
func loadTool(raw []byte, gemini bool) (*Tool, error) {
	if kindOf(raw) != '{' {
		return nil, fmt.Errorf("is %s, not an object", kindName(kindOf(raw)))
	}
	var d struct {
		Type     *string `json:"type"`
		Function *struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`           // plain, OpenAI Responses, Gemini (an OpenAPI schema)
		JSONSchema  json.RawMessage `json:"parametersJsonSchema"` // Gemini: a JSON Schema
		InputSchema json.RawMessage `json:"input_schema"`         // Anthropic
		MCPSchema   json.RawMessage `json:"inputSchema"`          // MCP
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	t := &Tool{Name: d.Name, Description: d.Description}
	params, openAPI := d.Parameters, gemini
	if d.Function != nil { // OpenAI Chat Completions
		t.Name, t.Description, params = d.Function.Name, d.Function.Description, d.Function.Parameters
	}
	for _, p := range []json.RawMessage{d.InputSchema, d.MCPSchema, d.JSONSchema} {
		if p != nil {
			params, openAPI = p, false
		}
	}
	if t.Name == "" {
		if d.Function == nil && builtIn(raw, d.Type) {
			return nil, nil
		}
		return nil, fmt.Errorf(`has no name (expected "name", or "function": {"name"} for OpenAI Chat tools)`)
	}
	if params == nil || string(params) == "null" {
		return t, nil
	}
	if !openAPI && upperType(params) {
		openAPI = true // a Gemini declaration outside its tool
	}
	if openAPI {
		params = fromOpenAPI(params)
	}
	if err := t.compile(params); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	return t, nil
}

// builtIn reports whether a tool without a name is a provider's built-in
// tool: one with a type other than "function", or a Gemini tool object
// (say {"googleSearch": {}}) that has none of a function tool's fields.
func builtIn(raw []byte, typ *string) bool {
	if typ != nil {
		return *typ != "function"
	}
	n, fields := 0, 0
	members(raw, func(k string, _ []byte) bool {
		n++
		switch k {
		case "name", "description", "parameters", "parametersJsonSchema", "input_schema", "inputSchema", "function":
			fields++
		}
		return true
	})
	return n > 0 && fields == 0
}
