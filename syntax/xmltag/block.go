package xmltag

import (
	"errors"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/toolparse/toolparse/internal/params"
)

// The grammar of one finished tool block, its close tag removed (the
// streaming splitter in xmltag.go found where the block ends). participle
// lexes it into tags and text and groups them:
//
//	Tool  = ToolOpen { Item } .
//	Item  = Space | Param | Stray .
//	Param = ParamOpen { Text | Space | ParamOpen | ToolOpen | ToolClose } [ ParamClose ] .
//	Stray = Text | ParamClose | ToolOpen | ToolClose .
//
// The grammar accepts every sequence of tokens on purpose: what is wrong
// (a nested tag, a mismatched or missing close tag, text between params) is
// found by check, which can then name the exact tag and place. A grammar that
// rejected such blocks outright would report the start of the param it backed
// out of, not the tag that is wrong.
type toolBlock struct {
	Open  lexer.Token `parser:"@ToolOpen"`
	Items []*item     `parser:"@@*"`
}

type item struct {
	Space *lexer.Token `parser:"  @Space"`
	Param *param       `parser:"| @@"`
	Stray *lexer.Token `parser:"| @(Text | ParamClose | ToolOpen | ToolClose)"`
}

type param struct {
	Open   string        `parser:"@ParamOpen"`
	Value  []string      `parser:"@(Text | Space | ParamOpen | ToolOpen | ToolClose)*"`
	Close  *string       `parser:"@ParamClose?"`
	Tokens []lexer.Token // filled by participle: every token of the param, with positions
}

var (
	grammar = participle.MustBuild[toolBlock](participle.Lexer(tagLexer))
	symbols = tagLexer.Symbols()
)

// tagError is a problem in a tool block, at a byte offset within it.
type tagError struct {
	off int
	msg string
}

// parseTool reads a complete tool block (open tag to close tag) into a JSON
// object of its parameters: a repeated key is an array, in order.
func parseTool(block []byte, name string) ([]byte, *tagError) {
	closeTag := "</tool:" + name + ">"
	tb, err := grammar.ParseBytes("", block[:len(block)-len(closeTag)])
	if err != nil { // the grammar accepts any tokens; this is not expected
		var pe participle.Error
		if errors.As(err, &pe) {
			return nil, &tagError{pe.Position().Offset, pe.Message()}
		}
		return nil, &tagError{0, err.Error()}
	}
	if e := check(tb, closeTag, len(block)-len(closeTag)); e != nil {
		return nil, e
	}
	var ps params.Params
	for _, it := range tb.Items {
		if it.Param == nil {
			continue
		}
		ps.Add(tagName(it.Param.Open), false, value(strings.Join(it.Param.Value, "")))
	}
	return ps.JSON(), nil
}

// check finds the first thing wrong in the block's structure.
func check(tb *toolBlock, closeTag string, closeAt int) *tagError {
	for _, it := range tb.Items {
		if t := it.Stray; t != nil {
			switch t.Type {
			case symbols["ToolOpen"]:
				return &tagError{t.Pos.Offset, "nested tool " + t.Value + " inside " + tb.Open.Value}
			case symbols["ToolClose"]:
				return &tagError{t.Pos.Offset, "mismatched close tag " + t.Value + " inside " + tb.Open.Value}
			case symbols["ParamClose"]:
				return &tagError{t.Pos.Offset, "close tag " + t.Value + " with no open <param:" + tagName(t.Value) + ">"}
			}
			text := strings.TrimLeft(t.Value, " \t\r\n")
			return &tagError{t.Pos.Offset + len(t.Value) - len(text), "text between params (only white space may stand outside <param:…> tags): " + quoteClip(strings.TrimSpace(text))}
		}
		p := it.Param
		if p == nil {
			continue
		}
		for _, t := range p.Tokens[1:] {
			switch t.Type {
			case symbols["ParamOpen"]:
				return &tagError{t.Pos.Offset, "nested " + t.Value + " inside " + p.Open}
			case symbols["ToolOpen"]:
				return &tagError{t.Pos.Offset, "nested tool " + t.Value + " inside " + p.Open}
			case symbols["ToolClose"]:
				return &tagError{t.Pos.Offset, "mismatched close tag " + t.Value + " inside " + p.Open}
			case symbols["ParamClose"]:
				if tagName(t.Value) != tagName(p.Open) {
					return &tagError{t.Pos.Offset, "mismatched close tag " + t.Value + " for " + p.Open}
				}
			}
		}
		if p.Close == nil {
			return &tagError{closeAt, p.Open + " is not closed before " + closeTag}
		}
	}
	return nil
}

// tagName is the name in "<param:NAME>" or "</tool:NAME>".
func tagName(tag string) string {
	_, name, _ := strings.Cut(tag, ":")
	return strings.TrimSuffix(name, ">")
}

// value removes one leading and one trailing newline (LF or CRLF).
func value(v string) string {
	if strings.HasPrefix(v, "\r\n") {
		v = v[2:]
	} else if strings.HasPrefix(v, "\n") {
		v = v[1:]
	}
	if strings.HasSuffix(v, "\r\n") {
		v = v[:len(v)-2]
	} else if strings.HasSuffix(v, "\n") {
		v = v[:len(v)-1]
	}
	return v
}

func quoteClip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return `"` + s + `"`
}
