package jsonscan

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/toolparse/toolparse/syntax"
)

// JSON finds the end of one JSON value in a stream and validates it on the
// way, byte by byte, without ever looking at a byte twice. Feed it the value's
// bytes with [JSON.Scan] as they arrive; it stops at the byte after the value
// (Done) or at the first byte that cannot continue it (Err). Nesting deeper
// than the limit is an error, so input of a million '[' costs a bounded stack.
//
// The same scan can compact the value as it goes ([JSON.ScanCompact]) and
// stop at the boundaries between its tokens ([JSON.Next]), so that what
// reads a value as it arrives (the argument streamer of token mode) needs no
// state machine of its own.
//
// The zero value is ready: a scanner for one value nesting at most
// [syntax.DefaultMaxDepth] deep.
type JSON struct {
	state    jstate
	stack    []byte // '{' or '[' per open container
	maxDepth int    // 0: syntax.DefaultMaxDepth
	n        int64  // bytes consumed since Reset
	lit      string
	hex      int
	key      bool        // the string being scanned is an object key
	started  bool        // the first non-space byte of the value has been seen
	failed   bool        // err holds why the scan stopped
	err      SyntaxError // kept in the scanner: a value that is not JSON costs no allocation (syntaxes try text that may be JSON)
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
	Deep   bool  // the value nests deeper than the limit (the JSON may be valid)

	// The message is made when asked for: msg, or "invalid character c "
	// then context when context is set.
	msg     string
	c       byte
	context string
}

// Msg says what is wrong.
func (e *SyntaxError) Msg() string {
	if e.context != "" {
		return "invalid character " + quoteChar(e.c) + " " + e.context
	}
	return e.msg
}

func (e *SyntaxError) Error() string { return e.Msg() }

// Code is the error code for the problem: over_limit for nesting too deep,
// invalid_json for the rest.
func (e *SyntaxError) Code() syntax.Code {
	if e.Deep {
		return syntax.CodeOverLimit
	}
	return syntax.CodeInvalidJSON
}

// NewJSON returns a scanner for one value, nesting at most maxDepth deep
// (0 or less: [syntax.DefaultMaxDepth]).
func NewJSON(maxDepth int) *JSON {
	s := &JSON{}
	s.Reset(maxDepth)
	return s
}

// Reset prepares the scanner for a new value nesting at most maxDepth deep
// (0 or less: [syntax.DefaultMaxDepth]).
func (s *JSON) Reset(maxDepth int) {
	*s = JSON{stack: s.stack[:0], maxDepth: maxDepth}
}

// Done reports whether a complete value has been scanned.
func (s *JSON) Done() bool { return s.state == jDone }

// Err returns the syntax error that stopped the scan, or nil.
func (s *JSON) Err() *SyntaxError {
	if !s.failed {
		return nil
	}
	return &s.err
}

// Started reports whether the value's first byte (after white space) was seen.
func (s *JSON) Started() bool { return s.started }

// InString reports whether the scanner is inside a string (not in an escape).
func (s *JSON) InString() bool { return s.state == jString && !s.failed }

// StringWaker tells, for a scanner inside a string, whether a chunk can do
// more than add to the string's text: end the string (a quote that is not
// escaped), or be an error (a control byte, an invalid escape). Escaped
// quotes and the escapes of source code (\n, \") do not wake it, and a
// chunk may end inside an escape: the waker follows the chunks it lets pass,
// from the scanner's state at [StringWaker.Sync], as the scanner will when it
// reads them. A scan.Waker, for scan.Core.WakeWith.
type StringWaker struct {
	state jstate // jString, jStringEsc or jStringHex
	hex   int    // hex digits read in jStringHex
}

// Sync starts w from s's state, and reports whether s is inside a string
// with no error (else w must not be used).
func (w *StringWaker) Sync(s *JSON) bool {
	if s.failed || s.state != jString && s.state != jStringEsc && s.state != jStringHex {
		return false
	}
	w.state, w.hex = s.state, s.hex
	return true
}

// Wakes reports whether chunk p may end the string or be an error. When it
// does not, w has followed p.
func (w *StringWaker) Wakes(p []byte) bool {
	state, hex := w.state, w.hex
	for _, c := range p {
		switch state {
		case jString:
			switch {
			case c == '"' || c < 0x20:
				return true
			case c == '\\':
				state = jStringEsc
			}
		case jStringEsc:
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				state = jString
			case 'u':
				state, hex = jStringHex, 0
			default:
				return true
			}
		case jStringHex:
			if !isHex(c) {
				return true
			}
			if hex++; hex == 4 {
				state = jString
			}
		}
	}
	w.state, w.hex = state, hex
	return false
}

// Depth is the number of containers open.
func (s *JSON) Depth() int { return len(s.stack) }

// Scanned is the number of bytes consumed since Reset.
func (s *JSON) Scanned() int64 { return s.n }

