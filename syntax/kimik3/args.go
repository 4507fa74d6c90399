package kimik3

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax/scan"
)

// readArgs reads the body of a call: argument tags, white space between
// them, or one json tag holding the whole arguments object. It returns the
// arguments as a JSON object, or a problem and its offset in body.
func readArgs(body []byte, depth int) (args []byte, at int, problem string) {
	i := skipSpace(body, 0)
	if n, attrs := tagAt(body[i:], jsonTag, true); n > 0 {
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
		n, attrs := tagAt(body[i:], argTag, true)
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

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// tagAt matches an opening tag at the start of data: prefix (open and a
// name), then attributes key="value" each after a space, then sep. It
// returns the tag's length and its attributes, XML-unescaped; 0 when data
// starts with no such tag; -1 when more input is needed.
func tagAt(data []byte, prefix string, eof bool) (int, map[string]string) {
	full, partial := scan.MatchPrefix(data, prefix)
	if !full {
		if partial && !eof {
			return -1, nil
		}
		return 0, nil
	}
	end := bytes.Index(data[len(prefix):min(len(data), maxTag)], []byte(sep))
	if end < 0 {
		if len(data) < maxTag && !eof {
			return -1, nil
		}
		return 0, nil
	}
	attrs, ok := readAttrs(data[len(prefix) : len(prefix)+end])
	if !ok {
		return 0, nil
	}
	return len(prefix) + end + len(sep), attrs
}

// readAttrs reads ` key="value"` pairs, and nothing else.
func readAttrs(b []byte) (map[string]string, bool) {
	attrs := map[string]string{}
	for len(b) > 0 {
		if b[0] != ' ' {
			return nil, false
		}
		b = b[1:]
		eq := bytes.Index(b, []byte(`="`))
		if eq <= 0 || bytes.ContainsAny(b[:eq], ` "<`) {
			return nil, false
		}
		key := string(b[:eq])
		b = b[eq+2:]
		q := bytes.IndexByte(b, '"')
		if q < 0 {
			return nil, false
		}
		if _, dup := attrs[key]; dup {
			return nil, false
		}
		attrs[key] = unescape(b[:q])
		b = b[q+1:]
	}
	return attrs, true
}

var entities = strings.NewReplacer("&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&")

// unescape decodes the entities the template writes in attributes (and
// the other three XML names).
func unescape(b []byte) string {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	return entities.Replace(string(b))
}
