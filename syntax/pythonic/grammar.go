package pythonic

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/toolparse/toolparse/syntax"
)

// The grammar of a finished call list, read by participle. The splitter in
// pythonic.go has already found where the list ends (bracket depth, strings
// in both quote styles with escapes and triple quotes), checked that its
// brackets match and that it nests no deeper than Options.MaxDepth; only
// then is the list given to participle, once.
//
// The grammar accepts more than a call list may hold (positional arguments,
// names, calls as values, bytes literals, complex numbers) so that such a
// call is an error of its own, with its siblings standing, instead of a
// syntax error for the whole list.

type pyList struct {
	Calls []*pyCall `parser:"'[' ( @@ ( ',' @@ )* ','? )? ']'"`
}

type pyCall struct {
	Pos    lexer.Position
	EndPos lexer.Position // where the token after the call starts (see callEnd)
	Name   []string       `parser:"@Ident ( '.' @Ident )*"`
	Args   []*pyArg       `parser:"'(' ( @@ ( ',' @@ )* ','? )? ')'"`
}

type pyArg struct {
	Pos   lexer.Position
	Star  string   `parser:"( @( '*' '*'? )"`
	Key   string   `parser:"| @Ident '=' )?"`
	Value *pyValue `parser:"@@"`
}

type pyValue struct {
	Pos     lexer.Position
	Signs   []string `parser:"@( '-' | '+' )*"`
	Number  *string  `parser:"( @Number"`
	Strings []string `parser:"| @String+"`
	Dict    *pyDict  `parser:"| @@"`
	List    *pyItems `parser:"| @@"`
	Tuple   *pyTuple `parser:"| @@"`
	Name    *pyName  `parser:"| @@ )"`
}

type pyDict struct {
	Entries []*pyEntry `parser:"'{' ( @@ ( ',' @@ )* ','? )? '}'"`
}

// pyEntry is an item of a dict (key: value) or of a set (a value alone).
type pyEntry struct {
	Pos   lexer.Position
	Key   *pyValue `parser:"@@"`
	Value *pyValue `parser:"( ':' @@ )?"`
}

type pyItems struct {
	Items []*pyValue `parser:"'[' ( @@ ( ',' @@ )* ','? )? ']'"`
}

type pyTuple struct {
	Items    []*pyValue `parser:"'(' ( @@ ( ',' @@ )*"`
	Trailing bool       `parser:"@','? )? ')'"`
}

type pyName struct {
	Parts []string `parser:"@Ident ( '.' @Ident )*"`
	Call  *pyArgs  `parser:"@@?"`
}

type pyArgs struct {
	Args []*pyArg `parser:"'(' ( @@ ( ',' @@ )* ','? )? ')'"`
}

var (
	parseOpts  = []participle.Option{participle.Lexer(pyLexer), participle.UseLookahead(4)}
	listParser = participle.MustBuild[pyList](parseOpts...)
	callParser = participle.MustBuild[pyCall](parseOpts...)
)

// callEnd returns the offset in src, the text c was parsed from, just past
// c's closing parenthesis. participle's EndPos is where the next token
// starts, and the lexer yields no white space: after "f(a=1)  ," it is
// the comma's offset.
func callEnd(src []byte, c *pyCall) int {
	return c.Pos.Offset + bytes.LastIndexByte(src[c.Pos.Offset:c.EndPos.Offset], ')') + 1
}

// problem is what is wrong with a call or a list: a message and the offset,
// within the text parsed, that it is about.
type problem struct {
	msg string
	off int
}

// syntaxProblem turns participle's error into a problem.
func syntaxProblem(err error) problem {
	var perr participle.Error
	if errors.As(err, &perr) {
		return problem{msg: "not a Python call list: " + perr.Message(), off: perr.Position().Offset}
	}
	return problem{msg: "not a Python call list: " + err.Error()}
}

// callJSON converts one parsed call into its name and its arguments as a
// compact JSON object, or says what keeps it from being a call.
func callJSON(c *pyCall) (name string, args []byte, pr *problem) {
	name = strings.Join(c.Name, ".")
	args = append(make([]byte, 0, 64), '{')
	seen := make(map[string]bool, len(c.Args))
	for i, a := range c.Args {
		switch {
		case a.Star != "":
			return name, nil, &problem{"unpacked arguments (" + a.Star + ") are not allowed in a tool call", a.Pos.Offset}
		case a.Key == "":
			return name, nil, &problem{"argument " + strconv.Itoa(i+1) + " is positional: a tool call takes keyword arguments only", a.Pos.Offset}
		case seen[a.Key]:
			return name, nil, &problem{"keyword argument " + a.Key + " repeated", a.Pos.Offset}
		}
		seen[a.Key] = true
		if len(args) > 1 {
			args = append(args, ',')
		}
		args = syntax.AppendQuote(args, a.Key)
		args = append(args, ':')
		var p *problem
		if args, p = appendValue(args, a.Value); p != nil {
			p.msg = "argument " + a.Key + ": " + p.msg
			return name, nil, p
		}
	}
	return name, append(args, '}'), nil
}