// Scan consumes bytes of p and returns how many. It stops early when the
// value completes (the byte after a number is not consumed) or on a syntax
// error (the offending byte is not consumed). White space before the value is
// consumed; white space after it is not.
func (s *JSON) Scan(p []byte) int {
	n, _, _ := s.scan(p, -1, nil)
	return n
}

// ScanCompact is [JSON.Scan] that also appends to dst the bytes it consumes
// less the white space outside strings: joined over the pieces of a valid
// value, what encoding/json's Compact gives for it.
func (s *JSON) ScanCompact(dst, p []byte) ([]byte, int) {
	n, _, _ := s.scan(p, -1, &dst)
	return dst, n
}

// Boundary is a place between the tokens of a JSON value where [JSON.Next]
// stops.
type Boundary uint8

const (
	// NoBoundary: Next consumed all its input, or stopped at the end of the
	// value or at an error.
	NoBoundary Boundary = iota
	// ValueStart: the last byte consumed is the first of a value ('{', '[',
	// '"', 't', 'f', 'n', '-' or a digit).
	ValueStart
	// ValueEnd: a value ends with the last byte consumed. (A number is ended
	// by the byte after it, which is not consumed; a number that ends the
	// input ends at [JSON.End], which reports no boundary.)
	ValueEnd
	// KeyStart: the last byte consumed is the opening quote of an object key.
	KeyStart
	// KeyEnd: the last byte consumed is the closing quote of an object key.
	KeyEnd
)

// Next is [JSON.Scan] that also stops just after each boundary between
// tokens whose level is at most maxLevel, and says which boundary it is and
// its level: the number of arrays and objects around the token (an array or
// object is not around its own start and end). A top-level value starts and
// ends at level 0; the keys and values of a top-level object are at level 1.
// A negative maxLevel stops at no boundary. Next may consume no byte when it
// reports a boundary (the end of a number).
func (s *JSON) Next(p []byte, maxLevel int) (n int, b Boundary, level int) {
	return s.scan(p, maxLevel, nil)
}

// NextCompact is [JSON.Next] that appends what it consumes to dst as
// [JSON.ScanCompact] does.
func (s *JSON) NextCompact(dst, p []byte, maxLevel int) (out []byte, n int, b Boundary, level int) {
	n, b, level = s.scan(p, maxLevel, &dst)
	return dst, n, b, level
}

