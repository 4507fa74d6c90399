// Package params builds the arguments of syntaxes whose values are strings.
package params

import "github.com/toolparse/toolparse/syntax"

// Params builds the arguments of syntaxes whose values are strings (caret,
// xmltag): parameters in the order their keys first appear, each a string or
// an array of strings. A key added more than once becomes an array.
type Params struct {
	keys []string
	vals map[string][]string
	list map[string]bool
}

// Add appends vals to key. list makes the value an array even when it holds
// one string (a YAML list of one item).
func (ps *Params) Add(key string, list bool, vals ...string) {
	if ps.vals == nil {
		ps.vals, ps.list = map[string][]string{}, map[string]bool{}
	}
	old, seen := ps.vals[key]
	if !seen {
		ps.keys = append(ps.keys, key)
	}
	ps.vals[key] = append(old, vals...)
	ps.list[key] = ps.list[key] || list || seen
}

// Has reports whether key was added.
func (ps *Params) Has(key string) bool {
	_, ok := ps.vals[key]
	return ok
}

// JSON returns the parameters as a JSON object.
func (ps *Params) JSON() []byte {
	b := []byte{'{'}
	for i, k := range ps.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = syntax.AppendQuote(b, k)
		b = append(b, ':')
		vs := ps.vals[k]
		if !ps.list[k] {
			b = syntax.AppendQuote(b, vs[0])
			continue
		}
		b = append(b, '[')
		for j, v := range vs {
			if j > 0 {
				b = append(b, ',')
			}
			b = syntax.AppendQuote(b, v)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
