package gemma

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax/scan"
)

// A value reads the argument object of a call (or a tool response) as it
// arrives and writes it as compact JSON: bare keys become strings, raw
// strings between <|"|> are escaped, JSON strings, numbers, true, false
// and null are copied once validated, objects and arrays nest.
type value struct {
	out   []byte  // the JSON written so far (not yet taken)
	stack []level // the open objects and arrays
	st    vstate
	js    jsonscan.JSON // a JSON string, number or literal being read
	str   bool          // it is a string: kept in tmp, then written as a raw string would be
	numAt int           // where in out the JSON number or literal being read starts
	tmp   []byte
	depth int // the nesting limit
	// closers are the markers that end the block: one inside a <|"|>
	// string means the string's closer is missing.
	closers []string
	quote   string // the dialect's raw string tag: <|"|>, <escape>
	quoteB  []byte // the same, as bytes
	raw     bool   // the value just read was a raw string (its tag closed it)
	// problem, when set, says why the text is not a valid object.
	problem string
	over    bool // the problem is the nesting limit

	at    int64      // the offset in the input of the data step is given (set by the caller)
	ahead scan.Ahead // finds a raw string's closer in the data at hand (kept across values)
}

type level struct {
	kind  byte // '{' or '['
	count int  // members or elements written
}

type vstate uint8

const (
	vsStart      vstate = iota // before the top-level '{'
	vsKeyOrEnd                 // in an object: a key, or '}'
	vsBareKey                  // in a bare key
	vsGKey                     // in a <|"|> key
	vsJKey                     // in a JSON string key
	vsColon                    // after a key
	vsValue                    // a value must come
	vsValueOrEnd               // after '[': a value, or ']'
	vsGStr                     // in a <|"|> string value
	vsJVal                     // in a JSON string, number or literal
	vsAfter                    // after a value: ',' or the container's close
	vsDone                     // the top-level object is complete
)

func (v *value) reset(depth int, closers []string, d *dialect) {
	out := v.out[:0]
	if cap(out) > 64<<10 {
		out = nil // a failed value's large buffer is not handed to the next call's event
	}
	*v = value{out: out, stack: v.stack[:0], tmp: v.tmp[:0], depth: depth, closers: closers, quote: d.str, quoteB: d.strBytes, ahead: v.ahead}
}

func (v *value) fail(msg string) int {
	if v.problem == "" {
		v.problem = msg
	}
	return 0
}

// isKeyByte reports whether c may stand in a bare key.
func isKeyByte(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ':', ',', '{', '}', '[', ']', '<', '"':
		return false
	}
	return true
}

// step reads data, which stands in the body after the name. closer says
// whether data starts with a marker that ends the block (a string cut by
// it is a problem). It returns the bytes taken; 0 with no problem means
// more input is needed (or, when the value is done, that the rest is not
// the value's).
func (v *value) step(data []byte, eof bool) int {
	used := 0
	for used < len(data) && v.problem == "" && v.st != vsDone {
		v.out = room(v.out, 64) // for the punctuation, keys and short values written below
		rest := data[used:]
		var n int
		switch v.st {
		case vsStart:
			if rest[0] != '{' {
				return used + v.fail("the arguments do not start with '{'")
			}
			n = v.open('{')
		case vsKeyOrEnd, vsColon, vsValue, vsValueOrEnd, vsAfter:
			i := jsonscan.SkipSpace(rest, 0)
			if i == len(rest) {
				return used + i
			}
			before := v.st
			t := v.token(rest[i:], eof)
			n = i + t
			if t == 0 && v.st == before && v.problem == "" {
				return used + i // a <|"|> cut off: wait
			}
		case vsBareKey:
			i := 0
			for i < len(rest) && isKeyByte(rest[i]) {
				i++
			}
			v.out, n = escape(v.out, rest[:i], i < len(rest) || eof)
			if n < i {
				return used + n // a character cut off at the end of data
			}
			if i < len(rest) {
				v.out = append(v.out, '"')
				v.st = vsColon
			}
		case vsGKey, vsGStr:
			n = v.gstring(rest, v.at+int64(used), eof)
			if n == 0 && v.problem == "" {
				return used
			}
		case vsJKey, vsJVal:
			if v.str {
				v.tmp, n = v.js.ScanCompact(v.tmp, rest)
			} else {
				v.out, n = v.js.ScanCompact(v.out, rest)
			}
			if v.str && v.js.Done() {
				// Written as escape writes a raw string, so that the same
				// text gives the same arguments however it was quoted.
				s, _ := jsonscan.Unquote(v.tmp)
				v.out = append(v.out, '"')
				v.out, _ = escape(v.out, []byte(s), true)
				v.out = append(v.out, '"')
			}
			switch {
			case v.js.Err() != nil:
				return used + n + v.fail("invalid JSON value: "+v.js.Err().Msg())
			case v.js.Done():
				if v.st == vsJKey {
					v.st = vsColon
				} else if msg := v.nonFinite(); msg != "" {
					return used + n + v.fail(msg)
				} else {
					v.valueDone()
				}
			case eof && n == len(rest):
				v.js.End()
				if v.js.Err() == nil && v.js.Done() && v.st == vsJVal {
					if msg := v.nonFinite(); msg != "" {
						return used + n + v.fail(msg)
					}
					v.valueDone()
				}
			}
		}
		used += n
	}
	return used
}

