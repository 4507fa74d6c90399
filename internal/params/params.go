// Package params builds the arguments of syntaxes whose values are strings.
package params

import (
	"math"

	"github.com/toolparse/toolparse/syntax"
)

// Params builds the arguments of syntaxes whose values are strings (caret,
// xmltag): parameters in the order their keys first appear, each a string or
// an array of strings. A key added more than once becomes an array.
//
// Memory stays a small multiple of the values' bytes however many there
// are: the values are kept end to end in one buffer, each with 8 bytes of
// bookkeeping (where it ends, and the next value of its key), so a block of
// 440,000 empty parameters costs 3.5 MB here rather than a string header and
// a slice per value. Keys are kept once each.
type Params struct {
	keys  []key
	index map[string]int32 // key name → its position in keys
	vals  []value
	data  []byte // every value's bytes, in the order added
}

type key struct {
	name        string
	first, last int32 // the key's first and last value in vals; -1 when none
	list        bool
}

type value struct {
	end  uint32 // where the value ends in data; it starts where the one before it ends
	next int32  // the next value of the same key, -1 at the last
}

// Add appends vals to key. list makes the value an array even when it holds
// one string (a YAML list of one item).
func (ps *Params) Add(key string, list bool, vals ...string) {
	k := ps.key(key, list)
	for _, v := range vals {
		ps.data = append(ps.data, v...)
		ps.link(k)
	}
}

// AddBytes appends one value, given as bytes, to key, as Add(key, false,
// string(v)) would without making the string.
func (ps *Params) AddBytes(key string, v []byte) {
	k := ps.key(key, false)
	ps.data = append(ps.data, v...)
	ps.link(k)
}

// key returns the position of name in ps.keys, adding it if new; a key seen
// before becomes a list.
func (ps *Params) key(name string, list bool) int32 {
	if ps.index == nil {
		ps.index = map[string]int32{}
	}
	i, seen := ps.index[name]
	if !seen {
		i = int32(len(ps.keys))
		ps.index[name] = i
		if len(ps.keys) == cap(ps.keys) {
			ps.keys = append(make([]key, 0, max(8, 2*cap(ps.keys))), ps.keys...)
		}
		ps.keys = append(ps.keys, key{name: name, first: -1, last: -1})
	}
	ps.keys[i].list = ps.keys[i].list || list || seen
	return i
}

// link records the bytes appended to data since the last value as a value
// of key k.
func (ps *Params) link(k int32) {
	if len(ps.data) > math.MaxUint32 {
		panic("params: more than 4 GiB of values in one call")
	}
	at := int32(len(ps.vals))
	if len(ps.vals) == cap(ps.vals) { // double, so the values are copied about once in all
		ps.vals = append(make([]value, 0, max(16, 2*cap(ps.vals))), ps.vals...)
	}
	ps.vals = append(ps.vals, value{end: uint32(len(ps.data)), next: -1})
	kk := &ps.keys[k]
	if kk.last >= 0 {
		ps.vals[kk.last].next = at
	} else {
		kk.first = at
	}
	kk.last = at
}

// Has reports whether key was added.
func (ps *Params) Has(key string) bool {
	_, ok := ps.index[key]
	return ok
}

// JSON returns the parameters as a JSON object.
func (ps *Params) JSON() []byte {
	b := make([]byte, 0, 2+len(ps.data)+3*len(ps.vals)+4*len(ps.keys))
	b = append(b, '{')
	for i, k := range ps.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = syntax.AppendQuote(b, k.name)
		b = append(b, ':')
		list := k.list || k.first < 0
		if list {
			b = append(b, '[')
		}
		for j := k.first; j >= 0; j = ps.vals[j].next {
			if j != k.first {
				b = append(b, ',')
			}
			b = syntax.AppendQuote(b, ps.bytes(j))
		}
		if list {
			b = append(b, ']')
		}
	}
	return append(b, '}')
}

// bytes returns value j's bytes as a string.
func (ps *Params) bytes(j int32) string {
	start := uint32(0)
	if j > 0 {
		start = ps.vals[j-1].end
	}
	return string(ps.data[start:ps.vals[j].end])
}
