package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

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

func (s *Set) maxDepth() int {
	if s.MaxDepth > 0 {
		return s.MaxDepth
	}
	return syntax.DefaultMaxDepth
}

// Validate checks a call's arguments against its tool's schema, and returns
// every problem, in the order of the arguments they concern (a missing
// argument at the end of its object).
func (s *Set) Validate(name string, args json.RawMessage) []Problem {
	t, ok := s.Lookup(name)
	if !ok {
		return []Problem{{"", fmt.Sprintf("unknown tool %q (known: %s)", name, strings.Join(s.Names(), ", "))}}
	}
	if t.compiled == nil {
		return nil
	}
	if ok, deep, msg := checkJSON(args, s.maxDepth()); !ok {
		if deep {
			return []Problem{{"", fmt.Sprintf("the arguments nest deeper than %d levels", s.maxDepth())}}
		}
		return []Problem{{"", "the arguments are not valid JSON: " + msg}}
	}
	if kindOf(args) != '{' {
		return []Problem{{"", fmt.Sprintf("the arguments must be an object, not %s", kindName(kindOf(args)))}}
	}
	if hugeExponent(args) {
		var ps []Problem
		hugeNumbers(args, "", &ps)
		return ps
	}
	if t.plain != nil && fastPath {
		return validatePlain(t.plain, args)
	}
	return t.validate(args)
}

// validate runs the engine on valid JSON.
func (t *Tool) validate(args []byte) []Problem {
	err := t.compiled.Validate(decode(args))
	if err == nil {
		return nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Problem{{"", err.Error()}}
	}
	return problemsOf(verr, args, t)
}

// problemsOf says in words what the engine found wrong with inst. t, when
// not nil, is the tool whose schema inst was checked against (its schema
// locations make the messages more precise).
func problemsOf(e *jsonschema.ValidationError, inst []byte, t *Tool) []Problem {
	m := &mapper{inst: inst, tool: t}
	m.walk(e)
	ls := m.out
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].off < ls[j].off })
	var ps []Problem
	seen := map[Problem]bool{}
	for _, l := range ls {
		if !seen[l.Problem] {
			seen[l.Problem] = true
			ps = append(ps, l.Problem)
		}
	}
	return ps
}

// mapper turns an engine error tree into problems.
type mapper struct {
	inst []byte
	tool *Tool
	out  []located
}

// located is a problem with where it stands in the instance, to sort by.
type located struct {
	Problem
	off  int
	loc  string // the instance location, to tell problems about the value itself
	want string // a type problem: the types wanted ("integer or null")
	got  string // a type problem: what was given
}

