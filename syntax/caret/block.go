package caret

import (
	"bytes"
	"fmt"
	"iter"
	"regexp"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

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

// lineRun is a run of consecutive lines, src[from:to] (to is the end of the
// last line, before its "\n"): the lines of a list or block scalar after
// its "key:" line. It is kept as offsets, not as a list of lines: a 300 KB
// block scalar of short lines made a list of line records (40 bytes each)
// about as large as its text, with the garbage of its growth.
type lineRun struct {
	src      []byte
	from, to int
	n        int // the number of the first line
	count    int
}

// add adds l, the line after the run's last (or the first), a slice of src
// at l.off.
func (r *lineRun) add(src []byte, l line) {
	if r.count == 0 {
		r.from, r.n = l.off, l.n
	}
	r.src, r.to = src, l.off+len(l.text)
	r.count++
}

// lines yields the run's lines in order.
func (r lineRun) lines() iter.Seq[line] {
	return func(yield func(line) bool) {
		if r.count == 0 {
			return
		}
		b, off, n := r.src[r.from:r.to], r.from, r.n
		for {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				yield(line{b, off, n})
				return
			}
			if !yield(line{b[:i], off, n}) {
				return
			}
			b, off, n = b[i+1:], off+i+1, n+1
		}
	}
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

var blockHeader = regexp.MustCompile(`^[|>](?:[1-9][+-]?|[+-][1-9]?)?$`)

// identLen returns the length of the key name at the start of t: a letter or
// '_', then letters, digits, '_', '.' and '-'; 0 when t starts with none.
func identLen(t []byte) int {
	for i, c := range t {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', c == '_':
		case i > 0 && ('0' <= c && c <= '9' || c == '.' || c == '-'):
		default:
			return i
		}
	}
	return len(t)
}

// keyLine splits a header line "key:" or "key: value" (space or tab after
// the colon) into its key and its value, white space around it removed.
func keyLine(t []byte) (key, value []byte, ok bool) {
	n := identLen(t)
	if n == 0 || n == len(t) || t[n] != ':' {
		return nil, nil, false
	}
	rest := t[n+1:]
	if len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' {
		return nil, nil, false
	}
	return t[:n], bytes.TrimSpace(rest), true
}

// multiOpen returns the key of a line "key ---" that opens a multi-line
// value of the shipped dialect ("key ---" … "--- key").
func multiOpen(t []byte) (key []byte, ok bool) {
	n := identLen(t)
	rest := bytes.TrimLeft(t[n:], " \t")
	if n == 0 || len(rest) == len(t)-n || string(rest) != "---" {
		return nil, false
	}
	return t[:n], true
}

// multiClose returns the key of a line "--- key" that closes one.
func multiClose(t []byte) (key []byte, ok bool) {
	rest, found := bytes.CutPrefix(t, []byte("---"))
	name := bytes.TrimLeft(rest, " \t")
	if !found || len(name) == len(rest) || len(name) == 0 || identLen(name) != len(name) {
		return nil, false
	}
	return name, true
}

// What the header is in the middle of.
const (
	hdrKeys   = iota // between parameters
	hdrArray         // "key: [" read: items up to a line "]"
	hdrMulti         // "key ---" read: lines up to a line "--- key"
	hdrList          // "key:" read: indented "- item" lines may follow
	hdrScalar        // "key: |" read: indented lines follow
)

// header reads a block's header one line at a time, so that the parser can
// read a finished block and, in token mode, follow a block as it streams.
// The optional callbacks see each value as it becomes known: value a whole
// value (a plain value, an array or list item, a block scalar), open and
// more a multi-line "key ---" value, line by line. A value of a multi-line
// "key ---" is not given to value again when it closes.
type header struct {
	body  syntax.Pos     // the position of the block's first byte after the opening fence
	ps    *params.Params // the arguments; nil when the header is only followed (token mode)
	state int
	key   []byte // the key of the open array, multi-line value, list or block scalar (a slice of its line)
	open  line   // the line that opened it
	// A list or block scalar: its "key:" line is open, and the lines after
	// it are read once the next unindented line shows where they end.
	pending lineRun
	multi   []byte // the multi-line value so far, when it is not a slice of src (see addMulti)
	nmulti  int    // its number of lines
	// src is the bytes the lines are slices of: the block's content, or
	// the block so far when the header is only followed. While the lines
	// of a multi-line value of a finished block lose no CR, the value is
	// src[multiAt:multiEnd].
	src               []byte
	multiAt, multiEnd int
	sliced            bool

	value func(key, v string)
	start func(key string)
	more  func(key string, text []byte, first bool)
}

