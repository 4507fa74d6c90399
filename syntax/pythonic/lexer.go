package pythonic

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/toolparse/toolparse/syntax"
)

// pyLexer is the grammar's lexer, written by hand: one pass, a few
// nanoseconds a byte even in a string of megabytes. (participle's regexp
// lexer, with its capturing groups, read a 300 KB string argument at about
// 2 MB/s.) It yields the tokens String (with its prefix letters and
// quotes), Number, Ident and Punct; white space (line continuations
// included) is skipped, not yielded for the parser to elide: participle
// keeps every token the lexer gives in a slice, elided or not.
var pyLexer lexer.Definition = pyLexDef{}

const (
	tokString lexer.TokenType = -(iota + 2) // EOF is -1
	tokNumber
	tokIdent
	tokPunct
)

type pyLexDef struct{}

func (pyLexDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{"EOF": lexer.EOF, "String": tokString, "Number": tokNumber,
		"Ident": tokIdent, "Punct": tokPunct}
}

func (d pyLexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (pyLexDef) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	return &pyLex{src: string(b), pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

func (pyLexDef) LexString(filename string, s string) (lexer.Lexer, error) {
	return &pyLex{src: s, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

type pyLex struct {
	src string
	pos lexer.Position // of src[pos.Offset]
}

// Next returns the next token, after any white space.
func (l *pyLex) Next() (lexer.Token, error) {
	s, i := l.src, l.pos.Offset
	if n := spaceLen(s[i:]); n > 0 {
		l.advance(s[i : i+n])
		i = l.pos.Offset
	}
	if i >= len(s) {
		return lexer.EOFToken(l.pos), nil
	}
	c := s[i]
	var typ lexer.TokenType
	var n int
	switch {
	case c == '\'' || c == '"' || stringPrefix(s[i:]) > 0:
		typ = tokString
		var ok bool
		if n, ok = stringLen(s[i:]); !ok {
			return lexer.Token{}, &lexer.Error{Msg: "unterminated string", Pos: l.pos}
		}
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
		typ, n = tokNumber, numberLen(s[i:])
	case strings.IndexByte("[](){},:=.*+-", c) >= 0:
		typ, n = tokPunct, 1
	default:
		if n = identLen(s[i:]); n == 0 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			return lexer.Token{}, &lexer.Error{Msg: "unexpected character " + strconvQuote(r), Pos: l.pos}
		}
		typ = tokIdent
	}
	tok := lexer.Token{Type: typ, Value: s[i : i+n], Pos: l.pos}
	l.advance(s[i : i+n])
	return tok, nil
}

func (l *pyLex) advance(t string) {
	l.pos.Offset += len(t)
	if k := strings.Count(t, "\n"); k > 0 {
		l.pos.Line += k
		l.pos.Column = len(t) - strings.LastIndexByte(t, '\n')
	} else {
		l.pos.Column += len(t)
	}
}

func strconvQuote(r rune) string {
	var b bytes.Buffer
	b.WriteByte('\'')
	b.WriteRune(r)
	b.WriteByte('\'')
	return b.String()
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' }

// spaceLen is the length of the white space (and backslash line
// continuations) s starts with.
func spaceLen(s string) int {
	i := 0
	for i < len(s) {
		switch {
		case isSpaceByte(s[i]):
			i++
		case strings.HasPrefix(s[i:], "\\\n"):
			i += 2
		case strings.HasPrefix(s[i:], "\\\r\n"):
			i += 3
		default:
			return i
		}
	}
	return i
}

// stringPrefix is the length of the prefix letters (r, b, u, f; one or two)
// s starts with when a quote follows them, else 0.
func stringPrefix(s string) int {
	for n := 0; n < len(s) && n <= 2; n++ {
		switch s[n] {
		case '\'', '"':
			return n
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F':
		default:
			return 0
		}
	}
	return 0
}

// stringLen is the length of the string literal s starts with: prefix,
// quotes and all. A backslash always takes the next byte.
func stringLen(s string) (int, bool) {
	i := stringPrefix(s)
	q := s[i]
	if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
		for i += 3; i < len(s); {
			if i = quoteOrBackslash(s, i, q); i == len(s) {
				return 0, false
			}
			if s[i] == '\\' {
				i += 2
				continue
			}
			if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
				return i + 3, true
			}
			i++
		}
		return 0, false
	}
	for i++; i < len(s); {
		if i = quoteOrBackslash(s, i, q); i == len(s) {
			return 0, false
		}
		if s[i] == '\\' {
			i += 2
			continue
		}
		if closesString([]byte(s[i+1:min(len(s), i+1+maxAfterQuote)]), true) == closeYes {
			return i + 1, true
		}
		i++ // a quote inside the string (see closesString)
	}
	return 0, false
}

// quoteOrBackslash is the index of the first q or backslash in s from i,
// or len(s). (A loop: strings.IndexAny sets up its byte set on every call,
// and source code has an escape every few bytes.)
func quoteOrBackslash(s string, i int, q byte) int {
	for i < len(s) && s[i] != q && s[i] != '\\' {
		i++
	}
	return i
}

// numberLen is the length of the number s starts with: digits and '_',
// 0x/0o/0b forms, a fraction, an exponent and a j suffix.
func numberLen(s string) int {
	digits := func(i int, ok func(byte) bool) int {
		for i < len(s) && (ok(s[i]) || s[i] == '_') {
			i++
		}
		return i
	}
	dec := func(c byte) bool { return c >= '0' && c <= '9' }
	hex := func(c byte) bool { return dec(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	if len(s) > 1 && s[0] == '0' && strings.IndexByte("xXoObB", s[1]) >= 0 {
		return digits(2, hex)
	}
	i := digits(0, dec)
	if i < len(s) && s[i] == '.' {
		i = digits(i+1, dec)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && dec(s[j]) {
			i = digits(j, dec)
		}
	}
	if i < len(s) && (s[i] == 'j' || s[i] == 'J') {
		i++
	}
	return i
}

// identLen is the length of the identifier s starts with (letters, digits
// and '_', not starting with a digit), 0 if none.
func identLen(s string) int {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r) {
			i += size
			continue
		}
		break
	}
	return i
}

// tokenLimit is the most tokens a call list may have: participle's parse of
// a list takes 250 to 550 bytes a token (its token buffer, lookahead
// branches and the syntax tree) and about 4 µs, so a block of tiny tokens
// would cost hundreds of times its size. MaxBlock/128 tokens (at least
// 1024) hold that to about 4 times the block limit (8 MiB allows 65,536
// tokens: a list of 30,000 numbers in one call); a call a model writes
// comes nowhere near it.
func tokenLimit(opts syntax.Options) int { return max(1024, opts.BlockLimit()/128) }

// moreTokens reports whether list holds more than limit tokens. A list the
// lexer cannot read is counted no further: the parse reports it.
func moreTokens(list []byte, limit int) bool {
	if len(list) <= limit {
		return false // a token is at least a byte
	}
	l := pyLex{src: unsafe.String(unsafe.SliceData(list), len(list))} // read only, for the length of the call
	for n := 0; ; {
		t, err := l.Next()
		if err != nil || t.Type == lexer.EOF {
			return false
		}
		if n++; n > limit {
			return true
		}
	}
}