// token reads what starts a key, a value, or a separator at data[0] (not
// white space).
func (v *value) token(data []byte, eof bool) int {
	c := data[0]
	top := &v.stack[len(v.stack)-1]
	switch v.st {
	case vsKeyOrEnd:
		switch {
		case c == '}':
			return v.close('}')
		case c == '"':
			v.comma(top)
			v.js.Reset(1)
			v.str, v.tmp = true, v.tmp[:0]
			v.st = vsJKey
			return 0 // the string is read from its quote
		case c == '<':
			full, partial := scan.MatchPrefix(data, v.quote)
			if partial && !eof {
				return 0
			}
			if !full {
				return v.fail("a key may not start with '<'")
			}
			v.comma(top)
			v.out = append(v.out, '"')
			v.st = vsGKey
			return len(v.quote)
		case isKeyByte(c):
			v.comma(top)
			v.out = append(v.out, '"')
			v.st = vsBareKey
			return 0 // the key is read from its first byte
		}
		return v.fail("expected a key or '}', found " + quoteByte(c))
	case vsColon:
		if c != ':' {
			return v.fail("expected ':' after a key, found " + quoteByte(c))
		}
		v.out = append(v.out, ':')
		v.st = vsValue
		return 1
	case vsAfter:
		switch {
		case c == ',':
			if top.kind == '{' {
				v.st = vsKeyOrEnd
			} else {
				v.st = vsValue
			}
			return 1
		case c == '}' || c == ']':
			return v.close(c)
		case v.raw && top.kind == '{' && isKeyByte(c):
			// A bare key right after a raw string, the comma left out
			// (vLLM's functiongemma tests): the closing tag ended the
			// value, so the key is unambiguous.
			v.comma(top)
			v.out = append(v.out, '"')
			v.st = vsBareKey
			return 0 // the key is read from its first byte
		}
		return v.fail("expected ',' or the end of the " + kindName(top.kind) + ", found " + quoteByte(c))
	}
	// vsValue, vsValueOrEnd
	if v.st == vsValueOrEnd && c == ']' {
		return v.close(']')
	}
	element := func() {
		if top.kind == '[' {
			v.comma(top)
		}
	}
	switch {
	case c == '{' || c == '[':
		element()
		return v.open(c)
	case c == '<':
		full, partial := scan.MatchPrefix(data, v.quote)
		if partial && !eof {
			return 0
		}
		if !full {
			return v.fail("a value may not start with '<'")
		}
		element()
		v.out = append(v.out, '"')
		v.st = vsGStr
		return len(v.quote)
	case c == '"' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
		element()
		v.js.Reset(1)
		v.str, v.tmp, v.numAt = c == '"', v.tmp[:0], len(v.out)
		v.st = vsJVal
		return 0 // the value is read from its first byte
	}
	return v.fail("expected a value, found " + quoteByte(c))
}

func (v *value) comma(top *level) {
	if top.count > 0 {
		v.out = append(v.out, ',')
	}
	top.count++
}

func (v *value) open(c byte) int {
	if len(v.stack) >= v.depth {
		v.over = true
		return v.fail("the arguments nest deeper than the limit")
	}
	v.stack = append(v.stack, level{kind: c})
	v.out = append(v.out, c)
	if c == '{' {
		v.st = vsKeyOrEnd
	} else {
		v.st = vsValueOrEnd
	}
	return 1
}

func (v *value) close(c byte) int {
	top := v.stack[len(v.stack)-1]
	if want := closeOf(top.kind); c != want {
		return v.fail("expected " + quoteByte(want) + ", found " + quoteByte(c))
	}
	v.out = append(v.out, c)
	v.stack = v.stack[:len(v.stack)-1]
	v.valueDone()
	return 1
}

