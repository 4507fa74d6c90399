package xmltag

import (
	"bytes"
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// The token types of a tool block.
const (
	tokToolOpen lexer.TokenType = iota + 1
	tokToolClose
	tokParamOpen
	tokParamClose
	tokSpace // text that is only white space
	tokText  // any other text, '<' included when it starts none of our tags
)

// tagLexer is a participle lexer for a finished tool block. It is written by
// hand, not with lexer.MustSimple: a text token runs up to the next of our
// tags, so a 300 KB value is one token, and each byte is looked at once
// (participle's regular-expression lexer took 60 ms for such a value and
// allocated 160 times its size).
type tagLexerDef struct{}

var tagLexer = tagLexerDef{}

func (tagLexerDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF": lexer.EOF, "ToolOpen": tokToolOpen, "ToolClose": tokToolClose,
		"ParamOpen": tokParamOpen, "ParamClose": tokParamClose, "Space": tokSpace, "Text": tokText,
	}
}

func (d tagLexerDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexBytes(filename, b)
}

func (tagLexerDef) LexBytes(filename string, input []byte) (lexer.Lexer, error) {
	return &tagTokens{input: input, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

type tagTokens struct {
	input []byte
	off   int
	pos   lexer.Position
}

// Next returns the next token. Only offsets are kept exact: line and column
// are not maintained (the caller computes positions from offsets).
func (t *tagTokens) Next() (lexer.Token, error) {
	if t.off >= len(t.input) {
		return lexer.EOFToken(lexer.Position{Filename: t.pos.Filename, Offset: t.off}), nil
	}
	rest := t.input[t.off:]
	typ, n := tagAt(rest)
	if n == 0 {
		// Text up to the next of our tags.
		for n = 1; n < len(rest); n++ {
			if rest[n] == '<' {
				if _, k := tagAt(rest[n:]); k > 0 {
					break
				}
			}
		}
		typ = tokText
		if len(bytes.TrimLeft(rest[:n], " \t\r\n")) == 0 {
			typ = tokSpace
		}
	}
	tok := lexer.Token{Type: typ, Value: string(rest[:n]), Pos: lexer.Position{Filename: t.pos.Filename, Offset: t.off}}
	t.off += n
	return tok, nil
}

var tagPrefixes = [...]struct {
	prefix string
	typ    lexer.TokenType
}{
	{"<tool:", tokToolOpen}, {"</tool:", tokToolClose}, {"<param:", tokParamOpen}, {"</param:", tokParamClose},
}

// tagAt reports whether b starts with one of our tags, and its length.
func tagAt(b []byte) (lexer.TokenType, int) {
	if len(b) < 2 || b[0] != '<' {
		return 0, 0
	}
	for _, tp := range tagPrefixes {
		if !bytes.HasPrefix(b, []byte(tp.prefix)) {
			continue
		}
		i := len(tp.prefix)
		for i < len(b) && isNameByte(b[i]) {
			i++
		}
		if i > len(tp.prefix) && i < len(b) && b[i] == '>' {
			return tp.typ, i + 1
		}
		return 0, 0
	}
	return 0, 0
}
