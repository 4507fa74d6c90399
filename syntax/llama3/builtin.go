package llama3

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// Built-in tools are called, after <|python_tag|>, as NAME.call(KEY=VALUE,
// …) with Python keyword arguments (Meta's brave_search.call(query="…"),
// wolfram_alpha.call(query="…"); llama.cpp also writes
// code_interpreter.call(code="…")).

const callSuffix = ".call("

// maxBuiltinName bounds the name read before ".call(": a longer word is code.
const maxBuiltinName = 64

// matchBuiltin looks for NAME.call( at the start of data. It returns the
// length of NAME and of the whole opener, 0, 0 when more input is needed to
// tell, or -1, 0 when data does not start with one (it is code). At the end
// of the input, NAME followed by a cut-off ".call(" gives NAME's length and
// -1: a built-in call cut off.
func matchBuiltin(data []byte, eof bool) (nameLen, n int) {
	i := 0
	for i < len(data) && i <= maxBuiltinName && isIdentByte(data[i], i == 0) {
		i++
	}
	switch {
	case i == 0 || i > maxBuiltinName:
		return -1, 0
	case i == len(data):
		if eof {
			return -1, 0
		}
		return 0, 0
	}
	full, partial := matchPrefix(data[i:], callSuffix)
	switch {
	case full:
		return i, i + len(callSuffix)
	case partial && !eof:
		return 0, 0
	case partial:
		return i, -1
	}
	return -1, 0
}

func matchPrefix(data []byte, marker string) (full, partial bool) {
	if len(data) >= len(marker) {
		return string(data[:len(marker)]) == marker, false
	}
	return false, string(data) == marker[:len(data)]
}

func isIdentByte(c byte, first bool) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || !first && '0' <= c && c <= '9'
}

// argsEnd finds the ')' that closes a built-in call's arguments, outside
// Python strings and brackets. It keeps its state between pieces.
type argsEnd struct {
	quote byte // the open string's quote, or 0
	esc   bool
	depth int
}

// scan returns the index in p just after the closing ')', or -1.
func (a *argsEnd) scan(p []byte) int {
	for i, c := range p {
		switch {
		case a.quote != 0:
			switch {
			case a.esc:
				a.esc = false
			case c == '\\':
				a.esc = true
			case c == a.quote:
				a.quote = 0
			}
		case c == '"' || c == '\'':
			a.quote = c
		case c == '(' || c == '[' || c == '{':
			a.depth++
		case c == ')' && a.depth == 0:
			return i + 1
		case c == ')' || c == ']' || c == '}':
			if a.depth > 0 {
				a.depth--
			}
		}
	}
	return -1
}

// pyArgs reads the keyword arguments of a built-in call (the text between
// its parentheses) into a JSON object, keys in order. Values are Python
// literals: strings (either quote, Python escapes), numbers, True, False
// and None.
func pyArgs(src []byte) (args []byte, problem string) {
	out := []byte{'{'}
	seen := map[string]bool{}
	i := skipPySpace(src, 0)
	for i < len(src) {
		k := i
		for k < len(src) && isIdentByte(src[k], k == i) {
			k++
		}
		if k == i {
			return nil, "expected a keyword argument at " + describeAt(src, i)
		}
		key := string(src[i:k])
		if seen[key] {
			return nil, "keyword argument " + key + " given twice"
		}
		seen[key] = true
		i = skipPySpace(src, k)
		if i >= len(src) || src[i] != '=' {
			return nil, "expected '=' after " + key + " (only keyword arguments are read)"
		}
		i = skipPySpace(src, i+1)
		v, n, problem := pyValue(src[i:])
		if problem != "" {
			return nil, "argument " + key + ": " + problem
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = syntax.AppendQuote(out, key)
		out = append(out, ':')
		out = append(out, v...)
		i = skipPySpace(src, i+n)
		if i < len(src) {
			if src[i] != ',' {
				return nil, "expected ',' or ')' after argument " + key + " at " + describeAt(src, i)
			}
			i = skipPySpace(src, i+1)
		}
	}
	return append(out, '}'), ""
}

func skipPySpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func describeAt(b []byte, i int) string {
	if i >= len(b) {
		return "the end"
	}
	r, _ := utf8.DecodeRune(b[i:])
	return strconv.QuoteRune(r)
}

// pyValue reads one Python literal at the start of b: its JSON form and
// its length.
func pyValue(b []byte) (v []byte, n int, problem string) {
	if len(b) == 0 {
		return nil, 0, "no value"
	}
	switch c := b[0]; {
	case c == '"' || c == '\'':
		s, n, problem := pyString(b)
		if problem != "" {
			return nil, 0, problem
		}
		return syntax.AppendQuote(nil, s), n, ""
	case c == '-' || c == '+' || c == '.' || '0' <= c && c <= '9':
		k := 0
		for k < len(b) && strings.IndexByte("+-.0123456789eE", b[k]) >= 0 {
			k++
		}
		num := strings.TrimPrefix(string(b[:k]), "+")
		if js, ok := jsonscan.Whole([]byte(num), 0); ok && (js[0] == '-' || '0' <= js[0] && js[0] <= '9') {
			return js, k, ""
		}
		return nil, 0, "the number " + string(b[:k]) + " has no JSON form"
	}
	for _, lit := range [...][2]string{{"True", "true"}, {"False", "false"}, {"None", "null"}} {
		if strings.HasPrefix(string(b), lit[0]) && (len(b) == len(lit[0]) || !isIdentByte(b[len(lit[0])], false)) {
			return []byte(lit[1]), len(lit[0]), ""
		}
	}
	return nil, 0, "a value that is not a string, a number, True, False or None, at " + describeAt(b, 0)
}

// pyString reads a Python string literal (single or double quoted, not
// triple quoted, no prefix) and decodes its escapes.
func pyString(b []byte) (string, int, string) {
	q := b[0]
	var s strings.Builder
	for i := 1; i < len(b); {
		c := b[i]
		switch {
		case c == q:
			return s.String(), i + 1, ""
		case c == '\n':
			return "", 0, "a line break inside a string"
		case c != '\\':
			s.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(b) {
			break
		}
		e := b[i+1]
		i += 2
		switch e {
		case '\n':
		case '\\', '\'', '"':
			s.WriteByte(e)
		case 'n':
			s.WriteByte('\n')
		case 't':
			s.WriteByte('\t')
		case 'r':
			s.WriteByte('\r')
		case 'a':
			s.WriteByte('\a')
		case 'b':
			s.WriteByte('\b')
		case 'f':
			s.WriteByte('\f')
		case 'v':
			s.WriteByte('\v')
		case 'x', 'u', 'U':
			size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+size > len(b) {
				return "", 0, "a cut-off \\" + string(e) + " escape"
			}
			r, err := strconv.ParseUint(string(b[i:i+size]), 16, 32)
			if err != nil || r > utf8.MaxRune {
				return "", 0, "a bad \\" + string(e) + " escape"
			}
			s.WriteRune(rune(r))
			i += size
		case '0', '1', '2', '3', '4', '5', '6', '7':
			k := i - 1
			for i < len(b) && i < k+3 && '0' <= b[i] && b[i] <= '7' {
				i++
			}
			r, _ := strconv.ParseUint(string(b[k:i]), 8, 32)
			s.WriteRune(rune(r))
		default: // Python keeps an unknown escape as written
			s.WriteByte('\\')
			s.WriteByte(e)
		}
	}
	return "", 0, "an unterminated string"
}

// pyQuote writes s as a double-quoted Python string literal.
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(`\x` + strconv.FormatInt(int64(r)+0x100, 16)[1:])
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
