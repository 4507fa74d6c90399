package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/big"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/toolparse/toolparse/syntax"
)

// The functions below walk JSON that [JSON] has already validated. They do
// not check validity again; on invalid input their results are unspecified
// (but they never panic or loop).

// SkipSpace returns the index of the first non-white-space byte of b at or after i.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// SkipValue returns the index just past the value starting at b[i].
func SkipValue(b []byte, i int) int { return (*Skipper)(nil).SkipValue(b, i) }

// A Skipper walks one document as SkipValue, MembersRaw and Elements do,
// and remembers where the last few long strings it passed end, so that a
// reader that walks the document level by level (each level skipping the
// values below it) reads a long string once, not once a level. It knows a
// string by its address: Reset it before the bytes it walked are written
// again (a reused buffer); bytes appended after them are no harm (a string
// cut off by the end of what was walked is not remembered). A nil
// *Skipper remembers nothing.
type Skipper struct {
	at  [4]*byte // the first byte (the quote) of a long string passed
	len [4]int   // its length, quotes included
	n   int      // the slot to fill next
}

// longString is the shortest string a Skipper remembers (a variable so
// that tests can make every string long).
var longString = 512

// Reset forgets every string.
func (s *Skipper) Reset() { *s = Skipper{} }

// SkipValue is [SkipValue].
func (s *Skipper) SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return s.skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = s.skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) && !isSpace(b[i]) && b[i] != ',' && b[i] != ']' && b[i] != '}' {
		i++
	}
	return i
}

// skipString is skipString, through the strings s remembers.
func (s *Skipper) skipString(b []byte, i int) int {
	if s == nil {
		return skipString(b, i)
	}
	if s.at[0] != nil {
		at := &b[i]
		for k := range s.at {
			if s.at[k] == at {
				if end := i + s.len[k]; end <= len(b) && b[end-1] == '"' {
					return end
				}
			}
		}
	}
	end, closed := closeString(b, i)
	if closed && end-i >= longString { // a string cut off by the end of b is not remembered: b may be a part
		s.at[s.n], s.len[s.n] = &b[i], end-i
		s.n = (s.n + 1) % len(s.at)
	}
	return end
}

func skipString(b []byte, i int) int {
	end, _ := closeString(b, i)
	return end
}

// closeString returns the index just past the string starting at b[i], and
// whether its closing quote was found (else the index is len(b)).
func closeString(b []byte, i int) (int, bool) {
	i++ // opening quote
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b), false
		}
		i += j
		// The quote is escaped if an odd number of backslashes precede it.
		k := i - 1
		for k >= 0 && b[k] == '\\' {
			k--
		}
		i++
		if (i-2-k)%2 == 0 {
			return i, true
		}
	}
}

// Elements calls f with the raw bytes and start index of each element of the
// array at the start of arr, stopping if f returns false.
func Elements(arr []byte, f func(elem []byte, start int) bool) {
	(*Skipper)(nil).Elements(arr, f)
}

// Elements is [Elements].
func (s *Skipper) Elements(arr []byte, f func(elem []byte, start int) bool) {
	EachElement(arr, func(i int) int {
		end := s.SkipValue(arr, i)
		if !f(arr[i:end], i) {
			return -1
		}
		return end
	})
}

// EachElement calls f with the index in arr of each element of the array
// at its start; f reads the element and returns the index just past it, or
// a negative number to stop. A reader that needs an element's end only as
// it reads it walks the array once.
func EachElement(arr []byte, f func(i int) int) {
	i := SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = SkipSpace(arr, i+1)
	for i < len(arr) && arr[i] != ']' {
		end := f(i)
		if end < 0 {
			return
		}
		i = SkipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = SkipSpace(arr, i+1)
		}
	}
}

// Members calls f with each member of the object at the start of obj: the
// key, unquoted, and the raw value. It stops if f returns false.
func Members(obj []byte, f func(key string, val []byte) bool) {
	MembersRaw(obj, func(k, v []byte) bool { return f(string(k), v) })
}

// Member returns the raw value of key in the object at the start of obj
// (the first, for a key given twice), or nil.
func Member(obj []byte, key string) []byte {
	var val []byte
	MembersRaw(obj, func(k, v []byte) bool {
		if string(k) == key {
			val = v
			return false
		}
		return true
	})
	return val
}

// WithMember returns the object obj, compacted, with key's value replaced
// by val, or with key and val added at its end when it has no key.
func WithMember(obj []byte, key string, val []byte) []byte {
	b := []byte{'{'}
	set := false
	MembersRaw(obj, func(k, v []byte) bool {
		if string(k) == key {
			v, set = val, true
		}
		b = appendMember(b, string(k), v)
		return true
	})
	if !set {
		b = appendMember(b, key, val)
	}
	return append(b, '}')
}

