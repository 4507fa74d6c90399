package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/jsontest"
	"github.com/toolparse/toolparse/syntax"
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
	if !strings.Contains(s.Err().Msg(), "'x'") {
		t.Errorf("message %q does not name the character", s.Err().Msg())
	}
}

func TestJSONDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", 1_000_000)
	s := NewJSON(512)
	s.Scan([]byte(deep))
	if s.Err() == nil || !strings.Contains(s.Err().Msg(), "depth") {
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
	for _, s := range []string{`"a"`, `"\u00e9\n\t\"\\\/"`, `"\ud83d\ude00"`, `"\ud83d x"`, `"\udc00"`, "\"\xff\xfe\"", `"é ✓"`, `"\u0000"`,
		// Runs of eight and more bytes (read a word at a time) before and after escapes and text beyond ASCII.
		`"abcdefghijklmnop\"qrstuvwxyz0123456789\\ABCDEFGHIJ"`, `"0123456789abcdefé0123456789abcdef\n01234567"`, "\"0123456789abcdef\xff0123456789abcdef\\t\""} {
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
		if b, ok := AppendUnquote([]byte("x"), raw); !ok || string(b) != "x"+want {
			t.Fatalf("AppendUnquote(x, %q) = %q, %v; want x%q", raw, b, ok, want)
		}
	})
}

// AppendUnquote leaves dst as it was when raw is not a string, or holds a
// broken escape (validated JSON never does).
func TestAppendUnquoteNotAString(t *testing.T) {
	for _, raw := range []string{``, `"`, `1`, `null`, `"\u12"`, `"\uzzzz"`} {
		if b, ok := AppendUnquote([]byte("x"), []byte(raw)); ok || string(b) != "x" {
			t.Errorf("AppendUnquote(x, %s) = %q, %v; want x, false", raw, b, ok)
		}
	}
}

func TestZeroJSONHasTheDefaultDepth(t *testing.T) {
	ok := strings.Repeat("[", syntax.DefaultMaxDepth) + strings.Repeat("]", syntax.DefaultMaxDepth)
	var s JSON
	if s.Scan([]byte(ok)); !s.Done() {
		t.Fatalf("%d levels in a zero JSON: %v", syntax.DefaultMaxDepth, s.Err())
	}
	s = JSON{}
	s.Scan([]byte("[" + ok + "]"))
	if s.Err() == nil || !s.Err().Deep {
		t.Fatalf("%d levels in a zero JSON: %v, want a depth error", syntax.DefaultMaxDepth+1, s.Err())
	}
	s.Reset(0)
	if s.Scan([]byte(ok)); !s.Done() {
		t.Fatalf("Reset(0): %v", s.Err())
	}
}

// scanCompactChunks runs ScanCompact over the pieces as a syntax does, and
// says whether the value was valid and complete with only white space after.
func scanCompactChunks(pieces [][]byte) (out []byte, valid bool) {
	var s JSON
	rest := false // non-space bytes after the value
	for _, p := range pieces {
		var n int
		out, n = s.ScanCompact(out, p)
		if s.Err() != nil {
			return out, false
		}
		rest = rest || len(TrimSpace(p[n:])) > 0
	}
	s.End()
	return out, s.Err() == nil && !rest
}

var compactCases = append(jsonCases,
	" { \"a\" : [ 1 , 2.5e-3 , \"x y\\\" \\\\\" ] ,\n\t\"b\" : { } , \"c\" : [ ] , \"d\" : -0 } ",
	"\"\\u00e9 \\t\"", " 12 ", "[\"\xe2\x9c\x93 \"]", "[1e5 ,0 ,-1.0E+2]")

func TestScanCompact(t *testing.T) {
	for _, c := range compactCases {
		for seed := range uint64(8) {
			checkCompact(t, []byte(c), seed)
		}
	}
}

func checkCompact(t *testing.T, in []byte, seed uint64) {
	got, valid := scanCompactChunks(jsontest.RandomChunks(in, seed))
	if valid != json.Valid(in) {
		t.Fatalf("%q (chunking %d): valid = %v, encoding/json says %v", in, seed, valid, !valid)
	}
	if !valid {
		return
	}
	var want bytes.Buffer
	if err := json.Compact(&want, in); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("%q (chunking %d): compacted to %q, encoding/json gives %q", in, seed, got, want.Bytes())
	}
}

// FuzzCompact: ScanCompact, at any chunking, gives encoding/json.Compact's
// text for every valid value, and agrees with encoding/json on validity.
func FuzzCompact(f *testing.F) {
	for i, c := range compactCases {
		f.Add([]byte(c), uint64(i))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		checkCompact(t, in, seed)
	})
}