func (v *value) valueDone() {
	v.raw = false
	if len(v.stack) == 0 {
		v.st = vsDone
		return
	}
	v.st = vsAfter
}

// closedBefore reports whether one of the block's closers stands in b: a
// string whose text holds one is not closed (see gstring), and the <|"|>
// after it is not its own. Each search stops at the first closer, within
// the string's bytes.
func (v *value) closedBefore(b []byte) bool {
	for _, m := range v.closers {
		if bytes.Contains(b, []byte(m)) {
			return true
		}
	}
	return false
}

// gstring reads the inside of a <|"|> string up to its closing <|"|>.
// data starts at offset off in the input.
func (v *value) gstring(data []byte, off int64, eof bool) int {
	if len(data) > cap(v.out)-len(v.out) {
		// When the closer is at hand, the JSON is sized once for the
		// string and some escapes (a 300 KB string grew it by doubling,
		// from 48 KB to 728 KB, 1.6 MB allocated in all).
		if k := v.ahead.Find(data, off, v.quoteB); k > 0 && !v.closedBefore(data[:k]) {
			v.out = room(v.out, k+k/8+64) // and the punctuation after it
		}
	}
	i := 0
	for i < len(data) {
		j := len(data)
		if k := bytes.IndexByte(data[i:], '<'); k >= 0 {
			j = i + k
		}
		var n int
		v.out, n = escape(v.out, data[i:j], j < len(data) || eof)
		i += n
		if i < j { // a character cut off at the end of data
			return i
		}
		if j == len(data) {
			return i
		}
		full, partial := scan.MatchPrefix(data[j:], v.quote)
		switch {
		case full:
			v.out = append(v.out, '"')
			if v.st == vsGKey {
				v.st = vsColon
			} else {
				v.valueDone()
				v.raw = true
			}
			return j + len(v.quote)
		case partial && !eof:
			return j
		}
		for _, m := range v.closers {
			full, partial := scan.MatchPrefix(data[j:], m)
			if full {
				v.fail("a " + v.quote + " string is not closed before " + m)
				return j
			}
			if partial && !eof {
				return j
			}
		}
		v.out = append(v.out, '<')
		i = j + 1
	}
	return i
}

// escape appends p, raw text, to out as the inside of a JSON string, and
// returns how much of p it took: all of it, or all but a character cut off
// at the end when final is false. Invalid UTF-8 becomes U+FFFD.
func escape(out, p []byte, final bool) ([]byte, int) {
	const hex = "0123456789abcdef"
	out = room(out, len(p)+8)
	start, i := 0, 0 // p[start:i] is taken as it is
	for i < len(p) {
		c := p[i]
		if c < utf8.RuneSelf {
			if !mustEscape[c] {
				i++
				continue
			}
			out = append(out, p[start:i]...)
			switch c {
			case '"', '\\':
				out = append(out, '\\', c)
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			}
			i++
			start = i
			continue
		}
		if !final && !utf8.FullRune(p[i:]) {
			return append(out, p[start:i]...), i
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(append(out, p[start:i]...), "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += size
	}
	return append(out, p[start:]...), i
}

// room makes room in out for n more bytes, at least doubling its capacity
// when it grows: append grows a long slice by 1.25× a step, which copied a
// 300 KB string's JSON four times over and left four times its size as
// garbage while an object of many small members grew.
func room(out []byte, n int) []byte {
	if cap(out)-len(out) < n {
		out = slices.Grow(out, max(n, cap(out)))
	}
	return out
}

// mustEscape holds the ASCII bytes a JSON string cannot hold as they are.
var mustEscape = func() (t [utf8.RuneSelf]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

func closeOf(k byte) byte {
	if k == '{' {
		return '}'
	}
	return ']'
}

func kindName(k byte) string {
	if k == '{' {
		return "object"
	}
	return "array"
}

func quoteByte(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return "byte 0x" + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])
	}
	return "'" + string(c) + "'"
}

// nonFinite says why the number just read has no JSON form a reader can
// take (1e999 is beyond a float64: Go's encoding/json, and most others,
// refuse it), or "".
func (v *value) nonFinite() string {
	num := v.out[min(v.numAt, len(v.out)):]
	if v.str || len(num) == 0 || num[0] != '-' && (num[0] < '0' || num[0] > '9') {
		return ""
	}
	if f, err := strconv.ParseFloat(string(num), 64); err != nil && math.IsInf(f, 0) {
		return "a non-finite number (" + string(num) + " is beyond a float64) has no JSON form"
	}
	return ""
}
