package native

import (
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
)

// fields is a JSON object's members, raw, in order. Documents are validated
// by the stream's JSON scanner before they are read, so they are walked here
// without validating or decoding them again (encoding/json would do both,
// once per nesting level): only the strings that are used are unquoted.
// Provider objects have few keys, so a slice searched in order beats a map,
// and costs one allocation.
//
// The typed accessors (s, str, obj, arr, num, boolean) note a member of
// another type than the one they read (null is read as absent) on the
// parser: the document is then reported as malformed once it has been read
// (see parser.wrongType), so that a wrong-typed field is never silently
// nothing.
type fields struct {
	m []member
	p *parser // notes wrong-typed members; nil notes nothing
}

type member struct{ key, val []byte }

// object returns the members of raw, an element of an array of objects,
// or no members when raw is not an object (noted as a wrong type).
func (p *parser) object(raw []byte) fields {
	if k := jsonscan.Kind(raw); k != '{' && k != 0 {
		p.wrongValue("an element", k, '{')
	}
	return p.probe(raw)
}

// probe returns the members of raw, or no members when raw is not an
// object (nothing is noted). The members are kept in the parser's slab,
// which the next document reuses: fields never outlive their document.
func (p *parser) probe(raw []byte) fields {
	if jsonscan.Kind(raw) != '{' {
		return fields{p: p}
	}
	if p == nil {
		f := fields{m: make([]member, 0, 8)}
		jsonscan.MembersRaw(raw, func(k, v []byte) bool {
			f.m = append(f.m, member{k, v})
			return true
		})
		return f
	}
	start := len(p.slab)
	p.skip.MembersRaw(raw, func(k, v []byte) bool {
		p.slab = append(p.slab, member{k, v})
		return true
	})
	if len(p.slab) == start {
		return fields{m: noMembers, p: p}
	}
	return fields{m: p.slab[start:len(p.slab):len(p.slab)], p: p}
}

// noMembers is the members of an empty object: none, but an object.
var noMembers = []member{}

// none reports whether f is not an object.
func (f fields) none() bool { return f.m == nil }

// get returns key's raw value, or nil. A repeated key gives its first
// value, as in every syntax: in token mode a call's name is announced as
// soon as it is read, so a later value cannot count (encoding/json would
// take the last).
func (f fields) get(key string) []byte {
	for _, m := range f.m {
		if string(m.key) == key {
			return m.val
		}
	}
	return nil
}

// has reports whether key is present (even as null).
func (f fields) has(key string) bool { return f.get(key) != nil }

// expect notes key's value v when it is neither null nor of kind want.
func (f fields) expect(key string, v []byte, want byte) {
	if v == nil || f.p == nil {
		return
	}
	k := jsonscan.Kind(v)
	if k == 'n' || k == want || (want == '0' && (k == '-' || (k >= '0' && k <= '9'))) || (want == 't' && k == 'f') {
		return
	}
	f.p.wrongType(key, k, want)
}

// str returns key's value when it is a string.
func (f fields) str(key string) (string, bool) {
	v := f.get(key)
	f.expect(key, v, '"')
	if f.p != nil && len(v) >= 2 && len(v) <= maxWord+2 && v[0] == '"' {
		if inner := v[1 : len(v)-1]; jsonscan.Plain(inner) { // what Unquote would give
			return f.p.word(inner), true
		}
	}
	return jsonscan.Unquote(v)
}

// text returns key's value when it is a string, decoded into the parser's
// scratch buffer: valid until the next decode, so for a value that is
// copied at once (a call's arguments, which addArgs and setWhole copy).
func (f fields) text(key string) ([]byte, bool) {
	v := f.get(key)
	f.expect(key, v, '"')
	if jsonscan.Kind(v) != '"' {
		return nil, false
	}
	if f.p == nil {
		s, ok := jsonscan.Unquote(v)
		return []byte(s), ok
	}
	return decode(&f.p.sText, v), true
}

// maxWord is the longest string word keeps.
const maxWord = 24

// word returns b, a short string without escapes from a validated
// document, as a string: the one made for the same bytes before, if the
// parser keeps it. A provider's documents repeat the same few words —
// types, roles, finish reasons, tool names — in every message; each was
// an allocation (half of a whole response's). At most 256 are kept.
func (p *parser) word(b []byte) string {
	if s, ok := p.words[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(p.words) < 256 {
		if p.words == nil {
			p.words = make(map[string]string)
		}
		p.words[s] = s
	}
	return s
}

// s returns key's string value, or "".
func (f fields) s(key string) string {
	s, _ := f.str(key)
	return s
}

// obj returns key's value when it is an object.
func (f fields) obj(key string) fields {
	v := f.get(key)
	f.expect(key, v, '{')
	return f.p.probe(v)
}

// arr returns the elements of key's value when it is an array (nil when it
// is absent or not an array).
func (f fields) arr(key string) [][]byte {
	v := f.get(key)
	f.expect(key, v, '[')
	if jsonscan.Kind(v) != '[' {
		return nil
	}
	elems := make([][]byte, 0, 4) // a message's content blocks, a chunk's tool calls: mostly a few
	var skip *jsonscan.Skipper
	if f.p != nil {
		skip = &f.p.skip
	}
	skip.Elements(v, func(e []byte, _ int) bool {
		elems = append(elems, e)
		return true
	})
	return elems
}

// isArr reports whether key's value is an array (a probe: nothing is noted).
func (f fields) isArr(key string) bool { return jsonscan.Kind(f.get(key)) == '[' }

// num returns key's value when it is an integer.
func (f fields) num(key string) (int, bool) {
	v := f.get(key)
	f.expect(key, v, '0')
	if k := jsonscan.Kind(v); k != '-' && (k < '0' || k > '9') {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(v)))
	if err != nil && f.p != nil {
		f.p.wrongType(key, '.', '0')
	}
	return n, err == nil
}

// boolean returns key's value when it is true.
func (f fields) boolean(key string) bool {
	v := f.get(key)
	f.expect(key, v, 't')
	return strings.TrimSpace(string(v)) == "true"
}
