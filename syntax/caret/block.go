package caret

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
)

// blockError is a problem in a finished block, at the line it is about.
type blockError struct {
	pos syntax.Pos
	msg string
}

// line is one line of a block: its text without the line end, and where it starts.
type line struct {
	text []byte // without "\n"; a trailing "\r" is kept
	off  int    // offset within the block's content
	n    int    // 0-based line number within the content
}

// trimmed is the line without trailing spaces, tabs and CR.
func (l line) trimmed() []byte { return bytes.TrimRight(l.text, " \t\r") }

func (l line) indented() bool {
	return len(l.text) > 0 && (l.text[0] == ' ' || l.text[0] == '\t')
}

func splitLines(content []byte) []line {
	var ls []line
	off := 0
	for n := 0; off < len(content); n++ {
		end := bytes.IndexByte(content[off:], '\n')
		if end < 0 {
			ls = append(ls, line{content[off:], off, n})
			break
		}
		ls = append(ls, line{content[off : off+end], off, n})
		off += end + 1
	}
	return ls
}

var (
	keyLine     = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.-]*):(?:[ \t]+(.*))?$`)
	blockHeader = regexp.MustCompile(`^[|>](?:[1-9][+-]?|[+-][1-9]?)?$`)
)

// parseBlock reads a finished block's content (the lines between the fences)
// into a JSON object of parameters. body is the position of its first byte.
func parseBlock(content []byte, body syntax.Pos) ([]byte, *blockError) {
	at := func(l line) syntax.Pos {
		return syntax.Pos{Offset: body.Offset + int64(l.off), Line: body.Line + l.n, Column: 1}
	}
	fail := func(l line, format string, a ...any) ([]byte, *blockError) {
		return nil, &blockError{at(l), fmt.Sprintf("line %d: ", body.Line+l.n) + fmt.Sprintf(format, a...)}
	}
	// Find the "---" line without splitting a long body into lines.
	sep := line{off: -1}
	for off, n := 0, 0; off < len(content); n++ {
		end := bytes.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content) - off
		}
		if l := (line{content[off : off+end], off, n}); string(l.trimmed()) == "---" {
			sep = l
			break
		}
		off += end + 1
	}
	header := content
	if sep.off >= 0 {
		header = content[:sep.off]
	}
	lines := splitLines(header)
	var ps params.Params
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := l.trimmed()
		if len(t) == 0 {
			continue
		}
		if l.indented() {
			return fail(l, "unexpected indented line in the header (only list items and block scalars are indented)")
		}
		m := keyLine.FindSubmatch(t)
		if m == nil {
			return fail(l, "expected \"key: value\", \"key:\" with indented \"- item\" lines, or \"key: |\" with indented lines; got %q", clip(t))
		}
		key, value := string(m[1]), string(bytes.TrimSpace(m[2]))
		switch {
		case value == "":
			var items []string
			j := i + 1
			for ; j < len(lines); j++ {
				lt := lines[j].trimmed()
				if len(lt) == 0 {
					continue
				}
				if !lines[j].indented() {
					break
				}
				item := bytes.TrimLeft(lt, " \t")
				if item[0] != '-' || len(item) > 1 && item[1] != ' ' && item[1] != '\t' {
					return fail(lines[j], "expected a list item \"- value\" under %q; got %q", key, clip(item))
				}
				items = append(items, string(bytes.TrimSpace(item[1:])))
			}
			if items == nil {
				ps.Add(key, false, "")
			} else {
				ps.Add(key, true, items...)
			}
			i = j - 1
		case blockHeader.MatchString(value):
			j := i + 1
			for j < len(lines) && (lines[j].indented() || len(lines[j].trimmed()) == 0) {
				j++
			}
			v, err := blockScalar(lines[i:j], at)
			if err != nil {
				return nil, err
			}
			ps.Add(key, false, v)
			i = j - 1
		default:
			ps.Add(key, false, value)
		}
	}
	if sep.off < 0 {
		return ps.JSON(), nil // no body
	}
	// After "---": a mapping of block scalars, or the verbatim content.
	start := sep.off + len(sep.text) + 1
	text := content[min(start, len(content)):]
	if first := firstNonBlankLine(text); first != nil && first[0] != ' ' && first[0] != '\t' {
		if m := keyLine.FindSubmatch(bytes.TrimRight(first, " \t\r")); m != nil && blockHeader.Match(bytes.TrimSpace(m[2])) {
			bodyLines := splitLines(text)
			for k := range bodyLines {
				bodyLines[k].off += start
				bodyLines[k].n += sep.n + 1
			}
			for len(bodyLines[0].trimmed()) == 0 {
				bodyLines = bodyLines[1:]
			}
			return bodyMapping(bodyLines, &ps, at)
		}
	}
	if ps.Has("content") {
		return fail(sep, "the body after --- is the \"content\" parameter, but the header already gave \"content\"")
	}
	text = bytes.TrimSuffix(text, []byte("\n"))
	text = bytes.TrimSuffix(text, []byte("\r"))
	ps.Add("content", false, string(text))
	return ps.JSON(), nil
}

// firstNonBlankLine returns the first line of text that is not white space,
// without its line end, or nil.
func firstNonBlankLine(text []byte) []byte {
	for len(text) > 0 {
		l, rest, _ := bytes.Cut(text, []byte("\n"))
		if len(bytes.TrimSpace(l)) > 0 {
			return l
		}
		text = rest
	}
	return nil
}

// blockScalar decodes a "key: |" line and its indented lines with YAML's rules
// for block scalars (indentation, chomping, folding).
func blockScalar(ls []line, at func(line) syntax.Pos) (string, *blockError) {
	// YAML reports a line less indented than the first as "did not find
	// expected key" at the scalar's start; say plainly which line it is.
	indent := -1
	if bytes.ContainsAny(ls[0].text, "123456789") {
		indent = 0 // an explicit indentation indicator: YAML's own rules apply
	}
	for _, l := range ls[1:] {
		if len(l.trimmed()) == 0 {
			continue
		}
		n := len(l.text) - len(bytes.TrimLeft(l.text, " "))
		if indent < 0 {
			indent = n
		} else if n < indent {
			return "", &blockError{at(l), fmt.Sprintf("line %d: less indented than the first line of the block scalar above it", at(l).Line)}
		}
	}
	doc := joinLines(ls)
	var n yaml.Node
	if err := yaml.Unmarshal(doc, &n); err != nil {
		return "", yamlError(err, ls, at)
	}
	if len(n.Content) == 0 || len(n.Content[0].Content) < 2 {
		return "", &blockError{at(ls[0]), fmt.Sprintf("line %d: not a block scalar", at(ls[0]).Line)}
	}
	return n.Content[0].Content[1].Value, nil
}

// bodyMapping reads a body that is a mapping of block scalars.
func bodyMapping(ls []line, ps *params.Params, at func(line) syntax.Pos) ([]byte, *blockError) {
	var n yaml.Node
	if err := yaml.Unmarshal(joinLines(ls), &n); err != nil {
		return nil, yamlError(err, ls, at)
	}
	if len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
		return nil, &blockError{at(ls[0]), fmt.Sprintf("line %d: the body is not a mapping of block scalars", at(ls[0]).Line)}
	}
	m := n.Content[0]
	inBody := map[string]bool{}
	for k := 0; k+1 < len(m.Content); k += 2 {
		key, val := m.Content[k], m.Content[k+1]
		l := lineAt(ls, key.Line)
		if val.Kind != yaml.ScalarNode || val.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
			return nil, &blockError{at(l), fmt.Sprintf("line %d: %q in the body is not a block scalar (\"%s: |\" and indented lines)", at(l).Line, key.Value, key.Value)}
		}
		if ps.Has(key.Value) && !inBody[key.Value] {
			return nil, &blockError{at(l), fmt.Sprintf("line %d: %q is given in both the header and the body", at(l).Line, key.Value)}
		}
		inBody[key.Value] = true
		ps.Add(key.Value, false, val.Value)
	}
	return ps.JSON(), nil
}

func joinLines(ls []line) []byte {
	var b []byte
	for _, l := range ls {
		b = append(b, l.text...)
		b = append(b, '\n')
	}
	return b
}

// lineAt returns the line that YAML calls line n (1-based) of the document
// made of ls.
func lineAt(ls []line, n int) line {
	if n >= 1 && n <= len(ls) {
		return ls[n-1]
	}
	return ls[0]
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a YAML error, whose line numbers count from the start of the
// sub-document, into one at the transcript's line.
func yamlError(err error, ls []line, at func(line) syntax.Pos) *blockError {
	msg := err.Error()
	l := ls[0]
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		l = lineAt(ls, n)
		msg = m[2]
	}
	return &blockError{at(l), fmt.Sprintf("line %d: %s", at(l).Line, msg)}
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}
