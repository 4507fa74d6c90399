package native_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// A place in a golden input where a JSON value lies: [start, end), and the
// span of its member's key (keyStart < 0 for an array element).
type valueAt struct {
	start, end       int
	keyStart, keyEnd int
	kind             byte
}

// documents finds the JSON documents of a golden input: each line (after an
// SSE "data:") that is a JSON value, or the whole input when it is one.
func documents(in []byte) [][]byte {
	if t := bytes.TrimSpace(in); json.Valid(t) {
		return [][]byte{t}
	}
	var docs [][]byte
	rest := in
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimPrefix(bytes.TrimSpace(line), []byte("data:"))
		if line = bytes.TrimSpace(line); len(line) > 0 && (line[0] == '{' || line[0] == '[') && json.Valid(line) {
			docs = append(docs, line)
		}
	}
	return docs
}

// values lists every value inside doc (not doc itself), as offsets in in,
// of which doc is a part.
func values(in, doc []byte) []valueAt {
	var out []valueAt
	off := func(b []byte) int { return cap(in) - cap(b) }
	var walk func(v []byte)
	walk = func(v []byte) {
		switch jsonscan.Kind(v) {
		case '{':
			jsonscan.MembersRaw(v, func(k, val []byte) bool {
				ks, ke := -1, -1
				if len(k) > 0 && cap(k) <= cap(in) && off(k) >= off(v) && off(k) < off(v)+len(v) {
					ks, ke = off(k), off(k)+len(k)
				}
				out = append(out, valueAt{off(val), off(val) + len(val), ks, ke, jsonscan.Kind(val)})
				walk(val)
				return true
			})
		case '[':
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				out = append(out, valueAt{off(e), off(e) + len(e), -1, -1, jsonscan.Kind(e)})
				walk(e)
				return true
			})
		}
	}
	walk(doc)
	return out
}

// polymorphic lists the members that may be a string or an array of parts.
var polymorphic = map[string]bool{"content": true, "output": true, "thinking": true}

func kindClass(k byte) byte {
	switch k {
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return '0'
	case 'f':
		return 't'
	}
	return k
}

func splice(in []byte, start, end int, with string) []byte {
	out := make([]byte, 0, len(in)+len(with))
	out = append(out, in[:start]...)
	out = append(out, with...)
	return append(out, in[end:]...)
}

func eventsOf(in []byte, opts syntax.Options) []byte {
	return syntaxtest.EncodeJSONL(syntax.Parse(native.Syntax, in, opts))
}

// shape is the types of the events in, in order: a value that is payload
// (arguments, a result's content, text) may change with the mutation, the
// events that carry it may not.
func shape(in []byte, opts syntax.Options) string {
	var b []byte
	for _, e := range syntax.Parse(native.Syntax, in, opts) {
		b = append(b, e.Type...)
		b = append(b, ' ')
	}
	return string(b)
}

// TestMutationSweep changes the type of one value of one golden document at
// a time (string, number, object, array, null) and checks that the parser
// never silently reads less: each variant gives an error event, or the
// events of the golden (a field the parser does not read), or — for null,
// read as absent — the events of the document without the member.
func TestMutationSweep(t *testing.T) {
	gs, err := syntaxtest.ReadGoldens(goldens)
	if err != nil {
		t.Fatal(err)
	}
	repl := []string{`"x"`, `7`, `{}`, `[]`, `null`}
	variants, bad := 0, 0
	for _, g := range gs {
		opts := g.Options
		base := shape(g.Input, opts)
		for _, doc := range documents(g.Input) {
			for _, v := range values(g.Input, doc) {
				for _, r := range repl {
					if kindClass(r[0]) == kindClass(v.kind) || v.kind == 'n' {
						continue // (a null member is absent: giving it a value changes no type read)
					}
					if v.keyStart >= 0 && string(g.Input[v.keyStart:v.keyEnd]) == "arguments" && r == `{}` {
						continue // arguments as an object: a quirk read as such
					}
					if v.keyStart >= 0 && polymorphic[string(g.Input[v.keyStart:v.keyEnd])] && (r == `"x"` || r == `[]`) && (v.kind == '"' || v.kind == '[') {
						continue // a string or an array of parts: both are read
					}
					variants++
					in := splice(g.Input, v.start, v.end, r)
					got := shape(in, opts)
					if bytes.Contains([]byte(got), []byte("error ")) || got == base {
						continue
					}
					if r == "null" && v.keyStart >= 0 {
						// Read as absent: the member renamed away.
						absent := splice(g.Input, v.keyStart, v.keyEnd, "zz_absent")
						if got == shape(absent, opts) {
							continue
						}
					}
					bad++
					if bad <= 40 {
						key := ""
						if v.keyStart >= 0 {
							key = string(g.Input[v.keyStart:v.keyEnd])
						}
						t.Errorf("%s: %q (%s) as %s: no error, and the events differ:\n%s\nwant:\n%s", g.Path, key, clipped(g.Input[v.start:v.end]), r, eventsOf(in, opts), eventsOf(g.Input, opts))
					}
				}
			}
		}
	}
	t.Logf("%d variants, %d read silently otherwise", variants, bad)
	if bad > 0 {
		t.Errorf("%d of %d variants gave no error and other events", bad, variants)
	}
}

func clipped(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
