package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolparse/toolparse/internal/pylit"

	"github.com/toolparse/toolparse/syntax"
)

// Convert turns the string values of a call from a syntax whose values are
// the strings the model wrote (caret, xmltag) into the types its tool's
// schema declares. For each string value, with the schemas that apply to it
// (following "$ref" and "allOf"):
//
//   - a string the schemas accept as it is stays a string;
//   - otherwise each way of reading it is tried, in the order the schema
//     gives them — its own types, then each branch of "anyOf" and "oneOf" —
//     and the first that the schemas accept is taken: an integer or number
//     written as JSON writes it ("12", "-3.5"; not "+1"), or, for an
//     integer, with leading zeros ("018956" is 18956, as every peer that
//     types raw values reads it), true or
//     false, null (and Python's True, False and None), a JSON object or
//     array written in the string (taken as written: its strings stay
//     strings) or, failing that, one written as a Python literal
//     ({'a': True}: every peer that types raw values by a schema reads it
//     so, vLLM's and SGLang's among them), a value of a non-string "enum" or
//     "const" as JSON writes it, and for an array a single value that
//     converts to an item, which becomes a one-item array;
//   - if none is accepted, the first way that read the string is taken (so
//     "0" under {"type":"integer","minimum":1} becomes 0, and validation says
//     what is wrong with 0); if none read it, it stays a string, for
//     [Set.Validate] to report.
//
// Arrays (a caret list, a repeated xmltag param) have their items converted
// under the schema of each item, and objects their members. JSON text in a
// string that would make the arguments nest deeper than [Set.MaxDepth] is not
// read: the value stays a string and a problem says why. Convert returns the
// arguments unchanged, and no problem, for a tool it does not know or one
// without parameters.
func (s *Set) Convert(name string, args json.RawMessage) (json.RawMessage, []Problem) {
	t, ok := s.Lookup(name)
	if !ok || t.compiled == nil {
		return args, nil
	}
	if ok, _, _ := checkJSON(args, s.maxDepth()); !ok || kindOf(args) != '{' {
		return args, nil // Validate says what is wrong
	}
	c := &converter{limit: s.maxDepth(), noted: map[string]bool{}}
	out := c.value([]*jsonschema.Schema{t.compiled}, args, "", 0)
	return out, c.problems
}

type converter struct {
	limit    int
	problems []Problem
	noted    map[string]bool // paths with a problem already
}

func (c *converter) problem(path, msg string) {
	if !c.noted[path] {
		c.noted[path] = true
		c.problems = append(c.problems, Problem{path, msg})
	}
}

// value converts v, which stands inside depth containers, under the schemas
// that all apply to it.
func (c *converter) value(views []*jsonschema.Schema, v []byte, path string, depth int) []byte {
	if len(views) == 0 {
		return v
	}
	switch kindOf(v) {
	case '{':
		out := []byte{'{'}
		members(v, func(k string, mv []byte) bool {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = syntax.AppendQuote(out, k)
			out = append(out, ':')
			out = append(out, c.value(memberViews(views, k), mv, join(path, k), depth+1)...)
			return true
		})
		return append(out, '}')
	case '[':
		out := []byte{'['}
		i := 0
		elements(v, func(e []byte, _ int) bool {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, c.value(itemViews(views, i), e, fmt.Sprintf("%s[%d]", path, i), depth+1)...)
			i++
			return true
		})
		return append(out, ']')
	case '"':
	default:
		return v
	}
	str, _ := unquote(v)
	if fitsAll(views, str) {
		return v
	}
	var first []byte
	seen := map[*jsonschema.Schema]bool{} // each schema's readings are listed once: a schema may lead back to itself
	for _, view := range flatten(views) {
		for _, cand := range c.candidates(view, str, path, depth, seen) {
			if !hugeExponent(cand) && fitsAll(views, decode(cand)) { // such numbers: Validate says so
				return cand
			}
			if first == nil {
				first = cand
			}
		}
	}
	if first != nil {
		return first
	}
	return v
}

// candidates lists the readings of str that sch allows, in order: its own
// types, then its anyOf and oneOf branches. A schema in seen was listed
// already (a branch that leads back to a schema through "$ref" adds
// nothing new), so a recursive schema is walked once.
func (c *converter) candidates(sch *jsonschema.Schema, str, path string, depth int, seen map[*jsonschema.Schema]bool) [][]byte {
	if seen[sch] {
		return nil
	}
	seen[sch] = true
	var out [][]byte
	trimmed := strings.TrimSpace(str)
	var types []string
	if sch.Types != nil {
		types = sch.Types.ToStrings()
	}
	for _, t := range types {
		if b := c.read(sch, t, str, trimmed, path, depth); b != nil {
			out = append(out, b)
		}
	}
	var enum []any
	if sch.Enum != nil {
		enum = sch.Enum.Values
	}
	if sch.Const != nil {
		enum = append(enum, *sch.Const)
	}
	for _, e := range enum {
		if _, isString := e.(string); !isString && jsonText(e) == trimmed && json.Valid([]byte(trimmed)) {
			out = append(out, []byte(trimmed))
		}
	}
	for _, branches := range [][]*jsonschema.Schema{sch.AnyOf, sch.OneOf} {
		for _, b := range branches {
			for _, fb := range flatten([]*jsonschema.Schema{b}) {
				out = append(out, c.candidates(fb, str, path, depth, seen)...)
			}
		}
	}
	return out
}