// boundary is one stop of Next: what, at which level, and the raw token
// from the start of a value or key to its end.
type boundary struct {
	b     Boundary
	level int
	raw   string
}

// boundaries scans in at the given chunking, stopping at every boundary up
// to maxLevel, and returns the boundaries with the raw text of each value
// and key at its end (a top-level number ends at End, with no boundary).
func boundaries(t *testing.T, in []byte, seed uint64, maxLevel int) ([]boundary, bool) {
	var s JSON
	var got []boundary
	var starts []int // the offsets where open values and keys started
	off := 0
	for _, p := range jsontest.RandomChunks(in, seed) {
		for used := 0; ; {
			n, b, level := s.Next(p[used:], maxLevel)
			used += n
			off += n
			if b != NoBoundary && level > maxLevel {
				t.Fatalf("%q: boundary %d at level %d with maxLevel %d", in, b, level, maxLevel)
			}
			switch b {
			case NoBoundary:
			case ValueStart, KeyStart:
				starts = append(starts, off-1)
				got = append(got, boundary{b, level, string(in[off-1])})
			case ValueEnd, KeyEnd:
				if len(starts) == 0 {
					t.Fatalf("%q: an end with nothing open", in)
				}
				from := starts[len(starts)-1]
				starts = starts[:len(starts)-1]
				got = append(got, boundary{b, level, string(in[from:off])})
			}
			if b == NoBoundary {
				if used < len(p) && s.Err() == nil && !s.Done() {
					t.Fatalf("%q: Next stopped at %d of %d without a reason", in, used, len(p))
				}
				break
			}
		}
		if s.Err() != nil {
			return got, false
		}
	}
	s.End()
	return got, s.Err() == nil
}

// FuzzNext checks the boundaries Next reports against encoding/json's
// tokens: every value and key starts and ends once, at its level, and its
// raw text decodes to the token encoding/json reads there.
func FuzzNext(f *testing.F) {
	for i, c := range compactCases {
		f.Add([]byte(c), uint64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, maxLevel uint8) {
		if !json.Valid(in) {
			return
		}
		max := int(maxLevel%6) - 1
		got, ok := boundaries(t, in, seed, max)
		if !ok {
			t.Fatalf("%q: valid for encoding/json, not for the scanner", in)
		}
		// What encoding/json reads, as boundaries.
		dec := json.NewDecoder(bytes.NewReader(in))
		dec.UseNumber()
		var want []boundary
		var stack []bool // per open container: is it an object
		afterKey := false
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			level := len(stack)
			isKey := !afterKey && level > 0 && stack[level-1]
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' || v == '[' {
					want = append(want, boundary{ValueStart, level, string(v)})
					stack = append(stack, v == '{')
					afterKey = false
					continue
				}
				stack = stack[:len(stack)-1]
				want = append(want, boundary{ValueEnd, len(stack), string(v)})
			default:
				if isKey {
					want = append(want, boundary{KeyStart, level, `"`}, boundary{KeyEnd, level, fmt.Sprint(v)})
					afterKey = true
					continue
				}
				start := "\""
				if _, isStr := v.(string); !isStr {
					start = string(fmt.Sprint(v)[0])
					if v == nil {
						start = "n"
					}
				}
				want = append(want, boundary{ValueStart, level, start})
				// A top-level number ends at the byte after it, or at End.
				if _, isNum := v.(json.Number); !isNum || level > 0 || isSpace(in[len(in)-1]) {
					want = append(want, boundary{ValueEnd, level, fmt.Sprint(v)})
				}
			}
			afterKey = false
		}
		// Compare: the raw ends decode to the tokens.
		var filtered []boundary
		for _, w := range want {
			if w.level <= max {
				filtered = append(filtered, w)
			}
		}
		if len(got) != len(filtered) {
			t.Fatalf("%q (maxLevel %d): %d boundaries, encoding/json gives %d:\n%v\n%v", in, max, len(got), len(filtered), got, filtered)
		}
		for i, g := range got {
			w := filtered[i]
			if g.b != w.b || g.level != w.level || !sameToken(g, w) {
				t.Fatalf("%q (maxLevel %d): boundary %d is %v, encoding/json gives %v", in, max, i, g, w)
			}
		}
	})
}

