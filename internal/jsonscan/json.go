package jsonscan

import (
	"fmt"
	"strconv"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// JSON finds the end of one JSON value in a stream and validates it on the
// way, byte by byte, without ever looking at a byte twice. Feed it the value's
// bytes with [JSON.Scan] as they arrive; it stops at the byte after the value
// (Done) or at the first byte that cannot continue it (Err). Nesting deeper
// than the limit is an error, so input of a million '[' costs a bounded stack.
//
// The zero value is not ready; use [NewJSON] or [JSON.Reset].
type JSON struct {
	state    jstate
	stack    []byte // '{' or '[' per open container
	maxDepth int
	n        int64 // bytes consumed since Reset
	lit      string
	hex      int
	key      bool // the string being scanned is an object key
	started  bool // the first non-space byte of the value has been seen
	err      *SyntaxError
}

type jstate uint8

const (
	jValue         jstate = iota // a value must come next
	jObjKeyOrEnd                 // after '{'
	jObjKey                      // after ',' in an object
	jColon                       // after a key
	jObjCommaOrEnd               // after a member's value
	jArrValueOrEnd               // after '['
	jArrCommaOrEnd               // after an element
	jString                      // inside a string
	jStringEsc                   // after '\'
	jStringHex                   // inside \uXXXX
	jNeg                         // after '-'
	jZero                        // after a leading 0
	jInt                         // in integer digits
	jDot                         // after '.'
	jFrac                        // in fraction digits
	jE                           // after 'e'
	jESign                       // after 'e+' or 'e-'
	jExp                         // in exponent digits
	jLit                         // inside true, false or null
	jDone                        // the value is complete
)

// SyntaxError says where and why a value is not valid JSON.
type SyntaxError struct {
	Offset int64 // bytes from the start of the value to the offending byte
	Msg    string
	Deep   bool // the value nests deeper than the limit (the JSON may be valid)
}

func (e *SyntaxError) Error() string { return e.Msg }

// Code is the error code for the problem: over_limit for nesting too deep,
// invalid_json for the rest.
func (e *SyntaxError) Code() syntax.Code {
	if e.Deep {
		return syntax.CodeOverLimit
	}
	return syntax.CodeInvalidJSON
}

// NewJSON returns a scanner for one value, nesting at most maxDepth deep.
func NewJSON(maxDepth int) *JSON {
	s := &JSON{}
	s.Reset(maxDepth)
	return s
}

// Reset prepares the scanner for a new value.
func (s *JSON) Reset(maxDepth int) {
	*s = JSON{stack: s.stack[:0], maxDepth: maxDepth}
}

// Done reports whether a complete value has been scanned.
func (s *JSON) Done() bool { return s.state == jDone }

// Err returns the syntax error that stopped the scan, or nil.
func (s *JSON) Err() *SyntaxError { return s.err }

// Started reports whether the value's first byte (after white space) was seen.
func (s *JSON) Started() bool { return s.started }

// InString reports whether the scanner is inside a string (not in an escape).
func (s *JSON) InString() bool { return s.state == jString && s.err == nil }

// StringWake is the set of bytes that can change the state of a scanner
// inside a string: a quote, a backslash, or a control byte (an error).
var StringWake = func() *scan.ByteSet {
	set := scan.Bytes("\"\\")
	for c := 0; c < 0x20; c++ {
		set[c] = true
	}
	return set
}()

// Depth is the number of containers open.
func (s *JSON) Depth() int { return len(s.stack) }

// Scanned is the number of bytes consumed since Reset.
func (s *JSON) Scanned() int64 { return s.n }

// Scan consumes bytes of p and returns how many. It stops early when the
// value completes (the byte after a number is not consumed) or on a syntax
// error (the offending byte is not consumed). White space before the value is
// consumed; white space after it is not.
func (s *JSON) Scan(p []byte) int {
	i := 0
	for i < len(p) {
		if s.state == jDone || s.err != nil {
			return i
		}
		c := p[i]
		switch s.state {
		case jString:
			// Fast path: skip the plain bytes of a string.
			j := i
			for j < len(p) && p[j] >= 0x20 && p[j] != '"' && p[j] != '\\' {
				j++
			}
			if j > i {
				s.n += int64(j - i)
				i = j
				continue
			}
			switch {
			case c == '"':
				if s.key {
					s.key = false
					s.state = jColon
				} else {
					s.valueDone()
				}
			case c == '\\':
				s.state = jStringEsc
			default:
				s.fail(c, "in string literal")
				return i
			}
		case jStringEsc:
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.state = jString
			case 'u':
				s.state, s.hex = jStringHex, 0
			default:
				s.fail(c, "in string escape code")
				return i
			}
		case jStringHex:
			if !isHex(c) {
				s.fail(c, "in \\u hexadecimal character escape")
				return i
			}
			if s.hex++; s.hex == 4 {
				s.state = jString
			}
		case jValue, jArrValueOrEnd:
			if isSpace(c) {
				break
			}
			if c == ']' && s.state == jArrValueOrEnd {
				s.pop()
				break
			}
			if !s.beginValue(c) {
				return i
			}
		case jObjKeyOrEnd, jObjKey:
			if isSpace(c) {
				break
			}
			if c == '}' && s.state == jObjKeyOrEnd {
				s.pop()
				break
			}
			if c != '"' {
				s.fail(c, "looking for beginning of object key string")
				return i
			}
			s.state, s.key = jString, true
		case jColon:
			if isSpace(c) {
				break
			}
			if c != ':' {
				s.fail(c, "after object key")
				return i
			}
			s.state = jValue
		case jObjCommaOrEnd, jArrCommaOrEnd:
			if isSpace(c) {
				break
			}
			closer, next := byte('}'), jObjKey
			if s.state == jArrCommaOrEnd {
				closer, next = ']', jValue
			}
			switch c {
			case ',':
				s.state = next
			case closer:
				s.pop()
			default:
				if s.state == jArrCommaOrEnd {
					s.fail(c, "after array element")
				} else {
					s.fail(c, "after object key:value pair")
				}
				return i
			}
		case jNeg:
			switch {
			case c == '0':
				s.state = jZero
			case '1' <= c && c <= '9':
				s.state = jInt
			default:
				s.fail(c, "in numeric literal")
				return i
			}
		case jZero, jInt:
			switch {
			case '0' <= c && c <= '9' && s.state == jInt:
			case c == '.':
				s.state = jDot
			case c == 'e' || c == 'E':
				s.state = jE
			default:
				s.valueDone()
				continue // c belongs to what follows the number
			}
		case jDot:
			if c < '0' || c > '9' {
				s.fail(c, "after decimal point in numeric literal")
				return i
			}
			s.state = jFrac
		case jFrac:
			switch {
			case '0' <= c && c <= '9':
			case c == 'e' || c == 'E':
				s.state = jE
			default:
				s.valueDone()
				continue
			}
		case jE:
			switch {
			case c == '+' || c == '-':
				s.state = jESign
			case '0' <= c && c <= '9':
				s.state = jExp
			default:
				s.fail(c, "in exponent of numeric literal")
				return i
			}
		case jESign:
			if c < '0' || c > '9' {
				s.fail(c, "in exponent of numeric literal")
				return i
			}
			s.state = jExp
		case jExp:
			if c < '0' || c > '9' {
				s.valueDone()
				continue
			}
		case jLit:
			if c != s.lit[0] {
				s.fail(c, "in literal")
				return i
			}
			if s.lit = s.lit[1:]; s.lit == "" {
				s.valueDone()
			}
		}
		i++
		s.n++
	}
	return i
}

