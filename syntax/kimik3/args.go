package kimik3

import (
	"bytes"
	"strconv"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/internal/params"
)

// readArgs reads the body of a call: argument tags, white space between
// them, or one json tag holding the whole arguments object. It returns the
// arguments as a JSON object, or a problem and its offset in body.
func readArgs(body []byte, depth int) (args []byte, at int, problem string) {
	i := skipSpace(body, 0)
	if n, attrs := tagAt(body[i:], jsonTag); n > 0 {
		if t := attrs["type"]; t != "object" {
			return nil, i, "a json tag of type " + strconv.Quote(t) + ": the whole arguments are an object"
		}
		end := bytes.Index(body[i+n:], []byte(jsonEnd))
		if end < 0 {
			return nil, i, "no " + jsonEnd
		}
		v := jsonscan.TrimSpace(body[i+n : i+n+end])
		if _, ok := jsonscan.Whole(v, depth); !ok || jsonscan.Kind(v) != '{' {
			return nil, i + n, "the json tag holds no JSON object"
		}
		if rest := skipSpace(body, i+n+end+len(jsonEnd)); rest != len(body) {
			return nil, rest, "text after the json tag"
		}
		return jsonscan.Compact(v), 0, ""
	}
	out := []byte{'{'}
	seen := map[string]bool{}
	for {
		i = skipSpace(body, i)
		if i == len(body) {
			return append(out, '}'), 0, ""
		}
		n, attrs := tagAt(body[i:], argTag)
		if n <= 0 {
			return nil, i, "text between arguments: only white space and " + argTag + " key=… type=…" + sep + " tags may stand there"
		}
		key, typ := attrs["key"], attrs["type"]
		_, hasKey := attrs["key"]
		if !hasKey {
			return nil, i, "an argument tag with no key"
		}
		if seen[key] {
			return nil, i, "the argument " + strconv.Quote(key) + " given twice"
		}
		seen[key] = true
		end := bytes.Index(body[i+n:], []byte(argEnd))
		if end < 0 {
			return nil, i, "no " + argEnd + " for the argument " + strconv.Quote(key)
		}
		raw := body[i+n : i+n+end]
		v, ok := typed(raw, typ, depth-1)
		if !ok {
			return nil, i + n, "the argument " + strconv.Quote(key) + " of type " + strconv.Quote(typ) + " holds " + strconv.Quote(short(raw))
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = params.Quote(out, []byte(key))
		out = append(out, ':')
		out = append(out, v...)
		i += n + end + len(argEnd)
	}
}

// typed reads an argument's value by its type: a string is its text as
// written; number, boolean, null, object and array are the JSON text of
// that kind (an absent type is a string).
func typed(raw []byte, typ string, depth int) ([]byte, bool) {
	if typ == "string" || typ == "" {
		return params.Quote(nil, raw), true
	}
	v := jsonscan.TrimSpace(raw)
	if _, ok := jsonscan.Whole(v, max(depth, 1)); !ok {
		return nil, false
	}
	k := jsonscan.Kind(v)
	switch typ {
	case "number", "integer":
		ok := (k == '-' || k >= '0' && k <= '9') && finite(v)
		return jsonscan.Compact(v), ok
	case "boolean":
		return v, k == 't' || k == 'f'
	case "null":
		return v, k == 'n'
	case "object":
		return jsonscan.Compact(v), k == '{'
	case "array":
		return jsonscan.Compact(v), k == '['
	}
	return nil, false
}

// finite reports whether the JSON number v is one Go reads as a float64.
func finite(v []byte) bool {
	f, err := strconv.ParseFloat(string(v), 64)
	return err == nil && f == f
}

func short(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

func skipSpace(b []byte, i int) int { return i + markup.Spaces(b[i:]) }

// tagAt reads a tag of prefix at the start of b: its length (0 when b
// starts with no such tag) and its attributes, XML-unescaped.
func tagAt(b []byte, prefix string) (int, map[string]string) {
	n, raw := invokexml.TagAt(b, prefix, sep, true)
	if n <= 0 {
		return 0, nil
	}
	attrs := make(map[string]string, len(raw))
	for k, v := range raw {
		attrs[k] = invokexml.Unescape(v)
	}
	return n, attrs
}