// scan is the state machine behind Scan, ScanCompact, Next and NextCompact:
// it stops at boundaries of level up to stop, and appends the bytes it
// consumes, less insignificant white space, to *out when out is not nil.
func (s *JSON) scan(p []byte, stop int, out *[]byte) (int, Boundary, int) {
	if s.failed {
		return 0, NoBoundary, 0
	}
	i, from := 0, 0 // from: the first byte not yet appended to *out
	b, level := NoBoundary, 0
loop:
	for i < len(p) {
		c := p[i]
		switch s.state {
		case jString:
			// Fast path: skip the plain bytes of a string; past eight
			// of them, eight at a time while none ends it or escapes
			// (a string dense with escapes, code in a JSON string in a
			// JSON document, has runs too short to gain from words).
			j, k := i, min(len(p), i+8)
			for j < k && plainString[p[j]] {
				j++
			}
			if j == i+8 {
				for j+8 <= len(p) && !stopsString(binary.LittleEndian.Uint64(p[j:])) {
					j += 8
				}
				for j < len(p) && plainString[p[j]] {
					j++
				}
			}
			if j > i {
				i = j
				continue
			}
			switch {
			case c == '"':
				if !s.key {
					s.valueDone()
					goto endedWith
				}
				s.key = false
				s.state = jColon
				if len(s.stack) <= stop {
					b, level = KeyEnd, len(s.stack)
					i++
					break loop
				}
			case c == '\\':
				s.state = jStringEsc
			default:
				s.fail(c, i, "in string literal")
				break loop
			}
		case jStringEsc:
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.state = jString
			case 'u':
				s.state, s.hex = jStringHex, 0
			default:
				s.fail(c, i, "in string escape code")
				break loop
			}
		case jStringHex:
			if !isHex(c) {
				s.fail(c, i, "in \\u hexadecimal character escape")
				break loop
			}
			if s.hex++; s.hex == 4 {
				s.state = jString
			}
		case jValue, jArrValueOrEnd:
			if isSpace(c) {
				goto space
			}
			if c == ']' && s.state == jArrValueOrEnd {
				s.pop()
				goto endedWith
			}
			at := len(s.stack)
			if !s.beginValue(c, i) {
				break loop
			}
			if at <= stop {
				b, level = ValueStart, at
				i++
				break loop
			}
		case jObjKeyOrEnd, jObjKey:
			if isSpace(c) {
				goto space
			}
			if c == '}' && s.state == jObjKeyOrEnd {
				s.pop()
				goto endedWith
			}
			if c != '"' {
				s.fail(c, i, "looking for beginning of object key string")
				break loop
			}
			s.state, s.key = jString, true
			if len(s.stack) <= stop {
				b, level = KeyStart, len(s.stack)
				i++
				break loop
			}
		case jColon:
			if isSpace(c) {
				goto space
			}
			if c != ':' {
				s.fail(c, i, "after object key")
				break loop
			}
			s.state = jValue
		case jObjCommaOrEnd, jArrCommaOrEnd:
			if isSpace(c) {
				goto space
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
				goto endedWith
			default:
				if s.state == jArrCommaOrEnd {
					s.fail(c, i, "after array element")
				} else {
					s.fail(c, i, "after object key:value pair")
				}
				break loop
			}
		case jNeg:
			switch {
			case c == '0':
				s.state = jZero
			case '1' <= c && c <= '9':
				s.state = jInt
			default:
				s.fail(c, i, "in numeric literal")
				break loop
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
				goto endedBefore // c belongs to what follows the number
			}
		case jDot:
			if c < '0' || c > '9' {
				s.fail(c, i, "after decimal point in numeric literal")
				break loop
			}
			s.state = jFrac
		case jFrac:
			switch {
			case '0' <= c && c <= '9':
			case c == 'e' || c == 'E':
				s.state = jE
			default:
				s.valueDone()
				goto endedBefore
			}
		case jE:
			switch {
			case c == '+' || c == '-':
				s.state = jESign
			case '0' <= c && c <= '9':
				s.state = jExp
			default:
				s.fail(c, i, "in exponent of numeric literal")
				break loop
			}
		case jESign:
			if c < '0' || c > '9' {
				s.fail(c, i, "in exponent of numeric literal")
				break loop
			}
			s.state = jExp
		case jExp:
			if c < '0' || c > '9' {
				s.valueDone()
				goto endedBefore
			}
		case jLit:
			if c != s.lit[0] {
				s.fail(c, i, "in literal")
				break loop
			}
			if s.lit = s.lit[1:]; s.lit == "" {
				s.valueDone()
				goto endedWith
			}
		case jDone:
			break loop
		}
		i++
		continue
	space: // c is insignificant white space, and so are the spaces after it
		if out != nil {
			*out = append(*out, p[from:i]...)
		}
		for i++; i < len(p) && isSpace(p[i]); i++ {
		}
		from = i
		continue
	endedWith: // a value ends with c
		i++
	endedBefore: // a value ended before c
		if len(s.stack) <= stop {
			b, level = ValueEnd, len(s.stack)
			break loop
		}
	}
	s.n += int64(i)
	if out != nil {
		*out = append(*out, p[from:i]...)
	}
	return i, b, level
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
	if !s.failed {
		s.failed, s.err = true, SyntaxError{Offset: s.n, msg: "unexpected end of JSON input"}
	}
}

// beginValue starts a value with c, the byte at p[i] of the current scan.
func (s *JSON) beginValue(c byte, i int) bool {
	s.started = true
	switch c {
	case '{', '[':
		limit := s.maxDepth
		if limit <= 0 {
			limit = syntax.DefaultMaxDepth
		}
		if len(s.stack) >= limit {
			s.failed, s.err = true, SyntaxError{Offset: s.n + int64(i), msg: "exceeded max depth of " + strconv.Itoa(limit), Deep: true}
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
		s.fail(c, i, "looking for beginning of value")
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

// fail records the error at c, the byte at p[i] of the current scan.
func (s *JSON) fail(c byte, i int, context string) {
	s.failed, s.err = true, SyntaxError{Offset: s.n + int64(i), c: c, context: context}
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

// plainString holds the bytes that a JSON string holds as they are: not a
// control byte, a quote or a backslash.
var plainString = func() (t [256]bool) {
	for b := 0x20; b < 256; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// Eight bytes in a word: a 1 in each, and the high bit of each.
const (
	byteOnes  = 0x0101010101010101
	byteHighs = 0x8080808080808080
)

// stopsString reports whether one of the eight bytes of w (one per byte,
// as loaded) is not a plain byte of a JSON string: a control byte (below
// 0x20), a quote or a backslash. Bit tricks in the manner of "Bit Twiddling
// Hacks" (Sean Eron Anderson, "determine if a word has a byte less than
// n"): for each byte x, (x - n) & ^x & 0x80 is set when x < n ≤ 128 (a
// borrow can set it in a higher byte too, but only above a byte that is
// truly below n, so the word as a whole is told right); a byte equal to q
// is one below 1 in w ^ q.
func stopsString(w uint64) bool {
	ctl := (w - 0x20*byteOnes) & ^w
	q := w ^ '"'*byteOnes
	bs := w ^ '\\'*byteOnes
	quote := (q - byteOnes) & ^q
	back := (bs - byteOnes) & ^bs
	return (ctl|quote|back)&byteHighs != 0
}