func (h *header) at(l line) syntax.Pos {
	return syntax.Pos{Offset: h.body.Offset + int64(l.off), Line: h.body.Line + l.n, Column: 1}
}

func (h *header) fail(l line, format string, a ...any) *blockError {
	return &blockError{h.at(l), fmt.Sprintf("line %d: ", h.body.Line+l.n) + fmt.Sprintf(format, a...)}
}

// add adds a whole value; list makes its key an array.
func (h *header) add(key []byte, list bool, v []byte) {
	if h.ps != nil {
		h.ps.AddKey(key, v, list)
	}
	if h.value != nil {
		h.value(string(key), string(v))
	}
}

// line reads the header's next line; sep reports that it is the "---" line
// that ends the header (a body follows).
func (h *header) line(l line) (sep bool, err *blockError) {
	switch h.state {
	case hdrArray:
		switch t := bytes.TrimSpace(l.text); {
		case string(t) == "]":
			h.state = hdrKeys
		case len(t) > 0:
			h.add(h.key, true, t)
		}
		return false, nil
	case hdrMulti:
		if t := l.trimmed(); bytes.HasPrefix(t, []byte("---")) {
			if k, ok := multiClose(t); ok && string(k) == string(h.key) {
				if h.ps != nil {
					h.ps.AddKey(h.key, h.multiValue(), false)
				}
				h.state = hdrKeys
				return false, nil
			}
		}
		text := bytes.TrimSuffix(l.text, []byte("\r")) // a CRLF line end
		if h.more != nil {
			h.more(string(h.key), text, h.nmulti == 0) // streamed: no need to keep it
		} else {
			h.addMulti(l, text)
		}
		h.nmulti++
		return false, nil
	case hdrList, hdrScalar:
		if l.indented() || len(l.trimmed()) == 0 {
			h.pending.add(h.src, l)
			return false, nil
		}
		if err := h.flush(); err != nil {
			return false, err
		}
	}
	t := l.trimmed()
	if len(t) == 0 {
		return false, nil
	}
	if l.indented() {
		return false, h.fail(l, "unexpected indented line in the header (only list items and block scalars are indented)")
	}
	if string(t) == "---" {
		return true, nil
	}
	if key, value, ok := keyLine(t); ok {
		switch {
		case len(value) == 0:
			h.state, h.key, h.open, h.pending = hdrList, key, l, lineRun{}
		case string(value) == "[":
			h.state, h.key, h.open = hdrArray, key, l
			if h.ps != nil {
				h.ps.List(key) // an array, even with no items
			}
		case blockHeader.Match(value):
			h.state, h.key, h.open, h.pending = hdrScalar, key, l, lineRun{}
		default:
			h.add(key, false, value)
		}
		return false, nil
	}
	if k, ok := multiOpen(t); ok {
		h.state, h.key, h.open = hdrMulti, k, l
		h.multi, h.nmulti, h.sliced = h.multi[:0], 0, h.ps != nil
		if h.start != nil {
			h.start(string(h.key))
		}
		return false, nil
	}
	if k, ok := multiClose(t); ok {
		return false, h.fail(l, "%q closes a multi-line value, but no \"%s ---\" is open", t, k)
	}
	if string(t) == "]" {
		return false, h.fail(l, "\"]\" closes an array, but no \"key: [\" is open")
	}
	return false, h.fail(l, "expected \"key: value\", \"key: [\" with items up to \"]\", \"key ---\" with lines up to \"--- key\", \"key:\" with indented \"- item\" lines, or \"key: |\" with indented lines; got %q", clip(t))
}

// addMulti adds a line, text without its CR, to the multi-line value. While
// no line has lost a CR, the value is the slice of the block from its first
// line to its last, which the lines joined with "\n" are; else it is built
// in h.multi.
func (h *header) addMulti(l line, text []byte) {
	if h.sliced && len(text) == len(l.text) {
		if h.nmulti == 0 {
			h.multiAt = l.off
		}
		h.multiEnd = l.off + len(text)
		return
	}
	if h.sliced {
		h.sliced = false
		if h.nmulti > 0 {
			h.multi = append(h.multi[:0], h.src[h.multiAt:h.multiEnd]...)
		}
	}
	if h.nmulti > 0 {
		h.multi = append(h.multi, '\n')
	}
	h.multi = append(h.multi, text...)
}

