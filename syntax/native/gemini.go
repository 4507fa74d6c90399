package native

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// geminiCall reads one functionCall part. A call whose arguments are
// streamed (Gemini 3, Vertex) starts with willContinue set, goes on with
// parts of partialArgs, each value at a jsonPath, and is closed by the first
// functionCall part without willContinue; it is emitted only then. The
// part's thoughtSignature (sig, raw), if any, goes with the call.
func (p *parser) geminiCall(fc fields, sig []byte, span syntax.Span) {
	cont := fc.boolean("willContinue")
	c := p.msg.gemini
	setSig := func(c *call) {
		if sig != nil {
			c.opaque = opaque("gemini", `{"thoughtSignature":`+string(sig)+`}`)
		}
	}
	if c == nil && !cont && !fc.has("partialArgs") { // a call given whole
		c = p.callFor("gemini:"+strconv.Itoa(p.msg.seen), fc.s("id"), fc.s("name"), span)
		setSig(c)
		p.setValue(c, fc.get("args"))
		p.completeCall(c, "")
		return
	}
	if name := fc.s("name"); c != nil && name != "" && c.name != "" && (name != c.name || cont) {
		// A new call (another name, or an opening part) while the last one
		// was never closed; a closing part may repeat the name.
		p.msg.gemini = nil
		p.completeCall(c, "")
		c = nil
	}
	if c == nil {
		c = p.callFor("gemini:"+strconv.Itoa(p.msg.seen), fc.s("id"), fc.s("name"), span)
		c.unclosed, c.tree = true, &gNode{kind: '{'}
		p.msg.gemini = c
	} else {
		c = p.callFor(c.key, fc.s("id"), fc.s("name"), span)
	}
	setSig(c)
	for _, raw := range fc.arr("partialArgs") {
		p.partialArg(c, p.object(raw))
	}
	if args := fc.get("args"); args != nil && jsonscan.Kind(args) != 'n' {
		p.setValue(c, args) // checked against the partialArgs at the close, if any
	}
	if !cont {
		p.msg.gemini = nil
		c.unclosed = false
		switch {
		case c.problem != "" || c.tooLong:
		case c.whole == nil:
			p.setWhole(c, c.tree.appendJSON(nil))
		case !c.tree.empty():
			// args given whole, then partialArgs: both are its arguments
			// (an empty object a placeholder), and must agree
			p.setWhole(c, c.tree.appendJSON(nil))
		}
		c.tree = nil
		p.completeCall(c, "")
	}
}

// partialArg sets one value of a streamed call's arguments: a string is
// appended to the string already at its path, any other value replaces it.
func (p *parser) partialArg(c *call, a fields) {
	if c.problem != "" || c.tooLong {
		return
	}
	path := a.s("jsonPath")
	var val []byte
	isStr := false
	switch {
	case a.has("stringValue"):
		s, ok := a.str("stringValue")
		if !ok {
			c.problem = "partialArgs stringValue at " + strconv.Quote(path) + " is not a string"
			return
		}
		val, isStr = []byte(s), true
	case a.has("numberValue"):
		val = jsonscan.Compact(a.get("numberValue"))
		if k := jsonscan.Kind(val); k != '-' && (k < '0' || k > '9') {
			c.problem = "partialArgs numberValue at " + strconv.Quote(path) + " is not a number"
			return
		}
	case a.has("boolValue"):
		val = jsonscan.Compact(a.get("boolValue"))
		if string(val) != "true" && string(val) != "false" {
			c.problem = "partialArgs boolValue at " + strconv.Quote(path) + " is not a boolean"
			return
		}
	case a.has("nullValue"):
		val = []byte("null")
	default:
		return // a path with no value yet
	}
	c.argBytes += len(path) + len(val)
	if c.argBytes > p.Options().BlockLimit() {
		c.tooLong, c.tree = true, nil
		return
	}
	segs, err := parseJSONPath(path)
	if err == "" {
		room := p.Options().BlockLimit() - c.argBytes
		err = c.tree.set(segs, val, isStr, &room)
		c.argBytes = p.Options().BlockLimit() - room
	}
	if err == errOver {
		c.tooLong, c.tree = true, nil
		return
	}
	if err != "" {
		c.problem = "partialArgs jsonPath " + strconv.Quote(path) + ": " + err
	}
}

