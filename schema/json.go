package schema

import (
	"encoding/json"
	"strconv"

	"github.com/toolparse/toolparse/syntax/scan"
)

// This file is the one place the package names the JSON walkers it shares
// with the parsers; everything else goes through these.
var (
	kindOf     = scan.Kind       // the first byte of a raw value: '{', '[', '"', 't', 'f', 'n', a digit or '-'
	kindName   = scan.KindName   // "an object", "a string"…
	members    = scan.Members    // the members of a valid raw object, in order
	membersRaw = scan.MembersRaw // the same, each key as bytes (no allocation when it has no escape)
	elements   = scan.Elements   // the elements of a valid raw array, in order
	unquote    = scan.Unquote    // a raw JSON string's text
	compact    = scan.Compact    // a raw value without insignificant white space
)

// checkJSON reports whether raw is exactly one JSON value (white space
// around it aside), and whether it nests deeper than maxDepth arrays and
// objects. When not ok, msg says why.
func checkJSON(raw []byte, maxDepth int) (ok, deep bool, msg string) {
	js := scan.NewJSON(maxDepth)
	n := js.Scan(raw)
	js.End()
	if err := js.Err(); err != nil {
		return false, err.Deep, err.Msg
	}
	if scan.SkipSpace(raw, n) != len(raw) {
		return false, false, "text after the value"
	}
	return true, false, ""
}

// decode turns valid raw JSON into the values the validation engine reads:
// map[string]any, []any, json.Number, string, bool and nil. A key given twice
// in an object counts the first time, as the parsers read it.
func decode(raw []byte) any {
	switch kindOf(raw) {
	case '{':
		m := map[string]any{}
		members(raw, func(k string, v []byte) bool {
			if _, dup := m[k]; !dup {
				m[k] = decode(v)
			}
			return true
		})
		return m
	case '[':
		a := []any{}
		elements(raw, func(e []byte, _ int) bool {
			a = append(a, decode(e))
			return true
		})
		return a
	case '"':
		s, _ := unquote(raw)
		return s
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	return json.Number(string(trimSpace(raw)))
}

func trimSpace(b []byte) []byte { return scan.TrimSpace(b) }

// locate finds the value at an instance location (object keys and array
// indexes, as the engine reports them) in raw. It returns the value, its
// offset in raw, and for each step whether it indexed an array. When the
// location does not exist (a missing property), found is false and offset is
// where the deepest existing container ends.
func locate(raw []byte, loc []string) (val []byte, offset int, arrays []bool, found bool) {
	val, offset = raw, scan.SkipSpace(raw, 0)
	arrays = make([]bool, len(loc))
	for i, tok := range loc {
		var next []byte
		nextOff := -1
		switch kindOf(val) {
		case '{':
			base := offset
			members(val, func(k string, v []byte) bool {
				if k == tok {
					next = v
					nextOff = base + subOffset(val, v)
					return false
				}
				return true
			})
		case '[':
			arrays[i] = true
			want, err := strconv.Atoi(tok)
			if err == nil {
				n := 0
				elements(val, func(e []byte, start int) bool {
					if n == want {
						next, nextOff = e, offset+start
						return false
					}
					n++
					return true
				})
			}
		}
		if next == nil {
			return nil, offset + len(val), arrays, false
		}
		val, offset = next, nextOff
	}
	return val, offset, arrays, true
}

// subOffset is the index of sub within b, sub being a slice of b (as the
// walkers hand out): both end at the same place in memory.
func subOffset(b, sub []byte) int { return cap(b) - cap(sub) }
