// Package pylit reads a Python literal — what a model writes for an object
// or an array in Python's syntax, {'path': 'a.txt', 'force': True} or
// [1, 'x', None] — as JSON, for a tool schema that wants an object or an
// array where a raw-valued format gave a string.
//
// It reads dicts (string keys only), lists and tuples (as arrays), strings
// in either quote with Python's common escapes (\\ \' \" \n \r \t \b \f
// \0, \xHH, \uXXXX, \UXXXXXXXX; any other backslash is kept as written),
// numbers JSON can hold (a number beyond a float64, or written as JSON
// cannot write it, is no literal), True, False and None, and their JSON
// spellings. A trailing comma is allowed, as Python allows it. Anything
// else — names, calls, sets, bytes, triple-quoted or prefixed strings — is
// not read: the value stays a string. The syntax pythonic reads whole call
// lists with a grammar of its own; this reads one value, by hand, in one
// pass.
package pylit

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/toolparse/toolparse/syntax"
)

// JSON returns the JSON of the Python literal src (white space around it
// allowed), nested at most maxDepth deep, and whether src is one.
func JSON(src []byte, maxDepth int) ([]byte, bool) {
	r := reader{src: src, maxDepth: maxDepth}
	r.space()
	out, ok := r.value(nil, 0)
	r.space()
	if !ok || r.i != len(src) {
		return nil, false
	}
	return out, true
}

type reader struct {
	src      []byte
	i        int
	maxDepth int
}

func (r *reader) space() {
	for r.i < len(r.src) {
		switch r.src[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *reader) value(out []byte, depth int) ([]byte, bool) {
	if r.i >= len(r.src) {
		return nil, false
	}
	switch c := r.src[r.i]; {
	case c == '{':
		return r.dict(out, depth+1)
	case c == '[':
		return r.seq(out, ']', depth+1)
	case c == '(':
		return r.seq(out, ')', depth+1)
	case c == '\'' || c == '"':
		s, ok := r.str()
		if !ok {
			return nil, false
		}
		return syntax.AppendQuote(out, s), true
	case c == '-' || c >= '0' && c <= '9':
		return r.number(out)
	}
	for _, w := range [...][2]string{{"True", "true"}, {"False", "false"}, {"None", "null"}, {"true", "true"}, {"false", "false"}, {"null", "null"}} {
		if r.word(w[0]) {
			return append(out, w[1]...), true
		}
	}
	return nil, false
}

// word takes w when it stands at r.i as a whole word.
func (r *reader) word(w string) bool {
	end := r.i + len(w)
	if end > len(r.src) || string(r.src[r.i:end]) != w {
		return false
	}
	if end < len(r.src) {
		if c := r.src[end]; c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return false
		}
	}
	r.i = end
	return true
}

func (r *reader) dict(out []byte, depth int) ([]byte, bool) {
	if depth > r.maxDepth {
		return nil, false
	}
	r.i++ // '{'
	out = append(out, '{')
	for n := 0; ; n++ {
		r.space()
		if r.i < len(r.src) && r.src[r.i] == '}' {
			r.i++
			return append(out, '}'), true
		}
		if r.i >= len(r.src) || r.src[r.i] != '\'' && r.src[r.i] != '"' {
			return nil, false // a key that is not a string
		}
		k, ok := r.str()
		if !ok {
			return nil, false
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(syntax.AppendQuote(out, k), ':')
		r.space()
		if r.i >= len(r.src) || r.src[r.i] != ':' {
			return nil, false
		}
		r.i++
		r.space()
		if out, ok = r.value(out, depth); !ok {
			return nil, false
		}
		if !r.sep('}') {
			return nil, false
		}
	}
}

func (r *reader) seq(out []byte, close byte, depth int) ([]byte, bool) {
	if depth > r.maxDepth {
		return nil, false
	}
	r.i++ // '[' or '('
	out = append(out, '[')
	for n := 0; ; n++ {
		r.space()
		if r.i < len(r.src) && r.src[r.i] == close {
			r.i++
			return append(out, ']'), true
		}
		if n > 0 {
			out = append(out, ',')
		}
		var ok bool
		if out, ok = r.value(out, depth); !ok {
			return nil, false
		}
		if !r.sep(close) {
			return nil, false
		}
	}
}

// sep reads what follows a member or an item: a comma, or the closer (left
// for the loop to take).
func (r *reader) sep(close byte) bool {
	r.space()
	if r.i >= len(r.src) {
		return false
	}
	switch r.src[r.i] {
	case ',':
		r.i++
		return true
	case close:
		return true
	}
	return false
}

func (r *reader) number(out []byte) ([]byte, bool) {
	start := r.i
	for r.i < len(r.src) {
		c := r.src[r.i]
		if c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || c >= '0' && c <= '9' {
			r.i++
			continue
		}
		break
	}
	num := string(r.src[start:r.i])
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(f, 0) || !json.Valid([]byte(num)) { // as JSON writes a number

		return nil, false
	}
	return append(out, num...), true
}

// str reads a single-line string in either quote, at r.i.
func (r *reader) str() (string, bool) {
	q := r.src[r.i]
	if r.i+2 < len(r.src) && r.src[r.i+1] == q && r.src[r.i+2] == q {
		return "", false // triple-quoted: not read
	}
	r.i++
	var b []byte
	for r.i < len(r.src) {
		c := r.src[r.i]
		switch {
		case c == q:
			r.i++
			return string(b), true
		case c == '\n':
			return "", false
		case c != '\\':
			b = append(b, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.src) {
			return "", false
		}
		e := r.src[r.i+1]
		r.i += 2
		switch e {
		case '\\', '\'', '"':
			b = append(b, e)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case '0':
			b = append(b, 0)
		case 'x', 'u', 'U':
			n := 2 // \xhh; \uXXXX and \UXXXXXXXX below
			switch e {
			case 'u':
				n = 4
			case 'U':
				n = 8
			}
			if r.i+n > len(r.src) {
				return "", false
			}
			v, err := strconv.ParseUint(string(r.src[r.i:r.i+n]), 16, 32)
			if err != nil || v > utf8.MaxRune {
				return "", false
			}
			b = utf8.AppendRune(b, rune(v))
			r.i += n
		default:
			b = append(b, '\\', e) // kept as written, as Python keeps it
		}
	}
	return "", false
}