// gNode is a value of arguments assembled from partialArgs: an object or
// array whose members come in the order they were first set, or a scalar.
type gNode struct {
	kind  byte // '{', '[', '"' (a string, appended to) or 0 (other JSON, in raw)
	keys  []string
	index map[string]int
	kids  []*gNode // members, or elements (nil: null)
	str   []byte
	raw   []byte
}

func (n *gNode) empty() bool { return n == nil || len(n.kids) == 0 }

// pathSeg is one step of a jsonPath: a member name or an array index.
type pathSeg struct {
	key string
	idx int // -1 for a member
}

// parseJSONPath parses the jsonPath forms Gemini writes: "$", then
// ".name", "[N]" or "['name']" steps.
func parseJSONPath(path string) ([]pathSeg, string) {
	if !strings.HasPrefix(path, "$") {
		return nil, "does not start with $"
	}
	rest := path[1:]
	var segs []pathSeg
	for rest != "" {
		switch rest[0] {
		case '.':
			i := 1
			for i < len(rest) && rest[i] != '.' && rest[i] != '[' {
				i++
			}
			if i == 1 {
				return nil, "an empty member name"
			}
			segs = append(segs, pathSeg{key: rest[1:i], idx: -1})
			rest = rest[i:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, "an unclosed ["
			}
			in := rest[1:end]
			if len(in) >= 2 && (in[0] == '\'' || in[0] == '"') && in[len(in)-1] == in[0] {
				segs = append(segs, pathSeg{key: in[1 : len(in)-1], idx: -1})
			} else {
				n, err := strconv.Atoi(in)
				if err != nil || n < 0 {
					return nil, "a bad index " + strconv.Quote(in)
				}
				segs = append(segs, pathSeg{idx: n})
			}
			rest = rest[end+1:]
		default:
			return nil, fmt.Sprintf("an unexpected %q", rest[0])
		}
	}
	if len(segs) == 0 {
		return nil, "names no member of the arguments"
	}
	return segs, ""
}

// errOver is set's error for arguments that would outgrow the limit.
const errOver = "over the limit"

// set puts val at the path below n, creating the objects and arrays on the
// way. Elements skipped by an index (null) are taken from room, 5 bytes
// each, so that a short path cannot make arguments beyond the limit.
func (n *gNode) set(segs []pathSeg, val []byte, isStr bool, room *int) string {
	for i, s := range segs {
		want := byte('{')
		if s.idx >= 0 {
			want = '['
		}
		if n.kind != want {
			return "steps into a " + n.kindName() + " as into " + (&gNode{kind: want}).kindName()
		}
		var slot **gNode
		if s.idx >= 0 {
			if gap := s.idx - len(n.kids); gap > 0 {
				if *room -= 5 * gap; *room < 0 {
					return errOver
				}
			}
			for len(n.kids) <= s.idx {
				n.kids = append(n.kids, nil)
			}
			slot = &n.kids[s.idx]
		} else {
			if n.index == nil {
				n.index = map[string]int{}
			}
			j, ok := n.index[s.key]
			if !ok {
				j = len(n.kids)
				n.index[s.key] = j
				n.keys = append(n.keys, s.key)
				n.kids = append(n.kids, nil)
			}
			slot = &n.kids[j]
		}
		if i == len(segs)-1 {
			switch {
			case isStr && *slot != nil && (*slot).kind == '"':
				(*slot).str = append((*slot).str, val...)
			case *slot != nil && ((*slot).kind == '{' || (*slot).kind == '['):
				return "sets a value where an " + (*slot).kindName() + " is"
			case isStr:
				*slot = &gNode{kind: '"', str: val}
			default:
				*slot = &gNode{raw: val}
			}
			return ""
		}
		if *slot == nil {
			next := byte('{')
			if segs[i+1].idx >= 0 {
				next = '['
			}
			*slot = &gNode{kind: next}
		}
		n = *slot
	}
	return ""
}

func (n *gNode) kindName() string {
	switch n.kind {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	}
	return "value"
}

// appendJSON appends n as compact JSON.
func (n *gNode) appendJSON(b []byte) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	switch n.kind {
	case '{':
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = syntax.AppendQuote(b, k)
			b = append(b, ':')
			b = n.kids[i].appendJSON(b)
		}
		return append(b, '}')
	case '[':
		b = append(b, '[')
		for i, k := range n.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = k.appendJSON(b)
		}
		return append(b, ']')
	case '"':
		return syntax.AppendQuote(b, string(n.str))
	}
	return append(b, n.raw...)
}
