package schema

import (
	"strings"

	"github.com/toolparse/toolparse/syntax"
)

// Gemini's function declarations give their parameters as an OpenAPI 3.0
// schema object: type names in upper case ("OBJECT", "STRING"), and
// "nullable": true where JSON Schema lists "null" among the types. fromOpenAPI
// rewrites such a schema as JSON Schema — type names in lower case
// ("TYPE_UNSPECIFIED" dropped: any type), "nullable": true folded into the
// type — through properties, items and anyOf, keeping every other keyword and
// the order of the properties.
func fromOpenAPI(raw []byte) []byte {
	if kindOf(raw) != '{' {
		return compact(raw)
	}
	nullable := false
	members(raw, func(k string, v []byte) bool {
		if k == "nullable" && string(trimSpace(v)) == "true" {
			nullable = true
		}
		return true
	})
	out := []byte{'{'}
	members(raw, func(k string, v []byte) bool {
		switch k {
		case "nullable":
			return true
		case "type":
			if v = openAPIType(v, nullable); v == nil {
				return true
			}
		case "properties":
			v = eachMember(v, fromOpenAPI)
		case "items":
			v = fromOpenAPI(v)
		case "anyOf":
			v = eachElement(v, fromOpenAPI)
		default:
			v = compact(v)
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = syntax.AppendQuote(out, k)
		out = append(out, ':')
		out = append(out, v...)
		return true
	})
	return append(out, '}')
}

// openAPIType is an OpenAPI "type" as JSON Schema's, or nil for none.
func openAPIType(v []byte, nullable bool) []byte {
	var names []string
	if s, ok := unquote(v); ok {
		names = []string{s}
	} else if kindOf(v) == '[' {
		elements(v, func(e []byte, _ int) bool {
			s, _ := unquote(e)
			names = append(names, s)
			return true
		})
	} else {
		return compact(v) // not a type name: the compiler says so
	}
	var out []string
	for _, n := range names {
		if n == "TYPE_UNSPECIFIED" {
			return nil
		}
		if knownTypes[strings.ToLower(n)] {
			n = strings.ToLower(n)
		}
		out = append(out, n)
	}
	if nullable && !containsString(out, "null") {
		out = append(out, "null")
	}
	if len(out) == 1 {
		return syntax.AppendQuote(nil, out[0])
	}
	b := []byte{'['}
	for i, n := range out {
		if i > 0 {
			b = append(b, ',')
		}
		b = syntax.AppendQuote(b, n)
	}
	return append(b, ']')
}

// upperType reports whether a schema's own type is written in upper case
// ("OBJECT"): a Gemini declaration, even outside a Gemini tool.
func upperType(raw []byte) bool {
	upper := false
	members(raw, func(k string, v []byte) bool {
		if k == "type" {
			s, _ := unquote(v)
			upper = s != strings.ToLower(s) && knownTypes[strings.ToLower(s)]
			return false
		}
		return true
	})
	return upper
}

func eachMember(obj []byte, f func([]byte) []byte) []byte {
	if kindOf(obj) != '{' {
		return compact(obj)
	}
	out := []byte{'{'}
	members(obj, func(k string, v []byte) bool {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = syntax.AppendQuote(out, k)
		out = append(out, ':')
		out = append(out, f(v)...)
		return true
	})
	return append(out, '}')
}

func eachElement(arr []byte, f func([]byte) []byte) []byte {
	if kindOf(arr) != '[' {
		return compact(arr)
	}
	out := []byte{'['}
	elements(arr, func(e []byte, _ int) bool {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, f(e)...)
		return true
	})
	return append(out, ']')
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