func appendMember(b []byte, key string, val []byte) []byte {
	if len(b) > 1 {
		b = append(b, ',')
	}
	b = append(syntax.AppendQuote(b, key), ':')
	return append(b, Compact(val)...)
}

// MembersRaw is Members with each key as bytes: the key's text when it holds
// no escape (no allocation), or its decoded form.
func MembersRaw(obj []byte, f func(key, val []byte) bool) {
	(*Skipper)(nil).MembersRaw(obj, f)
}

// MembersRaw is [MembersRaw].
func (s *Skipper) MembersRaw(obj []byte, f func(key, val []byte) bool) {
	EachMember(obj, func(k []byte, i int) int {
		end := s.SkipValue(obj, i)
		if !f(k, obj[i:end]) {
			return -1
		}
		return end
	})
}

// EachMember calls f with each member of the object at the start of obj:
// its key, as MembersRaw gives it, and the index in obj of its value; f
// reads the value and returns the index just past it, or a negative number
// to stop. It returns the index just past the object (or where it stopped).
func EachMember(obj []byte, f func(key []byte, i int) int) int {
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return i
	}
	i = SkipSpace(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kend := skipString(obj, i)
		key := obj[i+1 : max(kend-1, i+1)]
		if bytes.IndexByte(key, '\\') >= 0 {
			s, _ := Unquote(obj[i:kend])
			key = []byte(s)
		}
		i = SkipSpace(obj, kend)
		if i < len(obj) && obj[i] == ':' {
			i = SkipSpace(obj, i+1)
		}
		vend := f(key, i)
		if vend < 0 {
			return i
		}
		i = SkipSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = SkipSpace(obj, i+1)
		}
	}
	if i < len(obj) && obj[i] == '}' {
		i++
	}
	return i
}

// Unquote decodes a raw JSON string, as encoding/json does (escapes,
// surrogate pairs; invalid UTF-8 and lone surrogates become U+FFFD), in one
// pass. ok is false when raw is not a string.
func Unquote(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if Plain(inner) {
		return string(inner), true
	}
	out, ok := appendUnquoted(make([]byte, 0, len(inner)), inner)
	if !ok || len(out) == 0 {
		return "", ok
	}
	// out is this call's own and never written again: the string is made
	// from it without a second copy.
	return unsafe.String(&out[0], len(out)), true
}

// AppendUnquote appends raw, a JSON string, decoded as [Unquote] decodes it,
// to dst, so that a caller can decode into a buffer it reuses. ok is false
// (and dst is returned as it was) when raw is not a string.
func AppendUnquote(dst, raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return dst, false
	}
	inner := raw[1 : len(raw)-1]
	if Plain(inner) {
		return append(dst, inner...), true
	}
	out, ok := appendUnquoted(dst, inner)
	if !ok {
		return dst, false
	}
	return out, true
}

// appendUnquoted appends the decoded text of inner, a JSON string without
// its quotes, to out. ok is false on a broken \u escape. The text between
// escapes is copied a run at a time (a byte at a time, a 2 KB string of
// prose took 3 µs).
func appendUnquoted(out, inner []byte) ([]byte, bool) {
	for len(inner) > 0 {
		// ASCII up to the next backslash is copied as it is (past eight
		// bytes, eight at a time while none is a backslash or above
		// 0x7F); text beyond ASCII is checked as UTF-8 up to the next
		// backslash.
		j := 0
		for j < len(inner) && j < 8 && inner[j] != '\\' && inner[j] < utf8.RuneSelf {
			j++
		}
		if j == 8 {
			for j+8 <= len(inner) && !stopsASCII(binary.LittleEndian.Uint64(inner[j:])) {
				j += 8
			}
			for j < len(inner) && inner[j] != '\\' && inner[j] < utf8.RuneSelf {
				j++
			}
		}
		out = append(out, inner[:j]...)
		inner = inner[j:]
		if len(inner) > 0 && inner[0] >= utf8.RuneSelf {
			if j = bytes.IndexByte(inner, '\\'); j < 0 {
				j = len(inner)
			}
			out = appendText(out, inner[:j])
			inner = inner[j:]
		}
		if len(inner) == 0 {
			break
		}
		if len(inner) < 2 { // nothing left, or a backslash that ends the string: kept
			return append(out, inner...), true
		}
		e := inner[1]
		inner = inner[2:]
		switch e {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, n := hex4(inner)
			if n < 0 {
				return out, false
			}
			inner = inner[n:]
			if utf16.IsSurrogate(r) {
				r2, n2 := rune(-1), -1
				if len(inner) > 1 && inner[0] == '\\' && inner[1] == 'u' {
					r2, n2 = hex4(inner[2:])
				}
				if dec := utf16.DecodeRune(r, r2); n2 > 0 && dec != utf8.RuneError {
					r = dec
					inner = inner[2+n2:]
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default: // '"', '\\', '/'
			out = append(out, e)
		}
	}
	return out, true
}

// stopsASCII reports whether one of the eight bytes of w is a backslash or
// not ASCII (see stopsString for the bit tricks).
func stopsASCII(w uint64) bool {
	bs := w ^ '\\'*byteOnes
	return (w|(bs-byteOnes)&^bs)&byteHighs != 0
}

// ValidUTF8 returns p with each byte that is not UTF-8 as U+FFFD (as
// encoding/json writes it), or p itself when it is all UTF-8. Raw JSON
// outside its strings is ASCII, so only its strings change and it stays
// valid JSON.
func ValidUTF8(p []byte) []byte {
	if utf8.Valid(p) {
		return p
	}
	return appendText(make([]byte, 0, len(p)+8), p)
}

// appendText appends p, text without escapes, to out, each invalid UTF-8
// byte as U+FFFD.
func appendText(out, p []byte) []byte {
	if utf8.Valid(p) {
		return append(out, p...)
	}
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	return out
}

// Plain reports whether inner, a JSON string without its quotes, decodes
// to itself (no escape, valid UTF-8): Unquote would give its bytes as they
// are.
func Plain(inner []byte) bool {
	return bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner)
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, -1
		}
		r = r*16 + rune(c)
	}
	return r, 4
}

