package jsoncall

import "github.com/toolparse/toolparse/internal/jsonscan"

// Args reads a call's arguments as the model formats write them
// (docs/formats.md): absent, null, or a string of nothing but white space
// mean {}; an object is compacted; a JSON string that holds exactly one
// object is decoded once and compacted. raw has been validated (it is one
// JSON value, or empty). When raw is none of these, ok is false and kind
// says what it is (jsonscan.Kind: '"' for a string that holds no object),
// for the caller to word its error.
func Args(raw []byte, depth int) (args []byte, kind byte, ok bool) {
	switch kind = jsonscan.Kind(raw); kind {
	case 0, 'n':
		return []byte("{}"), kind, true
	case '{':
		return jsonscan.Compact(raw), kind, true
	case '"':
		s, _ := jsonscan.Unquote(jsonscan.TrimSpace(raw))
		inner, whole := jsonscan.Whole([]byte(s), depth)
		switch {
		case len(inner) == 0:
			return []byte("{}"), kind, true
		case whole && inner[0] == '{':
			return jsonscan.Compact(inner), kind, true
		}
	}
	return nil, kind, false
}
