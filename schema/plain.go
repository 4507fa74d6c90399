package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The fast path. Most tool schemas use only a few keywords — type,
// properties, required, items, enum, additionalProperties and annotations.
// For those the package checks calls itself, on the raw bytes, without
// decoding them for the engine; the problems are the ones the engine's would
// be mapped to, in the same words and order (a test holds both paths to the
// same answers), and the benchmark in this package measures the difference.

// fastPath is switched off by tests that hold the two paths to one answer.
var fastPath = true

// plainKeywords are the keywords the fast path checks or may ignore.
var plainKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "items": true, "enum": true, "additionalProperties": true,
	"description": true, "title": true, "default": true, "examples": true, "$comment": true,
}

// plainSchema returns the summary of a tool's schema when the fast path can
// check it: every (sub)schema uses plain keywords only, and the summary says
// all they say. Otherwise nil: the engine checks it.
func plainSchema(doc any, sum *Schema) *Schema {
	ok := true
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case bool:
		case map[string]any:
			for k, sub := range v {
				if !plainKeywords[k] {
					ok = false
					return
				}
				switch k {
				case "properties":
					props, isMap := sub.(map[string]any)
					if !isMap {
						ok = false
						return
					}
					for _, p := range props {
						visit(p)
					}
				case "items", "additionalProperties":
					visit(sub)
				}
			}
		default:
			ok = false
		}
	}
	visit(doc)
	if !ok {
		return nil
	}
	return sum
}

// validatePlain checks valid JSON args against a plain schema.
func validatePlain(s *Schema, args []byte) []Problem {
	var c plainChecker
	c.value(s, args)
	return c.problems
}

// plainChecker walks a call's arguments along a plain schema.
type plainChecker struct {
	problems []Problem
	at       []pathStep // where it stands: written out only for a problem
}

// pathStep is one step into the arguments: an object key, or an array
// index (key nil).
type pathStep struct {
	key   []byte
	index int
}

func (c *plainChecker) path() string {
	var b []byte
	for _, t := range c.at {
		if t.key == nil {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(t.index), 10)
			b = append(b, ']')
			continue
		}
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, t.key...)
	}
	return string(b)
}

func (c *plainChecker) add(format string, a ...any) {
	c.problems = append(c.problems, Problem{c.path(), fmt.Sprintf(format, a...)})
}

func (c *plainChecker) value(s *Schema, v []byte) {
	if s.False {
		c.add("no value is allowed here")
		return
	}
	v = trimSpace(v)
	kind := rawType(v)
	if !s.has(kind) {
		c.add("expected %s, got %s", s.TypeString(), describe(v))
		return
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		opts := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			opts[i] = string(compact(e))
		}
		if len(opts) == 1 {
			c.add("expected %s, got %s", opts[0], clip(v))
		} else {
			c.add("%s is not one of %s", clip(v), strings.Join(opts, ", "))
		}
		return
	}
	switch kind {
	case "object":
		c.object(s, v)
	case "array":
		if s.Items != nil {
			i := 0
			elements(v, func(e []byte, _ int) bool {
				c.at = append(c.at, pathStep{nil, i})
				c.value(s.Items, e)
				c.at = c.at[:len(c.at)-1]
				i++
				return true
			})
		}
	}
}

func (c *plainChecker) object(s *Schema, v []byte) {
	var seen keySet // every key, to find the missing ones and the repeated ones
	membersRaw(v, func(k, mv []byte) bool {
		if !seen.add(k) {
			return true // a key given twice counts the first time
		}
		c.at = append(c.at, pathStep{k, 0})
		if p, ok := s.propertyBytes(k); ok {
			c.value(p, mv)
		} else if s.AdditionalProperties != nil {
			if s.AdditionalProperties.False {
				c.add("unknown argument (the schema allows no others)")
			} else {
				c.value(s.AdditionalProperties, mv)
			}
		}
		c.at = c.at[:len(c.at)-1]
		return true
	})
	for _, r := range s.Required {
		if !seen.has(r) {
			c.at = append(c.at, pathStep{[]byte(r), 0})
			c.add("missing (required)")
			c.at = c.at[:len(c.at)-1]
		}
	}
}

// propertyBytes is property for a key given as bytes.
func (s *Schema) propertyBytes(name []byte) (*Schema, bool) {
	for _, p := range s.Properties {
		if p.Name == string(name) {
			return p.Schema, true
		}
	}
	return nil, false
}

// keySet is a set of an object's keys: a list while it is short, a map after.
type keySet struct {
	list [][]byte
	m    map[string]bool
}

// add adds k and reports whether it was new. k must stay as it is.
func (ks *keySet) add(k []byte) bool {
	if ks.m != nil {
		if ks.m[string(k)] {
			return false
		}
		ks.m[string(k)] = true
		return true
	}
	for _, x := range ks.list {
		if string(x) == string(k) {
			return false
		}
	}
	ks.list = append(ks.list, k)
	if len(ks.list) > 16 {
		ks.m = map[string]bool{}
		for _, x := range ks.list {
			ks.m[string(x)] = true
		}
	}
	return true
}

func (ks *keySet) has(k string) bool {
	if ks.m != nil {
		return ks.m[k]
	}
	for _, x := range ks.list {
		if string(x) == k {
			return true
		}
	}
	return false
}

// rawType is the JSON Schema type of a raw value; a number with an integer
// value (1, 1.0, 1e3) is "integer".
func rawType(v []byte) string {
	switch kindOf(v) {
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
	if isIntegral(v) {
		return "integer"
	}
	return "number"
}

// isIntegral reports whether the valid JSON number text n has an integer
// value (1, 1.0, 1.5e1, 100e-2), reading its digits: no arithmetic.
func isIntegral(n []byte) bool {
	s := strings.TrimPrefix(string(n), "-")
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	if !hasExp && !strings.Contains(mant, ".") {
		return true
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+strings.TrimRight(frac, "0"), "0")
	if digits == "" {
		return true // zero
	}
	shift := -len(strings.TrimRight(frac, "0")) // the value is digits × 10^shift
	e, err := strconv.Atoi(exp)
	if hasExp && err != nil { // beyond int: the sign decides
		return !strings.HasPrefix(exp, "-")
	}
	shift += e
	trimmed := strings.TrimRight(digits, "0")
	shift += len(digits) - len(trimmed)
	return shift >= 0
}

func inEnum(enum []json.RawMessage, v []byte) bool {
	if kindOf(v) == '"' {
		// A string is decoded once, not once for every value of the enum:
		// a long argument against a long enum costs their lengths added,
		// not multiplied.
		str, _ := unquote(v)
		for _, e := range enum {
			if kindOf(e) == '"' {
				if es, _ := unquote(e); es == str {
					return true
				}
			}
		}
		return false
	}
	for _, e := range enum {
		if jsonEqual(e, v) {
			return true
		}
	}
	return false
}