// multiValue is the multi-line value read.
func (h *header) multiValue() []byte {
	if h.sliced && h.nmulti > 0 {
		return h.src[h.multiAt:h.multiEnd]
	}
	return h.multi
}

// flush reads a pending list or block scalar.
func (h *header) flush() *blockError {
	run, scalar := h.pending, h.state == hdrScalar
	h.state, h.pending = hdrKeys, lineRun{}
	if scalar {
		v, err := blockScalar(h.open, run, h.at)
		if err != nil {
			return err
		}
		h.add(h.key, false, v)
		return nil
	}
	items := 0
	for l := range run.lines() {
		lt := l.trimmed()
		if len(lt) == 0 {
			continue
		}
		item := bytes.TrimLeft(lt, " \t")
		if item[0] != '-' || len(item) > 1 && item[1] != ' ' && item[1] != '\t' {
			return h.fail(l, "expected a list item \"- value\" under %q; got %q", h.key, clip(item))
		}
		h.add(h.key, true, bytes.TrimSpace(item[1:]))
		items++
	}
	if items == 0 {
		h.add(h.key, false, nil)
	}
	return nil
}

// end finishes a header that the closing fence ends.
func (h *header) end() *blockError {
	switch h.state {
	case hdrList, hdrScalar:
		return h.flush()
	case hdrArray:
		return h.fail(h.open, "the array %q has no line \"]\" before the closing ^^^", h.key)
	case hdrMulti:
		return h.fail(h.open, "the multi-line value %q has no line \"--- %s\" before the closing ^^^", h.key, h.key)
	}
	return nil
}

// parseBlock reads a finished block's content (the lines between the fences)
// into a JSON object of parameters, built in ps (empty; empty again after).
// body is the position of its first byte.
func parseBlock(ps *params.Params, content []byte, body syntax.Pos) ([]byte, *blockError) {
	args, err := readBlock(ps, content, body)
	if err != nil {
		ps.Reset()
	}
	return args, err
}

// readBlock is parseBlock, which empties ps when it fails.
func readBlock(ps *params.Params, content []byte, body syntax.Pos) ([]byte, *blockError) {
	h := header{body: body, ps: ps, src: content}
	hint(h.ps, content)
	// Read the header line by line up to the "---" line, without splitting a
	// long body into lines.
	sep := line{off: -1}
	for off, n := 0, 0; off < len(content); n++ {
		end := bytes.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content) - off
		}
		l := line{content[off : off+end], off, n}
		isSep, err := h.line(l)
		if err != nil {
			return nil, err
		}
		if isSep {
			sep = l
			break
		}
		off += end + 1
	}
	if sep.off < 0 {
		if err := h.end(); err != nil {
			return nil, err
		}
		return h.ps.JSON(), nil // no body
	}
	// After "---": a mapping of block scalars, or the verbatim content.
	start := sep.off + len(sep.text) + 1
	text := content[min(start, len(content)):]
	if first := firstNonBlankLine(text); first != nil && first[0] != ' ' && first[0] != '\t' {
		if _, v, ok := keyLine(bytes.TrimRight(first, " \t\r")); ok && blockHeader.Match(v) {
			bodyLines := splitLines(text)
			for k := range bodyLines {
				bodyLines[k].off += start
				bodyLines[k].n += sep.n + 1
			}
			for len(bodyLines[0].trimmed()) == 0 {
				bodyLines = bodyLines[1:]
			}
			return bodyMapping(bodyLines, h.ps, h.at)
		}
	}
	if h.ps.Has("content") {
		return nil, h.fail(sep, "the body after --- is the \"content\" parameter, but the header already gave \"content\"")
	}
	text = bytes.TrimSuffix(text, []byte("\n"))
	text = bytes.TrimSuffix(text, []byte("\r"))
	h.ps.AddKey(contentKey, text, false)
	return h.ps.JSON(), nil
}

var contentKey = []byte("content")

// hint sizes the arguments' buffers for a block's content: a header line
// "key: value" is its length and 3 bytes in JSON, and a header of short
// lines is mostly distinct keys (a block of a million keys builds its JSON
// and key index without growing them); a body is its length and some
// escapes. The header gets a sixteenth more, for the escapes of a long
// block scalar: without it the buffer was just short for a 300 KB value of
// code, whose quoting then made a second one (1.46 MB allocated for that
// call, 1.06 with it; a million keys peak at 2.83× the block, was 2.77). The header is taken to end at the first line that starts with
// "---", which is where it mostly ends.
func hint(ps *params.Params, content []byte) {
	hdr := content
	if bytes.HasPrefix(content, sepLine) {
		hdr = nil
	} else if i := bytes.Index(content, nlSep); i >= 0 {
		hdr = content[:i+1]
	}
	lines := bytes.Count(hdr, nl)
	body := len(content) - len(hdr)
	ps.Hint(2+len(hdr)+len(hdr)/16+3*lines+body+body/8, lines)
}

