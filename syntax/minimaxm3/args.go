package minimaxm3

import (
	"bytes"
	"strconv"

	"github.com/toolparse/toolparse/internal/params"
)

// The arguments of an invoke: a sequence of elements ns<KEY>…ns</KEY>,
// white space between them. An element's content is raw text, or, when it
// starts (after white space) with an element, elements: an object of them,
// or an array when every one is an <item>. A key given twice is an array
// of its values. Leaves are strings: a tool schema types them.

const itemTag = "item"

// readArgs reads the body of an invoke into a JSON object. On a problem it
// returns its message and its offset in body.
func readArgs(body []byte, depth int) (args []byte, at int, problem string) {
	r := reader{b: body, depth: depth}
	out, end := r.members(0, "", nil, 1)
	if r.problem != "" {
		return nil, r.at, r.problem
	}
	if end != len(body) {
		return nil, end, "text after the parameters"
	}
	return out, 0, ""
}

type reader struct {
	b       []byte
	depth   int
	problem string
	at      int
}

func (r *reader) fail(at int, msg string) {
	if r.problem == "" {
		r.problem, r.at = msg, at
	}
}

// member is an element read: its key and its value's JSON.
type member struct {
	key   string
	value []byte
}

// members reads elements from i until the closer of the element named
// parent (or, for the invoke's body, parent "", the end of b). It appends
// the JSON of the object (or array, when every element is an <item> and
// asArray is allowed) to dst and returns it and where it stopped (the
// start of parent's closer).
func (r *reader) members(i int, parent string, dst []byte, level int) ([]byte, int) {
	if level > r.depth {
		r.fail(i, "values nested deeper than the limit of "+strconv.Itoa(r.depth))
		return dst, i
	}
	var ms []member
	closer := ns + "</" + parent + ">"
	for {
		i = skipSpace(r.b, i)
		if i == len(r.b) {
			if parent != "" {
				r.fail(i, "no "+closer)
			}
			break
		}
		if parent != "" && bytes.HasPrefix(r.b[i:], []byte(closer)) {
			break
		}
		key, n := openTag(r.b[i:])
		if n == 0 {
			if bytes.HasPrefix(r.b[i:], []byte(ns+"</")) {
				r.fail(i, "a closing tag where "+closerOr(parent)+" was expected")
			} else {
				r.fail(i, "text between parameters: only white space and "+ns+"<KEY> tags may stand there")
			}
			return dst, i
		}
		v, end := r.value(i+n, key, level)
		if r.problem != "" {
			return dst, end
		}
		ms = append(ms, member{key, v})
		i = end + len(ns) + len("</"+key+">")
	}
	return appendMembers(dst, ms, parent != ""), i
}

func closerOr(parent string) string {
	if parent == "" {
		return "a parameter"
	}
	return ns + "</" + parent + ">"
}

// value reads an element's content from i, the element named key; it
// returns the value's JSON and where the element's closer starts.
func (r *reader) value(i int, key string, level int) ([]byte, int) {
	closer := []byte(ns + "</" + key + ">")
	j := skipSpace(r.b, i)
	if tag, n := openTag(r.b[j:]); n > 0 && tag != "" {
		return r.members(j, key, nil, level+1)
	}
	k := bytes.Index(r.b[i:], closer)
	if k < 0 {
		r.fail(i, "no "+string(closer))
		return nil, len(r.b)
	}
	return params.Quote(nil, r.b[i:i+k]), i + k
}

// openTag matches ns<KEY> at the start of b: KEY is 1 or more bytes, none
// of them white space, '<', '>' or '/'.
func openTag(b []byte) (key string, n int) {
	if !bytes.HasPrefix(b, []byte(ns+"<")) {
		return "", 0
	}
	s := len(ns) + 1
	for i := s; i < len(b); i++ {
		switch c := b[i]; c {
		case '>':
			if i == s {
				return "", 0
			}
			return string(b[s:i]), i + 1
		case '<', '/', ' ', '\t', '\r', '\n':
			return "", 0
		}
	}
	return "", 0
}

// appendMembers writes ms as a JSON object — a key given twice an array
// of its values — or, nested and every key item, as an array.
func appendMembers(dst []byte, ms []member, nested bool) []byte {
	if nested && len(ms) > 0 {
		all := true
		for _, m := range ms {
			all = all && m.key == itemTag
		}
		if all {
			dst = append(dst, '[')
			for i, m := range ms {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, m.value...)
			}
			return append(dst, ']')
		}
	}
	dst = append(dst, '{')
	// Keys in the order they first came, each with its values: a key
	// given twice is an array.
	var keys []string
	vals := make(map[string][][]byte, len(ms))
	for _, m := range ms {
		if _, ok := vals[m.key]; !ok {
			keys = append(keys, m.key)
		}
		vals[m.key] = append(vals[m.key], m.value)
	}
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = params.Quote(dst, []byte(k))
		dst = append(dst, ':')
		vs := vals[k]
		if len(vs) == 1 {
			dst = append(dst, vs[0]...)
			continue
		}
		dst = append(dst, '[')
		for j, v := range vs {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, v...)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}
