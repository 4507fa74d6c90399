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
type fields []member

type member struct{ key, val []byte }

// object returns the members of raw, or nil when raw is not an object.
func object(raw []byte) fields {
	if jsonscan.Kind(raw) != '{' {
		return nil
	}
	f := make(fields, 0, 8)
	jsonscan.MembersRaw(raw, func(k, v []byte) bool {
		f = append(f, member{k, v})
		return true
	})
	return f
}

// get returns key's raw value, or nil. A repeated key gives its first
// value, as in every syntax: in token mode a call's name is announced as
// soon as it is read, so a later value cannot count (encoding/json would
// take the last).
func (f fields) get(key string) []byte {
	for _, m := range f {
		if string(m.key) == key {
			return m.val
		}
	}
	return nil
}

// has reports whether key is present (even as null).
func (f fields) has(key string) bool { return f.get(key) != nil }

// str returns key's value when it is a string.
func (f fields) str(key string) (string, bool) {
	return jsonscan.Unquote(f.get(key))
}

// s returns key's string value, or "".
func (f fields) s(key string) string {
	s, _ := f.str(key)
	return s
}

// obj returns key's value when it is an object.
func (f fields) obj(key string) fields { return object(f.get(key)) }

// arr returns the elements of key's value when it is an array (nil when it
// is absent or not an array).
func (f fields) arr(key string) [][]byte {
	v := f.get(key)
	if jsonscan.Kind(v) != '[' {
		return nil
	}
	elems := [][]byte{}
	jsonscan.Elements(v, func(e []byte, _ int) bool {
		elems = append(elems, e)
		return true
	})
	return elems
}

// isArr reports whether key's value is an array.
func (f fields) isArr(key string) bool { return jsonscan.Kind(f.get(key)) == '[' }

// num returns key's value when it is an integer.
func (f fields) num(key string) (int, bool) {
	v := f.get(key)
	if k := jsonscan.Kind(v); k != '-' && (k < '0' || k > '9') {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(v)))
	return n, err == nil
}

// boolean returns key's value when it is true.
func (f fields) boolean(key string) bool { return strings.TrimSpace(string(f.get(key))) == "true" }
