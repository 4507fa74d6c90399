package schema

import (
	"encoding/json"
	"math/big"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	tpsyntax "github.com/toolparse/toolparse/syntax"
)

// Example returns arguments for a call to t that fit its schema, for a
// prompt's worked example, or nil when none was found. A value is taken from
// the schema where it gives one ("examples", "default", "const", "enum");
// otherwise it is made to fit the keywords a tool's schema commonly bounds a
// value with: a string's "format" (date-time, date, time, email, hostname,
// ipv4, ipv6, uri, uuid, …), "pattern" (the shortest string the expression
// matches), "minLength" and "maxLength"; a number's "minimum", "maximum" and
// "multipleOf"; an array's "minItems"; an object's properties, in the order
// the schema lists them, through "$ref", "allOf" and the first branch of
// "anyOf"/"oneOf" that gives a value. A string names what it is ("example
// path" for a parameter named path). The arguments are validated before
// they are returned.
func (t *Tool) Example() json.RawMessage {
	if t.compiled == nil {
		return json.RawMessage("{}")
	}
	g := &exampler{expanding: map[*jsonschema.Schema]int{}}
	v, ok := g.value(t.compiled, t.Parameters, t.Name, 0)
	if !ok {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil || kindOf(b) != '{' || t.compiled.Validate(decode(b)) != nil {
		return nil
	}
	// Keep the summary's property order: encoding/json sorts map keys.
	return ordered(b, t.Parameters)
}

// exampleDepth bounds how deep an example nests: a recursive schema gives
// a value of a few levels.
const exampleDepth = 6

type exampler struct {
	expanding map[*jsonschema.Schema]int // how often a schema is being expanded on the way here
}

// value makes a value that fits s (sum is its summary, when known; name
// hints at what it is), and reports whether it made one (nil is JSON's
// null).
func (g *exampler) value(s *jsonschema.Schema, sum *Schema, name string, depth int) (any, bool) {
	if s == nil || depth > exampleDepth || g.expanding[s] > 1 {
		return nil, false
	}
	g.expanding[s]++
	defer func() { g.expanding[s]-- }()
	if s.Bool != nil {
		return exampleString(name, nil), *s.Bool
	}
	fits := func(v any) bool { return s.Validate(v) == nil }
	for _, e := range s.Examples {
		if fits(e) {
			return e, true
		}
	}
	if s.Default != nil && fits(*s.Default) {
		return *s.Default, true
	}
	if s.Const != nil {
		return *s.Const, true
	}
	if s.Enum != nil {
		for _, e := range s.Enum.Values {
			if fits(e) {
				return e, true
			}
		}
	}
	// What $ref and allOf add applies here too: the first that makes a
	// value that fits everything is taken.
	for _, other := range append([]*jsonschema.Schema{s.Ref}, s.AllOf...) {
		if other == nil {
			continue
		}
		if v, ok := g.value(other, sum, name, depth); ok && fits(v) {
			return v, true
		}
	}
	var types []string
	if s.Types != nil {
		types = s.Types.ToStrings()
	}
	if len(types) == 0 && sum != nil {
		types = sum.Types
	}
	for _, branch := range append(slices.Clone(s.AnyOf), s.OneOf...) {
		if v, ok := g.value(branch, nil, name, depth); ok && fits(v) {
			return v, true
		}
	}
	if len(types) == 0 {
		types = []string{guessType(s)}
	}
	for _, typ := range types {
		if v, ok := g.typed(s, sum, typ, name, depth); ok && fits(v) {
			return v, true
		}
	}
	return nil, false
}

// guessType is the type a schema without one most likely means, from the
// keywords it has.
func guessType(s *jsonschema.Schema) string {
	switch {
	case s.Properties != nil || s.Required != nil || s.AdditionalProperties != nil:
		return "object"
	case s.Items != nil || s.Items2020 != nil || s.PrefixItems != nil || s.MinItems != nil:
		return "array"
	case s.Minimum != nil || s.Maximum != nil || s.MultipleOf != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil:
		return "number"
	}
	return "string"
}

func (g *exampler) typed(s *jsonschema.Schema, sum *Schema, typ, name string, depth int) (any, bool) {
	switch typ {
	case "object":
		obj := map[string]any{}
		for _, k := range propertyOrder(s, sum) {
			var psum *Schema
			if sum != nil {
				psum, _ = sum.property(k)
			}
			v, ok := g.value(s.Properties[k], psum, k, depth+1)
			if !ok {
				if slices.Contains(s.Required, k) {
					return nil, false
				}
				continue
			}
			obj[k] = v
		}
		for _, k := range s.Required {
			if _, ok := obj[k]; !ok {
				obj[k] = exampleString(k, nil)
			}
		}
		return obj, true
	case "array":
		item := itemsOf(s)
		var isum *Schema
		if sum != nil {
			isum = sum.Items
		}
		n := 1
		if s.MinItems != nil && *s.MinItems > n {
			n = min(*s.MinItems, 16)
		}
		if s.MaxItems != nil && *s.MaxItems < n {
			n = *s.MaxItems
		}
		arr := []any{}
		for i := range n {
			v, ok := any(nil), true
			switch {
			case i < len(s.PrefixItems):
				v, ok = g.value(s.PrefixItems[i], nil, name, depth+1)
			case item != nil && s.UniqueItems && item.Enum != nil && i < len(item.Enum.Values):
				v = item.Enum.Values[i] // distinct items: the enum's values in turn
			case item != nil:
				v, ok = g.value(item, isum, name, depth+1)
				if s.UniqueItems && i > 0 {
					switch x := v.(type) {
					case string:
						v = x + " " + string(rune('a'+i%26))
					case json.Number:
						if n, err := x.Int64(); err == nil {
							v = json.Number(strconv.FormatInt(n+int64(i), 10))
						}
					}
				}
			default:
				v = exampleString(name, nil)
			}
			if !ok {
				return nil, false
			}
			arr = append(arr, v)
		}
		return arr, true
	case "integer", "number":
		return exampleNumber(s, typ == "integer"), true
	case "boolean":
		return true, true
	case "null":
		return nil, true
	}
	return exampleString(name, s), true
}

// propertyOrder lists s's properties in the order the summary has them
// (the schema's), then any others sorted.
func propertyOrder(s *jsonschema.Schema, sum *Schema) []string {
	var out []string
	seen := map[string]bool{}
	if sum != nil {
		for _, p := range sum.Properties {
			if _, ok := s.Properties[p.Name]; ok && !seen[p.Name] {
				out, seen[p.Name] = append(out, p.Name), true
			}
		}
	}
	var rest []string
	for k := range s.Properties {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// formatExamples are values of the formats a tool's schema commonly names.
var formatExamples = map[string]string{
	"date-time":             "2025-01-15T09:30:00Z",
	"date":                  "2025-01-15",
	"time":                  "09:30:00Z",
	"duration":              "P1D",
	"email":                 "user@example.com",
	"idn-email":             "user@example.com",
	"hostname":              "example.com",
	"idn-hostname":          "example.com",
	"ipv4":                  "192.0.2.1",
	"ipv6":                  "2001:db8::1",
	"uri":                   "https://example.com/",
	"uri-reference":         "https://example.com/",
	"iri":                   "https://example.com/",
	"iri-reference":         "https://example.com/",
	"uri-template":          "https://example.com/{id}",
	"uuid":                  "123e4567-e89b-12d3-a456-426614174000",
	"json-pointer":          "/example",
	"relative-json-pointer": "0/example",
	"regex":                 "^example$",
	"period":                "2025-01-15T09:30:00Z/P1D",
}

// exampleString makes a string for a parameter named name that fits s's
// format, pattern and length bounds, where it has them.
func exampleString(name string, s *jsonschema.Schema) string {
	str := "example " + strings.ReplaceAll(name, "_", " ")
	if s == nil {
		return str
	}
	if s.Format != nil {
		if f, ok := formatExamples[s.Format.Name]; ok {
			return f
		}
	}
	if s.Pattern != nil && !s.Pattern.MatchString(str) {
		if m, ok := shortestMatch(s.Pattern.String()); ok {
			str = m
		}
	}
	n := utf8.RuneCountInString(str)
	if s.MaxLength != nil && n > *s.MaxLength {
		str = string([]rune(str)[:*s.MaxLength])
	}
	if s.MinLength != nil && n < *s.MinLength {
		str += strings.Repeat("x", *s.MinLength-n)
	}
	return str
}

// shortestMatch returns a short string that the regular expression
// matches: each repetition at its least, each alternation's first branch,
// each character class's first character (a letter or digit where the
// class has one).
func shortestMatch(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	var walk func(re *syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				b.WriteRune(r)
			}
		case syntax.OpCharClass:
			if len(re.Rune) == 0 {
				return false
			}
			r := re.Rune[0]
			for i := 0; i+1 < len(re.Rune); i += 2 {
				lo, hi := re.Rune[i], re.Rune[i+1]
				for _, pref := range []rune{'a', 'A', '0'} {
					if lo <= pref && pref <= hi {
						r = pref
						goto found
					}
				}
			}
		found:
			b.WriteRune(r)
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
		case syntax.OpCapture:
			return walk(re.Sub[0])
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				if !walk(sub) {
					return false
				}
			}
		case syntax.OpAlternate:
			return walk(re.Sub[0])
		case syntax.OpPlus:
			return walk(re.Sub[0])
		case syntax.OpRepeat:
			for range min(re.Min, 64) {
				if !walk(re.Sub[0]) {
					return false
				}
			}
		case syntax.OpStar, syntax.OpQuest, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
			syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		default:
			return false
		}
		return true
	}
	if !walk(re) {
		return "", false
	}
	return b.String(), true
}