// read reads str as a value of type t, or returns nil.
func (c *converter) read(sch *jsonschema.Schema, t, str, trimmed, path string, depth int) []byte {
	switch t {
	case "integer":
		if isJSONInteger(trimmed) && finite(trimmed) {
			return []byte(trimmed)
		}
		if n, ok := zeroPadded(trimmed); ok {
			return []byte(n)
		}
	case "number":
		if isJSONNumber(trimmed) && finite(trimmed) {
			return []byte(trimmed)
		}
	case "boolean":
		switch trimmed {
		case "true", "false":
			return []byte(trimmed)
		case "True", "False": // Python's spelling
			return []byte(strings.ToLower(trimmed))
		}
	case "null":
		if trimmed == "null" || trimmed == "None" {
			return []byte("null")
		}
	case "object", "array":
		open := byte('{')
		if t == "array" {
			open = '['
		}
		if len(trimmed) > 0 && trimmed[0] == open {
			ok, deep, _ := checkJSON([]byte(trimmed), c.limit-depth)
			if deep {
				c.problem(path, fmt.Sprintf("the JSON in this string nests deeper than the arguments may (%d levels): it was not read", c.limit))
				return nil
			}
			if ok {
				return compact([]byte(trimmed))
			}
			if v, ok := pylit.JSON([]byte(trimmed), c.limit-depth); ok && v[0] == open {
				return v // a Python literal: {'a': True}
			}
		}
		if t == "array" && depth+1 <= c.limit { // a single value is a one-item array, if it is an item
			items := itemViews([]*jsonschema.Schema{sch}, 0)
			one := c.value(items, syntax.AppendQuote(nil, str), path+"[0]", depth+1)
			if fitsAll(items, decode(one)) {
				return append(append([]byte{'['}, one...), ']')
			}
		}
	}
	return nil
}

// fitsAll reports whether v fits every schema.
func fitsAll(views []*jsonschema.Schema, v any) bool {
	for _, s := range views {
		if s.Validate(v) != nil {
			return false
		}
	}
	return true
}

// flatten lists the schemas that apply wherever one of views applies:
// each, and what it refers to ("$ref") or requires too ("allOf").
func flatten(views []*jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	seen := map[*jsonschema.Schema]bool{}
	var add func(s *jsonschema.Schema)
	add = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		add(s.Ref)
		add(s.RecursiveRef)
		if s.DynamicRef != nil {
			add(s.DynamicRef.Ref)
		}
		for _, a := range s.AllOf {
			add(a)
		}
	}
	for _, v := range views {
		add(v)
	}
	return out
}

// memberViews lists the schemas that apply to member k of an object that
// views apply to: "properties", matching "patternProperties", or else
// "additionalProperties" (or "unevaluatedProperties"); and those of the first
// branch of an "anyOf"/"oneOf" that has any.
func memberViews(views []*jsonschema.Schema, k string) []*jsonschema.Schema {
	return memberViewsSeen(views, k, map[*jsonschema.Schema]bool{})
}

// memberViewsSeen is memberViews, not looking again into a schema in
// seen (a branch that leads back to it through "$ref").
func memberViewsSeen(views []*jsonschema.Schema, k string, seen map[*jsonschema.Schema]bool) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, s := range flatten(views) {
		if seen[s] {
			continue
		}
		seen[s] = true
		matched := false
		if p, ok := s.Properties[k]; ok {
			out, matched = append(out, p), true
		}
		for re, p := range s.PatternProperties {
			if re.MatchString(k) {
				out, matched = append(out, p), true
			}
		}
		if !matched {
			if p, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
				out = append(out, p)
			} else if s.UnevaluatedProperties != nil && s.AdditionalProperties == nil {
				out = append(out, s.UnevaluatedProperties)
			}
		}
		out = append(out, firstBranch(s, func(b *jsonschema.Schema) []*jsonschema.Schema {
			return memberViewsSeen([]*jsonschema.Schema{b}, k, seen)
		})...)
	}
	return out
}

// itemViews lists the schemas that apply to item i of an array that views
// apply to.
func itemViews(views []*jsonschema.Schema, i int) []*jsonschema.Schema {
	return itemViewsSeen(views, i, map[*jsonschema.Schema]bool{})
}

// itemsOf returns the one schema every item of an array has (items as a
// schema, in any draft), or nil when there is none: a tuple's items differ.
func itemsOf(s *jsonschema.Schema) *jsonschema.Schema {
	if s.Items2020 != nil {
		return s.Items2020
	}
	it, _ := s.Items.(*jsonschema.Schema)
	return it
}