// appendValue appends v as JSON.
func appendValue(dst []byte, v *pyValue) ([]byte, *problem) {
	neg := false
	for _, s := range v.Signs {
		neg = neg != (s == "-")
	}
	if len(v.Signs) > 0 && v.Number == nil {
		return dst, &problem{"a sign before something that is not a number", v.Pos.Offset}
	}
	switch {
	case v.Number != nil:
		num, p := number(*v.Number, neg)
		if p != "" {
			return dst, &problem{p, v.Pos.Offset}
		}
		return append(dst, num...), nil
	case v.Strings != nil:
		var b strings.Builder
		n := 0
		for _, s := range v.Strings {
			n += len(s)
		}
		b.Grow(n) // the literals' length: their value is no longer
		for _, s := range v.Strings {
			if p := decodeString(&b, s); p != "" {
				return dst, &problem{p, v.Pos.Offset}
			}
		}
		return syntax.AppendQuote(dst, b.String()), nil
	case v.Dict != nil:
		return appendDict(dst, v.Dict)
	case v.List != nil:
		return appendItems(dst, v.List.Items)
	case v.Tuple != nil:
		if len(v.Tuple.Items) == 1 && !v.Tuple.Trailing { // (x) is x
			return appendValue(dst, v.Tuple.Items[0])
		}
		return appendItems(dst, v.Tuple.Items)
	case v.Name != nil:
		return appendName(dst, v)
	}
	return dst, &problem{"no value", v.Pos.Offset}
}

func appendItems(dst []byte, items []*pyValue) ([]byte, *problem) {
	dst = append(dst, '[')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		var p *problem
		if dst, p = appendValue(dst, it); p != nil {
			return dst, p
		}
	}
	return append(dst, ']'), nil
}

// appendDict appends a dict as a JSON object, or a set as an array. Keys
// must be strings. A key given twice keeps its first place and its last
// value, as a Python dict does. A set's items keep the order they were
// written in (JSON has no sets; vLLM's lfm2 parser makes them lists too).
func appendDict(dst []byte, d *pyDict) ([]byte, *problem) {
	if len(d.Entries) > 0 && d.Entries[0].Value == nil {
		items := make([]*pyValue, len(d.Entries))
		for i, e := range d.Entries {
			if e.Value != nil {
				return dst, &problem{"a set item with a ':' (half dict, half set)", e.Pos.Offset}
			}
			items[i] = e.Key
		}
		return appendItems(dst, items)
	}
	keys := make([]string, 0, len(d.Entries))
	vals := make([][]byte, 0, len(d.Entries))
	at := make(map[string]int, len(d.Entries))
	for _, e := range d.Entries {
		if e.Value == nil {
			return dst, &problem{"a dict item with no ':' (half dict, half set)", e.Pos.Offset}
		}
		if e.Key.Strings == nil || len(e.Key.Signs) > 0 {
			return dst, &problem{"a dict key that is not a string (JSON object keys are strings)", e.Key.Pos.Offset}
		}
		kb, p := appendValue(nil, e.Key)
		if p != nil {
			return dst, p
		}
		vb, p := appendValue(nil, e.Value)
		if p != nil {
			return dst, p
		}
		k := string(kb)
		if i, ok := at[k]; ok {
			vals[i] = vb
			continue
		}
		at[k] = len(keys)
		keys = append(keys, k)
		vals = append(vals, vb)
	}
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, k...)
		dst = append(dst, ':')
		dst = append(dst, vals[i]...)
	}
	return append(dst, '}'), nil
}

func appendName(dst []byte, v *pyValue) ([]byte, *problem) {
	n := v.Name
	name := strings.Join(n.Parts, ".")
	if n.Call == nil {
		switch name {
		case "None", "null":
			return append(dst, "null"...), nil
		case "True", "true":
			return append(dst, "true"...), nil
		case "False", "false":
			return append(dst, "false"...), nil
		case "inf", "nan", "math.inf", "math.nan":
			return dst, &problem{"a non-finite number (" + name + ") has no JSON form", v.Pos.Offset}
		}
		return dst, &problem{"the name " + name + " is not a literal", v.Pos.Offset}
	}
	if name == "float" && len(n.Call.Args) == 1 && n.Call.Args[0].Key == "" && n.Call.Args[0].Star == "" {
		if s := n.Call.Args[0].Value.Strings; s != nil {
			var b strings.Builder
			decodeString(&b, s[0])
			f, err := strconv.ParseFloat(strings.TrimSpace(b.String()), 64)
			if err == nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
				return dst, &problem{"a non-finite number (float(" + s[0] + ")) has no JSON form", v.Pos.Offset}
			}
		}
	}
	return dst, &problem{"a call to " + name + "() is not a literal", v.Pos.Offset}
}

