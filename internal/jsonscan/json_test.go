package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// scanAll feeds p to a fresh scanner in chunks of n bytes and reports whether
// it found one complete valid value followed only by white space.
func scanAll(p []byte, n int) (valid bool, s *JSON) {
	s = NewJSON(10000)
	used := 0
	for used < len(p) && !s.Done() && s.Err() == nil {
		end := min(used+n, len(p))
		used += s.Scan(p[used:end])
		if s.Err() != nil {
			break
		}
		if used < end && !s.Done() {
			return false, s // stopped early without a reason
		}
	}
	if !s.Done() && s.Err() == nil {
		s.End()
	}
	if s.Err() != nil || !s.Done() {
		return false, s
	}
	return len(TrimSpace(p[used:])) == 0, s
}

var jsonCases = []string{
	`{}`, `[]`, `0`, `-0`, `1.5e+10`, `-12.25E-3`, `"x"`, `true`, `false`, `null`,
	` [1, 2 , {"a" : [true, null, "\u00e9\n\\\""]}] `,
	`{"a":1,"b":{"c":[]}}`, `"\ud83d\ude00"`,
	``, ` `, `{`, `[1,]`, `{"a"}`, `{"a":}`, `{,}`, `[1 2]`, `01`, `1.`, `.5`, `1e`, `-`, `+1`,
	`tru`, `nul`, `"abc`, `"\x"`, `"\u12g4"`, "\"a\tb\"", `{"a":1}}`, `[]]`, `{'a':1}`, `[1,2]x`,
	`{"a":1,}`, `[nan]`, `"` + strings.Repeat(`\\`, 9) + `"`,
}

func TestJSONMatchesEncodingJSON(t *testing.T) {
	for _, c := range jsonCases {
		want := json.Valid([]byte(c))
		for _, n := range []int{1, 2, 3, 1 << 20} {
			if got, _ := scanAll([]byte(c), n); got != want {
				t.Errorf("%q in %d-byte chunks: valid = %v, encoding/json says %v", c, n, got, want)
			}
		}
	}
}

func TestJSONStopsAfterValue(t *testing.T) {
	for _, c := range []struct {
		in   string
		used int
	}{
		{`[1,2]</execute>`, 5},
		{`{"a":"</execute>"} rest`, 18},
		{`  "x"y`, 5},
		{`12 `, 2},
		{`[1] `, 3},
	} {
		s := NewJSON(10)
		n := s.Scan([]byte(c.in))
		if !s.Done() || n != c.used {
			t.Errorf("%q: used %d done %v, want used %d done", c.in, n, s.Done(), c.used)
		}
	}
}

func TestJSONErrorOffset(t *testing.T) {
	s := NewJSON(10)
	n := s.Scan([]byte(`[1, x]`))
	if s.Err() == nil || n != 4 || s.Err().Offset != 4 {
		t.Fatalf("used %d err %v, want the error at offset 4", n, s.Err())
	}
	if !strings.Contains(s.Err().Msg, "'x'") {
		t.Errorf("message %q does not name the character", s.Err().Msg)
	}
}

func TestJSONDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", 1_000_000)
	s := NewJSON(512)
	s.Scan([]byte(deep))
	if s.Err() == nil || !strings.Contains(s.Err().Msg, "depth") {
		t.Fatalf("a million '[' gave %v, want a depth error", s.Err())
	}
	if cap(s.stack) > 1024 {
		t.Errorf("stack grew to %d for a depth limit of 512", cap(s.stack))
	}
	if ok, _ := scanAll([]byte(strings.Repeat("[", 512)+strings.Repeat("]", 512)), 7); ok {
		// depth 512 with limit 10000 is fine; check the limit is inclusive at 512 too
		s := NewJSON(512)
		s.Scan([]byte(strings.Repeat("[", 512) + strings.Repeat("]", 512)))
		if !s.Done() {
			t.Errorf("512 levels with a limit of 512: %v", s.Err())
		}
	} else {
		t.Error("512 levels rejected with a limit of 10000")
	}
}

func FuzzJSON(f *testing.F) {
	for _, c := range jsonCases {
		f.Add([]byte(c), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, n uint8) {
		want := json.Valid(in)
		got, _ := scanAll(in, int(n%16)+1)
		if got != want {
			t.Fatalf("%q: scanner says valid=%v, encoding/json says %v", in, got, want)
		}
	})
}

func TestWalk(t *testing.T) {
	arr := []byte(` [ {"name" : "a\"b", "args": {"x": [1, "]"]}} , 2, "s,}" ] `)
	var elems []string
	Elements(arr, func(e []byte, start int) bool {
		if string(arr[start:start+len(e)]) != string(e) {
			t.Errorf("element %q not at %d", e, start)
		}
		elems = append(elems, string(e))
		return true
	})
	want := []string{`{"name" : "a\"b", "args": {"x": [1, "]"]}}`, `2`, `"s,}"`}
	if strings.Join(elems, "|") != strings.Join(want, "|") {
		t.Fatalf("elements %q, want %q", elems, want)
	}
	var keys, vals []string
	Members([]byte(want[0]), func(k string, v []byte) bool {
		keys, vals = append(keys, k), append(vals, string(v))
		return true
	})
	if strings.Join(keys, ",") != "name,args" || vals[0] != `"a\"b"` || vals[1] != `{"x": [1, "]"]}` {
		t.Fatalf("members %q %q", keys, vals)
	}
	if s, ok := Unquote([]byte(`"a\"b\u00e9"`)); !ok || s != `a"bé` {
		t.Errorf("Unquote = %q, %v", s, ok)
	}
	if got := string(Compact([]byte(`{ "a" : "x y" , "b" : [ 1 ] }`))); got != `{"a":"x y","b":[1]}` {
		t.Errorf("Compact = %s", got)
	}
}

// Unquote must decode exactly as encoding/json does.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9\n\t\"\\\/"`, `"\ud83d\ude00"`, `"\ud83d x"`, `"\udc00"`, "\"\xff\xfe\"", `"é ✓"`, `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want string
		if json.Unmarshal(raw, &want) != nil || Kind(raw) != '"' || len(TrimSpace(raw)) != len(raw) {
			return
		}
		got, ok := Unquote(raw)
		if !ok || got != want {
			t.Fatalf("Unquote(%q) = %q, %v; encoding/json gives %q", raw, got, ok, want)
		}
	})
}