// sameToken reports whether the raw text of g is the token w names.
func sameToken(g, w boundary) bool {
	switch g.b {
	case ValueStart, KeyStart:
		return g.raw == w.raw
	}
	if g.raw == "}" || g.raw == "]" {
		return g.raw == w.raw || strings.HasSuffix(g.raw, w.raw)
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(g.raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return false
	}
	switch x := v.(type) {
	case map[string]any, []any:
		return strings.HasSuffix(g.raw, w.raw) // a container's raw text ends with its closer
	case nil:
		return w.raw == "<nil>"
	default:
		return fmt.Sprint(x) == w.raw
	}
}

// TestStringWaker: chunks a StringWaker lets pass, one after another from
// a scanner inside a string (in an escape or not), leave the scanner inside
// the string with no error when it reads them; and chunks that wake it are
// often enough ones that end the string or are an error.
func TestStringWaker(t *testing.T) {
	alphabet := []string{"a", " ", `"`, `\`, "n", "u", "0", "F", "x", "/", "\x01", "\t", "é", `\"`, `\n`, `\u00e9`, `\u12`}
	rng := rand.New(rand.NewPCG(3, 4))
	passed, woke := 0, 0
	for range 50000 {
		var js JSON
		js.Scan([]byte(`"`))
		var w StringWaker
		for range 1 + rng.IntN(6) {
			if !w.Sync(&js) {
				break
			}
			var held []byte
			for range 1 + rng.IntN(4) {
				var chunk []byte
				for range 1 + rng.IntN(3) {
					chunk = append(chunk, alphabet[rng.IntN(len(alphabet))]...)
				}
				if w.Wakes(chunk) {
					woke++
					held = append(held, chunk...)
					break
				}
				passed++
				held = append(held, chunk...)
				var probe JSON = js // what the scanner would make of the held chunks so far
				probe.stack = append([]byte(nil), js.stack...)
				if n := probe.Scan(held); n != len(held) || probe.failed || probe.state != jString && probe.state != jStringEsc && probe.state != jStringHex {
					t.Fatalf("%q passed after %q, but the scanner took %d bytes, state %d, error %v", chunk, held[:len(held)-len(chunk)], n, probe.state, probe.Err())
				}
			}
			js.Scan(held) // the drive: the scanner reads what was held
		}
	}
	if passed < 10000 || woke < 10000 {
		t.Errorf("%d chunks passed, %d woke: the test checks too little of one side", passed, woke)
	}
}

// TestStopsString holds stopsString and stopsASCII to their byte-at-a-time
// rules: every byte value at every place of a word of plain bytes, every
// pair of values at two places (a borrow from one byte reaches the next),
// and random words.
func TestStopsString(t *testing.T) {
	stops := func(b byte) bool { return b < 0x20 || b == '"' || b == '\\' }
	stopsA := func(b byte) bool { return b == '\\' || b >= 0x80 }
	check := func(word [8]byte) {
		t.Helper()
		want, wantA := false, false
		for _, b := range word {
			want = want || stops(b)
			wantA = wantA || stopsA(b)
		}
		if got := stopsString(binary.LittleEndian.Uint64(word[:])); got != want {
			t.Fatalf("stopsString(%q) = %v, want %v", word[:], got, want)
		}
		if got := stopsASCII(binary.LittleEndian.Uint64(word[:])); got != wantA {
			t.Fatalf("stopsASCII(%q) = %v, want %v", word[:], got, wantA)
		}
	}
	plain := [8]byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
	for at := range 8 {
		for v := range 256 {
			w := plain
			w[at] = byte(v)
			check(w)
		}
	}
	for v := range 256 {
		for u := range 256 {
			w := plain
			w[3], w[4] = byte(v), byte(u)
			check(w)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.Uint64())
		check(w)
		for i := range w { // mostly plain bytes, a few near the edges
			w[i] = byte(0x1c + r.IntN(0x68))
		}
		check(w)
	}
}

func TestValidUTF8(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":"é"}`, `{"a":"é"}`},
		{"{\"a\":\"\xff\"}", "{\"a\":\"\uFFFD\"}"},
		{"{\"a\":\"x\xe2\x82y\"}", "{\"a\":\"x\uFFFD\uFFFDy\"}"}, // each byte of a cut rune, as encoding/json
	} {
		got := ValidUTF8([]byte(c.in))
		if string(got) != c.want || !json.Valid(got) {
			t.Errorf("ValidUTF8(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	valid := []byte(`{"a":1}`)
	if got := ValidUTF8(valid); &got[0] != &valid[0] {
		t.Error("ValidUTF8 copied input that was all UTF-8")
	}
}