// itemViewsSeen is itemViews, not looking again into a schema in seen.
func itemViewsSeen(views []*jsonschema.Schema, i int, seen map[*jsonschema.Schema]bool) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, s := range flatten(views) {
		if seen[s] {
			continue
		}
		seen[s] = true
		switch {
		case i < len(s.PrefixItems):
			out = append(out, s.PrefixItems[i])
		case s.Items2020 != nil:
			out = append(out, s.Items2020)
		}
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			out = append(out, items)
		case []*jsonschema.Schema:
			if i < len(items) {
				out = append(out, items[i])
			} else if a, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
				out = append(out, a)
			}
		}
		out = append(out, firstBranch(s, func(b *jsonschema.Schema) []*jsonschema.Schema {
			return itemViewsSeen([]*jsonschema.Schema{b}, i, seen)
		})...)
	}
	return out
}

// firstBranch returns what f finds in the first branch of s's anyOf, then
// oneOf, where it finds anything.
func firstBranch(s *jsonschema.Schema, f func(*jsonschema.Schema) []*jsonschema.Schema) []*jsonschema.Schema {
	for _, branches := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf} {
		for _, b := range branches {
			if found := f(b); len(found) > 0 {
				return found
			}
		}
	}
	return nil
}

// isJSONInteger reports whether s is an integer as JSON writes one: an
// optional minus, then 0 or digits that do not start with 0.
func isJSONInteger(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || d[0] == '0' && len(d) > 1 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// zeroPadded reads s as a decimal integer written with leading zeros
// ("018956", "-007"), which JSON does not allow: it returns the integer as
// JSON writes it. Every peer that types raw values by a schema (vLLM's and
// SGLang's MiniMax M3 parsers, Python's int) reads them so.
func zeroPadded(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	d := strings.TrimPrefix(s, "-")
	if len(d) < 2 || d[0] != '0' {
		return "", false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return "", false
		}
	}
	d = strings.TrimLeft(d, "0")
	switch {
	case !finite(d):
		return "", false
	case d == "":
		return "0", true
	case neg:
		return "-" + d, true
	}
	return d, true
}

// isJSONNumber reports whether s is a number as JSON writes one (with an
// exponent the package checks: see maxExponent).
func isJSONNumber(s string) bool {
	if s == "" || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	return json.Valid([]byte(s)) && !hugeExponent([]byte(s))
}

// Check returns a handler that validates every call before passing it to h,
// converting it first (see [Set.Convert]) when the call's values are the
// strings the model wrote (its Strings field: caret, xmltag); a converted
// call is passed on with Strings cleared. A call that does not fit is still
// passed on — never dropped — with Invalid saying why, and is followed by an
// error event with code schema at the call that names the tool, each
// argument path and each problem.
func (s *Set) Check(h syntax.Handler) syntax.Handler {
	return func(e syntax.Event) {
		if e.Type != syntax.Call || e.Partial {
			h(e)
			return
		}
		var ps []Problem
		if e.Strings {
			if t, ok := s.Lookup(e.Name); ok && t.compiled != nil {
				e.Args, ps = s.Convert(e.Name, e.Args)
				e.Strings = false
			}
		}
		ps = append(ps, s.Validate(e.Name, e.Args)...)
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

// CheckStream is Check for a stream encoder: in token mode, the streamed
// value of a parameter that conversion may turn into another type than a
// string is also held back (its partial events are not passed on). An
// encoder writes values as JSON strings as they come, and a string once
// written cannot become a number; such a value arrives with the complete
// call.
func (s *Set) CheckStream(h syntax.Handler) syntax.Handler {
	check := s.Check(h)
	stringy := map[[2]string]bool{}
	return func(e syntax.Event) {
		if e.Type == syntax.Call && e.Partial && e.Param != "" {
			k := [2]string{e.Name, e.Param}
			ok, seen := stringy[k]
			if !seen {
				ok = s.staysString(e.Name, e.Param)
				if len(stringy) < 1024 {
					stringy[k] = ok
				}
			}
			if !ok {
				return
			}
		}
		check(e)
	}
}

// staysString reports whether conversion leaves any string value of the
// tool's parameter key a string: probes that read as each other type stay
// strings.
func (s *Set) staysString(tool, key string) bool {
	for _, probe := range []string{"0", "true", "null", "{}", "[]"} {
		args := syntax.AppendQuote([]byte{'{'}, key)
		args = syntax.AppendQuote(append(args, ':'), probe)
		out, _ := s.Convert(tool, append(args, '}'))
		if !bytes.Equal(out, append(args, '}')) {
			return false
		}
	}
	return true
}

func callLabel(e syntax.Event) string {
	if e.ID != "" {
		return fmt.Sprintf("%q (%s)", e.Name, e.ID)
	}
	return fmt.Sprintf("%q", e.Name)
}

// finite reports whether the number s fits a float64: one beyond it
// (1e999) has no JSON form a decoder takes (Go's refuses it), so a string
// that writes it stays a string, and the schema says it is no number.
func finite(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil || !math.IsInf(f, 0)
}