// Compact returns a copy of raw without insignificant white space. Strings,
// numbers and escapes are kept byte for byte: nothing is re-serialised.
func Compact(raw []byte) []byte {
	dst := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			j := skipString(raw, i)
			dst = append(dst, raw[i:j]...)
			i = j
		case isSpace(c):
			i++
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// Kind returns the first byte of a raw JSON value after white space: '{',
// '[', '"', 't', 'f', 'n', or a digit or '-'; 0 for empty input.
func Kind(raw []byte) byte {
	i := SkipSpace(raw, 0)
	if i >= len(raw) {
		return 0
	}
	return raw[i]
}

// KindName names the JSON type whose first byte is k (see [Kind]).
func KindName(k byte) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case 0:
		return "empty"
	}
	return "a number"
}

// Whole returns b without the white space around it, and whether that is
// exactly one valid JSON value no deeper than depth (0: the default).
func Whole(b []byte, depth int) ([]byte, bool) {
	b = TrimSpace(b)
	if len(b) == 0 {
		return nil, false
	}
	var js JSON
	js.Reset(depth)
	n := js.Scan(b)
	if n == len(b) {
		js.End() // a number at the end completes here
	}
	return b, js.Done() && n == len(b)
}

// Equal reports whether a and b, valid JSON values, are the same value:
// numbers equal as decimals (1.50 and 1.5, 1e2 and 100), strings once
// decoded (\u00e9 and é), objects whatever the order of their members (a
// key given twice counts the first time), arrays element by element.
func Equal(a, b []byte) bool {
	a, b = TrimSpace(a), TrimSpace(b)
	if string(a) == string(b) {
		return true // the same text: the same value (the common case, at once)
	}
	ka, kb := Kind(a), Kind(b)
	if isNumberKind(ka) && isNumberKind(kb) {
		ra, okA := new(big.Rat).SetString(string(a))
		rb, okB := new(big.Rat).SetString(string(b))
		return okA && okB && ra.Cmp(rb) == 0
	}
	if ka != kb {
		return false
	}
	switch ka {
	case '"':
		sa, _ := Unquote(a)
		sb, _ := Unquote(b)
		return sa == sb
	case '[':
		var ea, eb [][]byte
		Elements(a, func(e []byte, _ int) bool { ea = append(ea, e); return true })
		Elements(b, func(e []byte, _ int) bool { eb = append(eb, e); return true })
		if len(ea) != len(eb) {
			return false
		}
		for i := range ea {
			if !Equal(ea[i], eb[i]) {
				return false
			}
		}
		return true
	case '{':
		ma, mb := firstMembers(a), firstMembers(b)
		if len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !Equal(va, vb) {
				return false
			}
		}
		return true
	}
	return string(a) == string(b) // true, false, null
}

func isNumberKind(k byte) bool { return k == '-' || '0' <= k && k <= '9' }

// firstMembers is the members of obj by key, the first of a key given twice.
func firstMembers(obj []byte) map[string][]byte {
	m := map[string][]byte{}
	Members(obj, func(k string, v []byte) bool {
		if _, dup := m[k]; !dup {
			m[k] = v
		}
		return true
	})
	return m
}