// number converts a Python number literal to JSON. Integers keep every
// digit (beyond 2^53 too); hexadecimal, octal and binary ones are written
// in decimal. Floats keep their digits as written, made JSON's shape (.5 is
// 0.5, 5. is 5.0); one too large for a float64 is non-finite and refused.
func number(text string, neg bool) ([]byte, string) {
	t := strings.ReplaceAll(text, "_", "")
	if strings.HasSuffix(t, "j") || strings.HasSuffix(t, "J") {
		return nil, "a complex number (" + text + ") has no JSON form"
	}
	var out []byte
	if neg {
		out = append(out, '-')
	}
	if len(t) > 1 && t[0] == '0' && strings.ContainsRune("xXoObB", rune(t[1])) {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[t[1]]
		n, ok := new(big.Int).SetString(t[2:], base)
		if !ok {
			return nil, "a malformed number " + text
		}
		if n.Sign() == 0 {
			out = out[:0]
		}
		return n.Append(out, 10), ""
	}
	if !strings.ContainsAny(t, ".eE") {
		t = strings.TrimLeft(t, "0")
		if t == "" {
			t = "0" // -0 stays -0: JSON has it, and it reads back the same
		}
		return append(out, t...), ""
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, "a malformed number " + text
	}
	if math.IsInf(f, 0) {
		return nil, "a non-finite number (" + text + " is beyond a float64) has no JSON form"
	}
	mant, exp := t, ""
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		mant, exp = t[:i], t[i:]
	}
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	if strings.HasSuffix(mant, ".") {
		mant += "0"
	}
	if i := strings.IndexByte(mant, '.'); i < 0 || i > 1 { // JSON: no leading zeros
		ip, frac, _ := strings.Cut(mant, ".")
		ip = strings.TrimLeft(ip, "0")
		if ip == "" {
			ip = "0"
		}
		mant = ip
		if frac != "" || strings.Contains(t, ".") {
			mant += "." + frac
		}
	}
	return append(append(out, mant...), exp...), ""
}

// decodeString appends the value of one Python string literal (prefix and
// quotes included) to b, or says why it has no JSON form.
func decodeString(b *strings.Builder, lit string) string {
	i := strings.IndexAny(lit, `'"`)
	prefix := strings.ToLower(lit[:i])
	body := lit[i:]
	q := 1
	if len(body) >= 6 && (strings.HasPrefix(body, `'''`) || strings.HasPrefix(body, `"""`)) {
		q = 3
	}
	body = body[q : len(body)-q]
	switch {
	case strings.Contains(prefix, "b"):
		return "a bytes literal (" + clip(lit) + ") has no JSON form"
	case strings.Contains(prefix, "f"):
		return "an f-string (" + clip(lit) + ") is not a literal"
	case strings.Contains(prefix, "r"):
		b.WriteString(body)
		return ""
	}
	for len(body) > 0 {
		k := strings.IndexByte(body, '\\')
		if k < 0 {
			b.WriteString(body)
			break
		}
		b.WriteString(body[:k])
		body = body[k:]
		if len(body) < 2 {
			b.WriteString(body)
			break
		}
		c := body[1]
		n := 2
		switch c {
		case '\n':
		case '\r':
			if len(body) > 2 && body[2] == '\n' {
				n = 3
			}
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := 0
			for n = 1; n < 4 && n < len(body) && body[n] >= '0' && body[n] <= '7'; n++ {
				v = v*8 + int(body[n]-'0')
			}
			b.WriteRune(rune(v))
		case 'x', 'u', 'U':
			digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if len(body) < 2+digits {
				return "a truncated \\" + string(c) + " escape"
			}
			v, err := strconv.ParseUint(body[2:2+digits], 16, 32)
			if err != nil {
				return "a malformed \\" + string(c) + " escape"
			}
			n = 2 + digits
			r := rune(v)
			if utf16.IsSurrogate(r) && r < 0xdc00 && strings.HasPrefix(body[n:], `\u`) && len(body) >= n+6 {
				// A pair written as two escapes is one character, as a
				// JSON reader of Python's json.dumps output would see it.
				if lo, err := strconv.ParseUint(body[n+2:n+6], 16, 32); err == nil && utf16.DecodeRune(r, rune(lo)) != utf8.RuneError {
					r = utf16.DecodeRune(r, rune(lo))
					n += 6
				}
			}
			if r > utf8.MaxRune {
				return "an escape beyond the last Unicode character"
			}
			b.WriteRune(r) // a lone surrogate becomes U+FFFD
		case 'N':
			return `a \N{...} escape (a named Unicode character) is not supported`
		default: // unknown escapes are kept, as Python keeps them
			b.WriteByte('\\')
			n = 1
		}
		body = body[n:]
	}
	return ""
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