// place renders an instance location as a path ("options.files[2]") and
// finds its value and offset.
func (m *mapper) place(loc []string) (path string, raw []byte, off int, found bool) {
	raw, off, arrays, found := locate(m.inst, loc)
	var b strings.Builder
	for i, tok := range loc {
		if arrays[i] {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String(), raw, off, found
}

func (m *mapper) add(loc []string, format string, a ...any) {
	path, _, off, _ := m.place(loc)
	m.out = append(m.out, located{Problem: Problem{path, fmt.Sprintf(format, a...)}, off: off, loc: strings.Join(loc, "\x00")})
}

// addMissing reports the named members of the object at loc as missing.
func (m *mapper) addMissing(loc []string, names []string, msg string) {
	path, raw, off, _ := m.place(loc)
	end := off + len(raw) - 1
	for _, n := range names {
		m.out = append(m.out, located{Problem: Problem{join(path, n), msg}, off: end, loc: strings.Join(append(loc[:len(loc):len(loc)], n), "\x00")})
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// value is the raw value at loc, trimmed.
func (m *mapper) value(loc []string) []byte {
	_, raw, _, _ := m.place(loc)
	return trimSpace(raw)
}

var printer = message.NewPrinter(language.English)

func (m *mapper) walk(e *jsonschema.ValidationError) {
	loc := e.InstanceLocation
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range sortedCauses(e.Causes, m.inst) {
			m.walk(c)
		}
	case *kind.AnyOf:
		m.alternatives(e)
	case *kind.OneOf:
		if len(k.Subschemas) == 2 {
			m.add(loc, "fits more than one of the allowed forms (%d and %d); it must fit exactly one", k.Subschemas[0]+1, k.Subschemas[1]+1)
		} else {
			m.alternatives(e)
		}
	case *kind.Type:
		path, raw, off, _ := m.place(loc)
		want := m.typeWanted(e.SchemaURL, k.Want)
		got := describe(trimSpace(raw))
		m.out = append(m.out, located{Problem: Problem{path, fmt.Sprintf("expected %s, got %s", want, got)},
			off: off, loc: strings.Join(loc, "\x00"), want: want, got: got})
	case *kind.Enum:
		opts := make([]string, len(k.Want))
		for i, w := range k.Want {
			opts[i] = jsonText(w)
		}
		if len(opts) == 1 {
			m.add(loc, "expected %s, got %s", opts[0], clip(m.value(loc)))
		} else {
			m.add(loc, "%s is not one of %s", clip(m.value(loc)), strings.Join(opts, ", "))
		}
	case *kind.Const:
		m.add(loc, "expected %s, got %s", clipText(jsonText(k.Want)), clip(m.value(loc)))
	case *kind.Required:
		m.addMissing(loc, k.Missing, "missing (required)")
	case *kind.DependentRequired:
		m.addMissing(loc, k.Missing, fmt.Sprintf("missing (required when %q is given)", k.Prop))
	case *kind.Dependency:
		m.addMissing(loc, k.Missing, fmt.Sprintf("missing (required when %q is given)", k.Prop))
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			m.add(append(loc[:len(loc):len(loc)], p), "unknown argument (the schema allows no others)")
		}
	case *kind.FalseSchema:
		switch kw := e.SchemaURL[strings.LastIndexByte(e.SchemaURL, '/')+1:]; kw {
		case "unevaluatedProperties", "additionalProperties":
			m.add(loc, "unknown argument (the schema allows no others)")
		case "items", "unevaluatedItems", "additionalItems":
			m.add(loc, "an item more than the schema allows")
		default:
			m.add(loc, "no value is allowed here")
		}
	case *kind.AdditionalItems:
		m.add(loc, "has %d %s more than the schema allows", k.Count, plural(k.Count, "item"))
	case *kind.MinItems:
		m.add(loc, "expected at least %d %s, got %d", k.Want, plural(k.Want, "item"), k.Got)
	case *kind.MaxItems:
		m.add(loc, "expected at most %d %s, got %d", k.Want, plural(k.Want, "item"), k.Got)
	case *kind.MinLength:
		m.add(loc, "expected at least %d %s, got %d: %s", k.Want, plural(k.Want, "character"), k.Got, clip(m.value(loc)))
	case *kind.MaxLength:
		m.add(loc, "expected at most %d %s, got %d", k.Want, plural(k.Want, "character"), k.Got)
	case *kind.MinProperties:
		m.add(loc, "expected at least %d %s, got %d", k.Want, memberWord(loc, k.Want), k.Got)
	case *kind.MaxProperties:
		m.add(loc, "expected at most %d %s, got %d", k.Want, memberWord(loc, k.Want), k.Got)
	case *kind.Minimum:
		m.add(loc, "expected at least %s, got %s", ratText(k.Want), clip(m.value(loc)))
	case *kind.Maximum:
		m.add(loc, "expected at most %s, got %s", ratText(k.Want), clip(m.value(loc)))
	case *kind.ExclusiveMinimum:
		m.add(loc, "expected more than %s, got %s", ratText(k.Want), clip(m.value(loc)))
	case *kind.ExclusiveMaximum:
		m.add(loc, "expected less than %s, got %s", ratText(k.Want), clip(m.value(loc)))
	case *kind.MultipleOf:
		m.add(loc, "expected a multiple of %s, got %s", ratText(k.Want), clip(m.value(loc)))
	case *kind.UniqueItems:
		m.add(loc, "items %d and %d are equal; the items must be unique", k.Duplicates[0], k.Duplicates[1])
	case *kind.Pattern:
		m.add(loc, "expected a string matching the pattern %s, got %s", k.Want, clip(m.value(loc)))
	case *kind.Format:
		m.add(loc, "expected a valid %s, got %s (%s)", k.Want, clip(m.value(loc)), localized(k.Err))
	case *kind.PropertyNames:
		name := &mapper{inst: syntax.AppendQuote(nil, k.Property), tool: m.tool}
		for _, c := range e.Causes {
			name.walk(c)
		}
		var why []string
		for _, l := range name.out {
			why = append(why, l.Msg)
		}
		m.add(append(loc[:len(loc):len(loc)], k.Property), "the name is not allowed: %s", strings.Join(why, "; "))
	case *kind.Contains:
		m.add(loc, "expected an item that fits the schema of \"contains\", got none")
	case *kind.MinContains:
		m.add(loc, "expected at least %d %s fitting the schema of \"contains\", got %d", k.Want, plural(k.Want, "item"), len(k.Got))
	case *kind.MaxContains:
		m.add(loc, "expected at most %d %s fitting the schema of \"contains\", got %d", k.Want, plural(k.Want, "item"), len(k.Got))
	case *kind.Not:
		m.add(loc, "%s fits the schema under \"not\", which it must not", clip(m.value(loc)))
	case *kind.ContentEncoding:
		m.add(loc, "expected %s-encoded text: %s", k.Want, localized(k.Err))
	case *kind.ContentMediaType:
		m.add(loc, "expected text of media type %s: %s", k.Want, localized(k.Err))
	case *kind.ContentSchema:
		m.add(loc, "its decoded content does not fit the schema of \"contentSchema\"")
	default: // kinds a later engine may add: its own words, never nothing
		m.add(loc, "%s", e.ErrorKind.LocalizedString(printer))
	}
}

// alternatives reports a value that fits no branch of anyOf or oneOf (each
// cause is a branch, in order). When every branch wanted another type, that
// is one problem ("expected integer or null, got string "ten""). Otherwise
// the branches that wanted another type are left out: when one branch is
// left, its problems are the problems; when several are, one problem lists
// them.
func (m *mapper) alternatives(e *jsonschema.ValidationError) {
	here := strings.Join(e.InstanceLocation, "\x00")
	type branch struct {
		n   int
		out []located
	}
	var typed, others []branch
	for i, c := range e.Causes {
		sub := &mapper{inst: m.inst, tool: m.tool}
		sub.walk(c)
		b := branch{i + 1, sub.out}
		if len(b.out) == 1 && b.out[0].want != "" && b.out[0].loc == here {
			typed = append(typed, b)
		} else {
			others = append(others, b)
		}
	}
	switch {
	case len(others) == 0 && len(typed) > 0:
		var wants []string
		for _, b := range typed {
			for _, w := range strings.Split(b.out[0].want, " or ") {
				if !containsString(wants, w) {
					wants = append(wants, w)
				}
			}
		}
		l := typed[0].out[0]
		l.Msg = fmt.Sprintf("expected %s, got %s", strings.Join(wants, " or "), l.got)
		l.want = strings.Join(wants, " or ")
		m.out = append(m.out, l)
	case len(others) == 1:
		m.out = append(m.out, others[0].out...)
	default:
		path, _, _, _ := m.place(e.InstanceLocation)
		var forms []string
		for _, b := range others {
			var msgs []string
			for _, l := range b.out {
				if rel := strings.TrimPrefix(strings.TrimPrefix(l.Path, path), "."); rel != "" && l.Path != path {
					msgs = append(msgs, fmt.Sprintf("%q: %s", rel, l.Msg))
				} else {
					msgs = append(msgs, l.Msg)
				}
			}
			forms = append(forms, fmt.Sprintf("(%d) %s", b.n, strings.Join(msgs, ", ")))
		}
		m.add(e.InstanceLocation, "fits none of the allowed forms: %s", strings.Join(forms, "; "))
	}
}

// sortedCauses orders the causes of an error by where they stand in the
// instance, then by the schema keyword that raised them, so that problems
// come out in the same order every time (the engine walks maps).
func sortedCauses(cs []*jsonschema.ValidationError, inst []byte) []*jsonschema.ValidationError {
	type keyed struct {
		off int
		key string
		c   *jsonschema.ValidationError
	}
	ks := make([]keyed, len(cs))
	for i, c := range cs {
		_, off, _, _ := locate(inst, c.InstanceLocation)
		key := c.SchemaURL + "/" + strings.Join(c.ErrorKind.KeywordPath(), "/")
		if pn, ok := c.ErrorKind.(*kind.PropertyNames); ok {
			key += "/" + pn.Property
		}
		ks[i] = keyed{off, key, c}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		if ks[i].off != ks[j].off {
			return ks[i].off < ks[j].off
		}
		return ks[i].key < ks[j].key
	})
	out := make([]*jsonschema.ValidationError, len(ks))
	for i, k := range ks {
		out[i] = k.c
	}
	return out
}

// typeWanted describes the types the schema at schemaURL wants, in the order
// the schema writes them, an array's items included ("array of string").
func (m *mapper) typeWanted(schemaURL string, want []string) string {
	if m.tool != nil {
		if sch := m.tool.byLoc[schemaURL]; sch != nil {
			if s := m.tool.typeString(sch, 0); s != "" {
				return s
			}
		}
	}
	return strings.Join(want, " or ")
}

// typeString describes a compiled schema's types for people: its "type" in
// the order written, following "$ref" and, for arrays, their items; "" when
// it names no type.
func (t *Tool) typeString(sch *jsonschema.Schema, depth int) string {
	for sch.Ref != nil && sch.Types == nil && depth < 8 {
		sch, depth = sch.Ref, depth+1
	}
	if sch.Types == nil || depth > 8 {
		return ""
	}
	names := t.writtenTypes(sch)
	for i, n := range names {
		if n != "array" {
			continue
		}
		if items := itemsOf(sch); items != nil {
			if s := t.typeString(items, depth+1); s != "" {
				names[i] = "array of " + s
			}
		}
	}
	return strings.Join(names, " or ")
}

// writtenTypes lists a compiled schema's types in the order its source gives
// them (the engine keeps a set).
func (t *Tool) writtenTypes(sch *jsonschema.Schema) []string {
	set := sch.Types.ToStrings()
	ptr, ok := strings.CutPrefix(sch.Location, location+"#")
	if !ok {
		return set
	}
	src := (&describer{root: t.raw}).resolve("#" + ptr)
	var written []string
	members(src, func(k string, v []byte) bool {
		if k != "type" {
			return true
		}
		if s, ok := unquote(v); ok {
			written = []string{s}
		} else {
			elements(v, func(e []byte, _ int) bool {
				s, _ := unquote(e)
				written = append(written, s)
				return true
			})
		}
		return false
	})
	if len(written) != len(set) {
		return set
	}
	return written
}

// describe names a raw value's type and shows it: `string "10"`, `number 3.5`.
func describe(v []byte) string {
	k := "number"
	switch kindOf(v) {
	case '{':
		k = "object"
	case '[':
		k = "array"
	case '"':
		k = "string"
	case 't', 'f':
		k = "boolean"
	case 'n':
		return "null"
	}
	return k + " " + clip(v)
}

// clip shows a raw value, cut after 40 bytes (at a character boundary).
func clip(v []byte) string { return clipText(string(bytes.TrimSpace(v))) }

func clipText(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// jsonText writes a value the engine decoded as JSON.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ratText writes a bound as a number: 10, 0.5.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return r.RatString()
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// memberWord names the members of the object at loc: the call's arguments, or
// an object's properties.
func memberWord(loc []string, n int) string {
	if len(loc) == 0 {
		return plural(n, "argument")
	}
	if n == 1 {
		return "property"
	}
	return "properties"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func localized(err error) string {
	if err == nil {
		return "invalid"
	}
	if l, ok := err.(interface{ LocalizedError(*message.Printer) string }); ok {
		return l.LocalizedError(printer)
	}
	return err.Error()
}
