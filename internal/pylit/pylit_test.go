package pylit

import (
	"encoding/json"
	"testing"
)

func TestJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{'check': True}`, `{"check":true}`},
		{`{"a": None, 'b': [1, 2.5, -3e2], 'c': (1,)}`, `{"a":null,"b":[1,2.5,-3e2],"c":[1]}`},
		{`[ 'x', "y\n", 'it\'s', '\u00e9\x41\q' ]`, `["x","y\n","it's","éA\\q"]`},
		{`{'nested': {'k': [True, False, null]},}`, `{"nested":{"k":[true,false,null]}}`},
		{`[]`, `[]`},
		{`{1: 2}`, ``},       // a key that is not a string
		{`{'a': b}`, ``},     // a name
		{`[1e999]`, ``},      // beyond a float64
		{`[.5]`, ``},         // not as JSON writes it
		{`[07]`, ``},         // not as JSON writes it
		{`{'a': 1} x`, ``},   // text after it
		{`['''x''']`, ``},    // triple-quoted
		{`[Truer]`, ``},      // a name, not True
		{`{'a': [1, 2}`, ``}, // brackets that do not match
		{`[[[[1]]]]`, ``},    // deeper than the limit of 3
	} {
		got, ok := JSON([]byte(c.in), 3)
		if c.want == "" {
			if ok {
				t.Errorf("%s: read as %s, want no literal", c.in, got)
			}
			continue
		}
		if !ok || string(got) != c.want {
			t.Errorf("%s: got %s (%v), want %s", c.in, got, ok, c.want)
		}
	}
}

// FuzzJSON: whatever the input, no panic, and what is read is valid JSON
// of an object, an array or a scalar.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{'check': True}`, `[1, 'x', None, (2,)]`, `'\u00e9\x41'`, `-0.5e3`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, ok := JSON(src, 16)
		if ok && !json.Valid(out) {
			t.Fatalf("%q read as invalid JSON %q", src, out)
		}
	})
}