// exampleNumber makes a number that fits s's bounds: 10 (2.5 for a number)
// when it may, else the least that fits.
func exampleNumber(s *jsonschema.Schema, integer bool) any {
	v := big.NewRat(10, 1)
	if !integer {
		v = big.NewRat(5, 2)
	}
	one := big.NewRat(1, 1)
	if s.MultipleOf != nil {
		v = new(big.Rat).Set(s.MultipleOf)
		for integer && !v.IsInt() {
			v.Add(v, s.MultipleOf)
		}
	}
	step := one
	if s.MultipleOf != nil {
		step = s.MultipleOf
	}
	lower := func(low *big.Rat, strict bool) {
		if low != nil && (v.Cmp(low) < 0 || strict && v.Cmp(low) == 0) {
			if s.MultipleOf == nil {
				v = new(big.Rat).Set(low)
				if strict || integer && !v.IsInt() {
					// the next integer above, or half a unit
					if integer {
						v = new(big.Rat).SetInt(new(big.Int).Add(new(big.Int).Quo(v.Num(), v.Denom()), big.NewInt(1)))
					} else {
						v.Add(v, big.NewRat(1, 2))
					}
				}
				return
			}
			// the first multiple at or above the bound
			q := new(big.Rat).Quo(low, step)
			n := new(big.Int).Quo(q.Num(), q.Denom())
			v = new(big.Rat).Mul(new(big.Rat).SetInt(n), step)
			for v.Cmp(low) < 0 || strict && v.Cmp(low) == 0 {
				v.Add(v, step)
			}
			return
		}
	}
	upper := func(high *big.Rat, strict bool) {
		if high != nil && (v.Cmp(high) > 0 || strict && v.Cmp(high) == 0) {
			v = new(big.Rat).Set(high)
			if strict {
				v.Sub(v, step)
			}
			if s.MultipleOf != nil {
				q := new(big.Rat).Quo(v, step)
				n := new(big.Int).Quo(q.Num(), q.Denom())
				v = new(big.Rat).Mul(new(big.Rat).SetInt(n), step)
			}
		}
	}
	lower(s.Minimum, false)
	lower(s.ExclusiveMinimum, true)
	upper(s.Maximum, false)
	upper(s.ExclusiveMaximum, true)
	if v.IsInt() {
		return json.Number(v.Num().String())
	}
	f, _ := v.Float64()
	return json.Number(strings.TrimRight(strings.TrimRight(big.NewFloat(f).Text('f', 10), "0"), "."))
}

// ordered rewrites a JSON object made from maps so that its members come in
// the summary's order (the schema's) instead of sorted.
func ordered(b []byte, sum *Schema) json.RawMessage {
	if kindOf(b) != '{' {
		return b
	}
	vals := map[string][]byte{}
	var keys []string
	members(b, func(k string, v []byte) bool {
		vals[k] = v
		keys = append(keys, k)
		return true
	})
	var order []string
	seen := map[string]bool{}
	if sum != nil {
		for _, p := range sum.Properties {
			if _, ok := vals[p.Name]; ok && !seen[p.Name] {
				order, seen[p.Name] = append(order, p.Name), true
			}
		}
	}
	for _, k := range keys {
		if !seen[k] {
			order = append(order, k)
		}
	}
	out := []byte{'{'}
	for i, k := range order {
		if i > 0 {
			out = append(out, ',')
		}
		out = tpsyntax.AppendQuote(out, k)
		out = append(out, ':')
		var psum *Schema
		if sum != nil {
			psum, _ = sum.property(k)
		}
		out = append(out, ordered(vals[k], psum)...)
	}
	return append(out, '}')
}