var sepLine, nlSep, nl = []byte("---"), []byte("\n---"), []byte("\n")

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
func blockScalar(head line, run lineRun, at func(line) syntax.Pos) ([]byte, *blockError) {
	// YAML reports a line less indented than the first as "did not find
	// expected key" at the scalar's start; say plainly which line it is.
	indent := -1
	if bytes.ContainsAny(head.text, "123456789") {
		indent = 0 // an explicit indentation indicator: YAML's own rules apply
	}
	for l := range run.lines() {
		if len(l.trimmed()) == 0 {
			continue
		}
		n := len(l.text) - len(bytes.TrimLeft(l.text, " "))
		if indent < 0 {
			indent = n
		} else if n < indent {
			return nil, &blockError{at(l), fmt.Sprintf("line %d: less indented than the first line of the block scalar above it", at(l).Line)}
		}
	}
	if v, ok := literalScalar(head, run); ok {
		return v, nil
	}
	ls := []line{head}
	for l := range run.lines() {
		ls = append(ls, l)
	}
	doc := joinLines(ls)
	var n yaml.Node
	if err := yaml.Unmarshal(doc, &n); err != nil {
		return nil, yamlError(err, ls, at)
	}
	if len(n.Content) == 0 || len(n.Content[0].Content) < 2 {
		return nil, &blockError{at(ls[0]), fmt.Sprintf("line %d: not a block scalar", at(ls[0]).Line)}
	}
	return []byte(n.Content[0].Content[1].Value), nil
}

// literalScalar decodes, without YAML, the block scalar models write most:
// "key: |", "|-" or "|+" (no indentation indicator, no comment), its lines
// indented by spaces, blank lines empty or no longer than the indentation,
// and printable text with no CR and none of the characters YAML 1.1 reads
// as line breaks. ok is false for anything else, which YAML decodes
// (TestLiteralScalarAgreesWithYAML holds the two to the same answers). A
// 300 KB value took YAML about 7 ms.
func literalScalar(head line, run lineRun) ([]byte, bool) {
	h := bytes.TrimRight(head.text, " ")
	var chomp byte
	switch {
	case bytes.HasSuffix(h, []byte("|")):
		h = h[:len(h)-1]
	case bytes.HasSuffix(h, []byte("|-")), bytes.HasSuffix(h, []byte("|+")):
		chomp = h[len(h)-1]
		h = h[:len(h)-2]
	default:
		return nil, false
	}
	if k := bytes.TrimRight(h, " "); len(k) == len(h) || !bytes.HasSuffix(k, []byte(":")) {
		return nil, false // "|" must stand after "key:" and a space
	}
	indent, last, size, i := -1, -1, 0, 0
	for l := range run.lines() {
		i++
		n := 0
		for n < len(l.text) && l.text[n] == ' ' {
			n++
		}
		if n == len(l.text) { // blank
			if indent >= 0 && n > indent || indent < 0 && n > 0 {
				return nil, false // spaces that may be content, or set the indentation
			}
			continue
		}
		if indent < 0 {
			indent = n
		}
		if n < indent || n == 0 || l.text[indent] == '\t' || !printable(l.text[n:]) {
			return nil, false // YAML takes a tab there for indentation, and refuses it
		}
		last = i // the number of lines up to the last that is not blank
		size += len(l.text) - indent + 1
	}
	if last < 0 {
		return nil, false
	}
	b := make([]byte, 0, size+run.count)
	i = 0
	for l := range run.lines() {
		if i++; i > last {
			break
		}
		if len(l.text) > indent {
			b = append(b, l.text[indent:]...)
		}
		b = append(b, '\n')
	}
	switch chomp {
	case '-':
		b = b[:len(b)-1]
	case '+':
		for range run.count - last {
			b = append(b, '\n')
		}
	}
	return b, true
}

// printable reports whether p is text YAML takes in a literal block scalar
// as it is: tabs and printable characters, none of them a line break to
// YAML 1.1 (NEL, LS, PS) or a byte order mark.
func printable(p []byte) bool {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF, r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
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