// End tells the scanner the input has ended. A number that was still open is
// complete; anything else unfinished is an error.
func (s *JSON) End() {
	switch s.state {
	case jZero, jInt, jFrac, jExp:
		if len(s.stack) == 0 {
			s.state = jDone
			return
		}
	case jDone:
		return
	}
	if s.err == nil {
		s.err = &SyntaxError{Offset: s.n, Msg: "unexpected end of JSON input"}
	}
}

func (s *JSON) beginValue(c byte) bool {
	s.started = true
	switch c {
	case '{', '[':
		if len(s.stack) >= s.maxDepth {
			s.err = &SyntaxError{Offset: s.n, Msg: "exceeded max depth of " + strconv.Itoa(s.maxDepth), Deep: true}
			return false
		}
		s.stack = append(s.stack, c)
		if c == '{' {
			s.state = jObjKeyOrEnd
		} else {
			s.state = jArrValueOrEnd
		}
	case '"':
		s.state = jString
	case '-':
		s.state = jNeg
	case '0':
		s.state = jZero
	case 't':
		s.state, s.lit = jLit, "rue"
	case 'f':
		s.state, s.lit = jLit, "alse"
	case 'n':
		s.state, s.lit = jLit, "ull"
	default:
		if '1' <= c && c <= '9' {
			s.state = jInt
			return true
		}
		s.fail(c, "looking for beginning of value")
		return false
	}
	return true
}

func (s *JSON) pop() {
	s.stack = s.stack[:len(s.stack)-1]
	s.valueDone()
}

func (s *JSON) valueDone() {
	switch {
	case len(s.stack) == 0:
		s.state = jDone
	case s.stack[len(s.stack)-1] == '{':
		s.state = jObjCommaOrEnd
	default:
		s.state = jArrCommaOrEnd
	}
}

func (s *JSON) fail(c byte, context string) {
	s.err = &SyntaxError{Offset: s.n, Msg: "invalid character " + quoteChar(c) + " " + context}
}

func quoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("%q", rune(c))
	case c >= 0x80:
		return fmt.Sprintf("byte 0x%02x", c)
	}
	return "'" + string(c) + "'"
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
