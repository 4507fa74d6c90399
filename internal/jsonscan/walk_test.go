package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// walk reads v level by level, as a reader of provider documents does:
// each object's and array's members are found by skipping their values,
// then each value is walked in turn. It records every value it meets.
func walk(s *Skipper, v []byte, out *[]string) {
	*out = append(*out, string(v))
	switch Kind(v) {
	case '{':
		s.MembersRaw(v, func(k, val []byte) bool {
			*out = append(*out, "key "+string(k))
			walk(s, val, out)
			return true
		})
	case '[':
		s.Elements(v, func(e []byte, _ int) bool {
			walk(s, e, out)
			return true
		})
	}
}

func TestSkipperAgrees(t *testing.T) {
	long := strings.Repeat(`x\"{[`, 200)     // 1,000 bytes of escaped quotes and brackets
	long2 := strings.Repeat(`\\`, 400) + `y` // ends in escaped backslashes
	docs := []string{
		`{"choices":[{"message":{"tool_calls":[{"function":{"name":"f","arguments":"` + long + `"}}]}}],"n":1}`,
		`[["` + long + `", "` + long + `"], {"a": "` + long2 + `", "b": ["` + long2 + `"]}, "short"]`,
		`{"a":"` + long + `","b":{"c":"` + long + `","d":"` + long2 + `","e":"` + long + `x","f":"` + long2 + `","g":"` + long + `"}}`,
	}
	for _, doc := range docs {
		var want, got []string
		walk(nil, []byte(doc), &want)
		var s Skipper
		walk(&s, []byte(doc), &got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("walked with a Skipper, %.60s… gives\n%q\nwant\n%q", doc, got, want)
		}
		if s.at[0] == nil {
			t.Errorf("%.60s…: the Skipper remembered no long string", doc)
		}
	}
}

// A buffer written again is walked afresh after Reset, even where a string
// it held then ends just where the long one did.
func TestSkipperReset(t *testing.T) {
	buf := []byte(`{"a":"` + strings.Repeat("x", 600) + `","b":1}`) // the string: 5 to 607
	var s Skipper
	var got []string
	walk(&s, buf, &got)
	again := `{"a":"yy","b":"` + strings.Repeat("z", 591) + `"}` // b's closing quote at 606
	buf = buf[:copy(buf, again)]
	s.Reset()
	got = got[:0]
	walk(&s, buf, &got)
	var want []string
	walk(nil, buf, &want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after Reset: %.200q, want %.200q", got, want)
	}
}

// FuzzSkipper: walked level by level, any valid document gives the same
// values with a Skipper that remembers every string (and forgets them at
// Reset) as without one, twice over the same bytes.
func FuzzSkipper(f *testing.F) {
	for _, s := range []string{`{"a":"x","b":["y",{"c":"z"}],"d":1}`, `[["a","b"],{"k":"a\"b"},"\\"]`, `"s"`, `{}`, `[1,[2,[3]]]`} {
		f.Add([]byte(s))
	}
	defer func(n int) { longString = n }(longString)
	longString = 1
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		var want, got []string
		walk(nil, doc, &want)
		var s Skipper
		for range 2 {
			got = got[:0]
			walk(&s, doc, &got)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("with a Skipper: %q\nwant %q", got, want)
			}
		}
		s.Reset()
		got = got[:0]
		walk(&s, doc, &got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("after Reset: %q\nwant %q", got, want)
		}
	})
}

// A string cut off by the end of the bytes walked is not remembered: the
// same bytes may be walked again whole (a buffer appended to), and a cut
// just after an escaped quote ends in a quote (a review found this).
func TestSkipperCutString(t *testing.T) {
	doc := []byte(`["` + strings.Repeat("x", 600) + `\"tail",1]`)
	cut := strings.Index(string(doc), `\"`) + 2
	var s Skipper
	s.SkipValue(doc[:cut], 1)
	if got, want := s.SkipValue(doc, 1), SkipValue(doc, 1); got != want {
		t.Errorf("after walking the bytes cut after an escaped quote: end %d, want %d", got, want)
	}
}

// Equal compares values, not their text.
func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1.50,"é"]}`, ` { "b" : [ 1.5 , "\u00e9" ] , "a" : 1e0 } `, true},
		{`{"a":1,"a":2}`, `{"a":1}`, true}, // a key given twice counts the first time
		{`{"a":1,"a":2}`, `{"a":2}`, false},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`-0`, `0`, true},
		{`1e10000000`, `1e10000000`, true}, // past big.Rat's exponents: the same text
		{`"1"`, `1`, false},
		{`true`, `false`, false},
		{`null`, `null`, true},
		{`"a\/b"`, `"a/b"`, true},
	} {
		if got := Equal([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestMemberAndWithMember(t *testing.T) {
	obj := []byte(`{ "a": 1, "b": {"c": [1, 2]}, "a": 2 }`)
	if got := string(Member(obj, "a")); got != "1" {
		t.Errorf("Member a = %s, want the first, 1", got)
	}
	if got := Member(obj, "z"); got != nil {
		t.Errorf("Member z = %s, want nil", got)
	}
	if got := string(WithMember(obj, "b", []byte(`"x"`))); got != `{"a":1,"b":"x","a":2}` {
		t.Errorf("WithMember b = %s", got)
	}
	if got := string(WithMember([]byte(`{}`), "t", []byte(` "m" `))); got != `{"t":"m"}` {
		t.Errorf("WithMember on {} = %s", got)
	}
}
