package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// Problem is one way a call does not fit its tool's schema.
type Problem struct {
	Path string // the argument path, such as "options.files[2]"; "" for the call itself
	Msg  string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return fmt.Sprintf("argument %q: %s", p.Path, p.Msg)
}

// Validate checks a call's arguments against its tool's schema.
func (s *Set) Validate(name string, args json.RawMessage) []Problem {
	t, ok := s.Lookup(name)
	if !ok {
		return []Problem{{"", fmt.Sprintf("unknown tool %q (known: %s)", name, strings.Join(s.Names(), ", "))}}
	}
	if t.Parameters == nil {
		return nil
	}
	var ps []Problem
	validate(t.Parameters, args, "", &ps)
	return ps
}

func validate(s *Schema, v []byte, path string, ps *[]Problem) {
	add := func(format string, a ...any) { *ps = append(*ps, Problem{path, fmt.Sprintf(format, a...)}) }
	if s.False {
		add("no value is allowed here")
		return
	}
	kind := jsonType(v)
	if !s.has(kind) {
		add("expected %s, got %s", s.TypeString(), describe(v, kind))
		return
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		var opts []string
		for _, e := range s.Enum {
			opts = append(opts, string(e))
		}
		add("%s is not one of %s", clip(v), strings.Join(opts, ", "))
	}
	switch kind {
	case "object":
		seen := map[string]bool{}
		jsonscan.Members(v, func(k string, mv []byte) bool {
			seen[k] = true
			sub := join(path, k)
			if ps2, ok := s.property(k); ok {
				validate(ps2, mv, sub, ps)
			} else if s.AdditionalProperties != nil {
				if s.AdditionalProperties.False {
					*ps = append(*ps, Problem{sub, "unknown argument (the schema allows no others)"})
				} else {
					validate(s.AdditionalProperties, mv, sub, ps)
				}
			}
			return true
		})
		for _, r := range s.Required {
			if !seen[r] {
				*ps = append(*ps, Problem{join(path, r), "missing (required)"})
			}
		}
	case "array":
		if s.Items != nil {
			i := 0
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				validate(s.Items, e, path+"["+strconv.Itoa(i)+"]", ps)
				i++
				return true
			})
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonType is the JSON Schema type of a raw value; a number with no
// fractional part is "integer".
func jsonType(v []byte) string {
	switch k := jsonscan.Kind(v); k {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
	if err == nil && f == math.Trunc(f) && !math.IsInf(f, 0) {
		return "integer"
	}
	return "number"
}

func describe(v []byte, kind string) string {
	if kind == "integer" {
		kind = "number"
	}
	return kind + " " + clip(v)
}

func clip(v []byte) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

func inEnum(enum []json.RawMessage, v []byte) bool {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return false
	}
	for _, e := range enum {
		var y any
		if json.Unmarshal(e, &y) == nil && reflect.DeepEqual(x, y) {
			return true
		}
	}
	return false
}

// Convert turns the string values of a call from a syntax whose values are
// strings (caret, xmltag) into the types its tool's schema declares:
// integer, number, boolean, array (a single value becomes a one-item array),
// object (a JSON object in the string) and null. A value that cannot be
// converted is left as it is, for Validate to report: nothing is guessed.
func (s *Set) Convert(name string, args json.RawMessage) json.RawMessage {
	t, ok := s.Lookup(name)
	if !ok || t.Parameters == nil {
		return args
	}
	return convert(t.Parameters, args)
}

func convert(s *Schema, v []byte) []byte {
	if s == nil || s.False {
		return v
	}
	kind := jsonType(v)
	switch {
	case kind == "object" && (s.has("object")):
		out := []byte{'{'}
		first := true
		jsonscan.Members(v, func(k string, mv []byte) bool {
			if !first {
				out = append(out, ',')
			}
			first = false
			out = syntax.AppendQuote(out, k)
			out = append(out, ':')
			sub, ok := s.property(k)
			if !ok {
				sub = s.AdditionalProperties
			}
			out = append(out, convert(sub, mv)...)
			return true
		})
		return append(out, '}')
	case kind == "array" && s.has("array"):
		out := []byte{'['}
		i := 0
		jsonscan.Elements(v, func(e []byte, _ int) bool {
			if i > 0 {
				out = append(out, ',')
			}
			i++
			out = append(out, convert(s.Items, e)...)
			return true
		})
		return append(out, ']')
	case kind != "string" || s.has("string"):
		return v
	}
	str, _ := jsonscan.Unquote(v)
	for _, t := range s.Types {
		if c, ok := fromString(t, str, s); ok {
			return c
		}
	}
	return v
}

// fromString converts a string to type t, if it is an exact form of it.
func fromString(t, str string, s *Schema) ([]byte, bool) {
	trimmed := strings.TrimSpace(str)
	switch t {
	case "integer":
		if _, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
			return []byte(trimmed), true
		}
	case "number":
		if f, err := strconv.ParseFloat(trimmed, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && json.Valid([]byte(trimmed)) {
			return []byte(trimmed), true
		}
	case "boolean":
		if trimmed == "true" || trimmed == "false" {
			return []byte(trimmed), true
		}
	case "null":
		if trimmed == "null" {
			return []byte("null"), true
		}
	case "object": // JSON in the string is taken as written: its strings stay strings
		if jsonscan.Kind([]byte(trimmed)) == '{' && json.Valid([]byte(trimmed)) {
			return jsonscan.Compact([]byte(trimmed)), true
		}
	case "array":
		if jsonscan.Kind([]byte(trimmed)) == '[' && json.Valid([]byte(trimmed)) {
			return jsonscan.Compact([]byte(trimmed)), true
		}
		one := convert(s.Items, syntax.AppendQuote(nil, str)) // a single value is a one-item array
		return append(append([]byte{'['}, one...), ']'), true
	}
	return nil, false
}

// Check returns a handler that converts (when convertStrings is set) and
// validates every call before passing it to h. A call that does not fit is
// still passed on, with Invalid saying why, followed by an error event at the
// call that names the tool, each argument path and each problem.
func (s *Set) Check(h syntax.Handler, convertStrings bool) syntax.Handler {
	return func(e syntax.Event) {
		if e.Type != syntax.Call || e.Partial {
			h(e)
			return
		}
		if convertStrings {
			e.Args = s.Convert(e.Name, e.Args)
		}
		ps := s.Validate(e.Name, e.Args)
		if len(ps) == 0 {
			h(e)
			return
		}
		msgs := make([]string, len(ps))
		for i, p := range ps {
			msgs[i] = p.String()
		}
		e.Invalid = strings.Join(msgs, "; ")
		h(e)
		h(syntax.Event{Type: syntax.Error, Code: syntax.CodeSchema, Message: fmt.Sprintf("call %s does not fit its schema: %s", callLabel(e), e.Invalid),
			Pos: e.Pos, Span: e.Span})
	}
}

func callLabel(e syntax.Event) string {
	if e.ID != "" {
		return fmt.Sprintf("%q (%s)", e.Name, e.ID)
	}
	return fmt.Sprintf("%q", e.Name)
}
