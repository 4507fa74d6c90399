package schema

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolparse/toolparse/internal/jsonscan"
)

// This file is the one place the package names the JSON walkers it shares
// with the parsers; everything else goes through these.
var (
	kindOf     = jsonscan.Kind       // the first byte of a raw value: '{', '[', '"', 't', 'f', 'n', a digit or '-'
	kindName   = jsonscan.KindName   // "an object", "a string"…
	members    = jsonscan.Members    // the members of a valid raw object, in order
	membersRaw = jsonscan.MembersRaw // the same, each key as bytes (no allocation when it has no escape)
	elements   = jsonscan.Elements   // the elements of a valid raw array, in order
	unquote    = jsonscan.Unquote    // a raw JSON string's text
	compact    = jsonscan.Compact    // a raw value without insignificant white space
	jsonEqual  = jsonscan.Equal      // two valid raw values equal as JSON Schema compares them: numbers by value, objects whatever the order of their members
)

// checkJSON reports whether raw is exactly one JSON value (white space
// around it aside), and whether it nests deeper than maxDepth arrays and
// objects. When not ok, msg says why.
func checkJSON(raw []byte, maxDepth int) (ok, deep bool, msg string) {
	js := jsonscan.NewJSON(maxDepth)
	n := js.Scan(raw)
	js.End()
	if err := js.Err(); err != nil {
		return false, err.Deep, err.Msg()
	}
	if jsonscan.SkipSpace(raw, n) != len(raw) {
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

func trimSpace(b []byte) []byte { return jsonscan.TrimSpace(b) }

// maxExponent bounds the exponent of a number the package checks: exact
// arithmetic on 1e999999 takes tens of milliseconds, and no tool argument
// needs more than float64's ±308.
const maxExponent = 1000

// hugeExponent reports whether valid raw JSON holds a number whose exponent
// is beyond ±maxExponent. It looks only at the bytes outside strings.
func hugeExponent(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			i = jsonscan.SkipValue(raw, i) - 1
		case 'e', 'E':
			if exponentOver(raw[i+1:]) {
				return true
			}
		}
	}
	return false
}

// exponentOver reports whether the digits at the start of b (after an
// optional sign) make a number above maxExponent.
func exponentOver(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		if n = n*10 + int(c-'0'); n > maxExponent {
			return true
		}
	}
	return false
}

// hugeNumbers reports, as problems, the numbers in valid raw JSON whose
// exponent is beyond ±maxExponent.
func hugeNumbers(raw []byte, path string, out *[]Problem) {
	switch kindOf(raw) {
	case '{':
		members(raw, func(k string, v []byte) bool {
			hugeNumbers(v, join(path, k), out)
			return true
		})
	case '[':
		i := 0
		elements(raw, func(e []byte, _ int) bool {
			hugeNumbers(e, path+"["+strconv.Itoa(i)+"]", out)
			i++
			return true
		})
	case '"', 't', 'f', 'n':
	default:
		if hugeExponent(raw) {
			*out = append(*out, Problem{path, fmt.Sprintf("expected a number with an exponent of at most %d, got %s", maxExponent, clip(raw))})
		}
	}
}

// locate finds the value at an instance location (object keys and array
// indexes, as the engine reports them) in raw. It returns the value, its
// offset in raw, and for each step whether it indexed an array. When the
// location does not exist (a missing property), found is false and offset is
// where the deepest existing container ends.
func locate(raw []byte, loc []string) (val []byte, offset int, arrays []bool, found bool) {
	val, offset = raw, jsonscan.SkipSpace(raw, 0)
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
