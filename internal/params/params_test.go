package params

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/toolparse/toolparse/syntax"
)

func TestJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		add  func(ps *Params)
		want string
	}{
		{"none", func(*Params) {}, `{}`},
		{"one", func(ps *Params) { ps.Add("a", false, "x") }, `{"a":"x"}`},
		{"repeated key becomes an array, in first-appearance order", func(ps *Params) {
			ps.Add("a", false, "1")
			ps.AddBytes("b", []byte("2"))
			ps.AddBytes("a", []byte("3"))
			ps.Add("a", false, "")
		}, `{"a":["1","3",""],"b":"2"}`},
		{"list of one", func(ps *Params) { ps.Add("l", true, "only") }, `{"l":["only"]}`},
		{"empty list", func(ps *Params) { ps.Add("l", true) }, `{"l":[]}`},
		{"list then items", func(ps *Params) { ps.Add("l", true); ps.Add("l", false, "a", "b") }, `{"l":["a","b"]}`},
		{"escapes", func(ps *Params) { ps.Add("q\"", false, "line\n\"x\"\\") }, `{"q\"":"line\n\"x\"\\"}`},
		{"JSON values as they are, first of an array included", func(ps *Params) {
			ps.AddRaw([]byte("n"), []byte(`{"k":[1,"}"]}`))
			ps.AddRaw([]byte("m"), []byte(`5`))
			ps.AddBytes("n", []byte("s"))
			ps.AddRaw([]byte("n"), []byte(`true`))
			ps.AddBytes("m", []byte("x"))
		}, `{"n":[{"k":[1,"}"]},"s",true],"m":[5,"x"]}`},
	} {
		var ps Params
		c.add(&ps)
		if got := string(ps.JSON()); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestHas(t *testing.T) {
	var ps Params
	if ps.Has("a") {
		t.Fatal("a zero Params has a key")
	}
	ps.Add("a", true)
	if !ps.Has("a") || ps.Has("b") {
		t.Fatal("Has is wrong after Add")
	}
}

// TestManyValuesStaySmall: each value costs 8 bytes of bookkeeping, however
// many there are.
func TestManyValuesStaySmall(t *testing.T) {
	var ps Params
	const n = 100000
	allocs := testing.AllocsPerRun(1, func() {
		ps = Params{}
		for range n {
			ps.AddBytes("a", nil)
		}
	})
	if allocs > 40 {
		t.Errorf("%v allocations for %d values of one key, want a few dozen (the slices doubling)", allocs, n)
	}
	if got := len(ps.JSON()); got != len(`{"a":[]}`)+n*3-1 {
		t.Errorf("JSON of %d empty values is %d bytes", n, got)
	}
}

// reference is the arguments built the plain way: a map of keys to values
// and the keys' order, for comparing with Params.
type reference struct {
	order []string
	vals  map[string][]string
	list  map[string]bool
}

func (r *reference) add(key string, v *string, list bool) {
	if r.vals == nil {
		r.vals, r.list = map[string][]string{}, map[string]bool{}
	}
	vs, seen := r.vals[key]
	if !seen {
		r.order = append(r.order, key)
		vs = []string{}
	}
	if v != nil {
		vs = append(vs, *v)
	}
	r.vals[key] = vs
	r.list[key] = r.list[key] || list || seen || v == nil
}

func (r *reference) json() string {
	var b []byte
	b = append(b, '{')
	for i, k := range r.order {
		if i > 0 {
			b = append(b, ',')
		}
		b = syntax.AppendQuote(b, k)
		b = append(b, ':')
		vs := r.vals[k]
		if !r.list[k] {
			b = syntax.AppendQuote(b, vs[0])
			continue
		}
		b = append(b, '[')
		for j, v := range vs {
			if j > 0 {
				b = append(b, ',')
			}
			b = syntax.AppendQuote(b, v)
		}
		b = append(b, ']')
	}
	return string(append(b, '}'))
}

// TestAgainstReference adds random keys and values, runs of one key,
// arrays, keys that need escaping and keys that are not valid UTF-8, and
// compares the JSON with the plain way's, the Params reused between rounds.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"a", "b", "content", "k\"q", "tab\t", "é", "x\xff", "path", "", "a.b-c"}
	var ps Params
	for round := range 2000 {
		var ref reference
		nkeys := 1 + rng.IntN(len(keys))
		if round%50 == 0 {
			nkeys = len(keys) // and many distinct keys below
		}
		if round%7 == 0 {
			ps.Hint(rng.IntN(64), rng.IntN(8))
		}
		ops := rng.IntN(40)
		if round%100 == 0 {
			ops = 3000
		}
		key := keys[0]
		for range ops {
			if rng.IntN(3) > 0 { // often the same key again: runs
				key = keys[rng.IntN(nkeys)]
				if round%50 == 0 && rng.IntN(2) == 0 {
					key = fmt.Sprintf("k%d", rng.IntN(1000))
				}
			}
			v := fmt.Sprintf("v%d\n\"%s", rng.IntN(100), key)
			switch rng.IntN(8) {
			case 0:
				ps.List([]byte(key))
				ref.add(key, nil, true)
			case 1:
				ps.AddKey([]byte(key), []byte(v), true)
				ref.add(key, &v, true)
			case 2:
				ps.Add(key, false, v, v+"2")
				ref.add(key, &v, false)
				v2 := v + "2"
				ref.add(key, &v2, false)
			case 3:
				ps.AddKey([]byte(key), []byte(v), false)
				ref.add(key, &v, false)
			default:
				ps.AddBytes(key, []byte(v))
				ref.add(key, &v, false)
			}
			if !ps.Has(key) || ps.Has("never") {
				t.Fatalf("round %d: Has is wrong", round)
			}
		}
		got, want := string(ps.JSON()), ref.json()
		if ref.order == nil {
			want = "{}"
		}
		if got != want {
			t.Fatalf("round %d:\n got %s\nwant %s", round, got, want)
		}
		if !json.Valid([]byte(got)) {
			t.Fatalf("round %d: not JSON: %s", round, got)
		}
	}
}

// TestManyKeysStaySmall: a million distinct keys cost their JSON and an
// index of a few bytes a key, not a string and a map entry each.
func TestManyKeysStaySmall(t *testing.T) {
	const n = 1 << 20
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "k%d", i)
	}
	var out []byte
	allocs := testing.AllocsPerRun(1, func() {
		var ps Params
		for _, k := range keys {
			ps.AddKey(k, []byte("v"), false)
		}
		out = ps.JSON()
	})
	if allocs > 100 {
		t.Errorf("%v allocations for %d keys, want a few dozen (the buffers doubling)", allocs, n)
	}
	var m map[string]string
	if err := json.Unmarshal(out, &m); err != nil || len(m) != n || m["k12345"] != "v" {
		t.Fatalf("%d keys decoded, err %v", len(m), err)
	}
}

func TestStrings(t *testing.T) {
	for _, c := range []struct{ args, want, lossy string }{
		{`{"a":"x","b":["1","2"]}`, `a=x b=1 b=2 `, ""},
		{`{"n":3}`, `n=3 `, "values that are not strings, written as their JSON text"},
		{`{"l":["1",2]}`, `l=1 l=2 `, "values that are not strings, written as their JSON text"},
		{`{"l":["only"]}`, `l=only `, "an array of fewer than two items, which reads back as a string or nothing"},
		{`{"l":[]}`, ``, "an array of fewer than two items, which reads back as a string or nothing"},
	} {
		got := ""
		lossy := Strings([]byte(c.args), func(k, v string) { got += k + "=" + v + " " })
		if got != c.want || lossy != c.lossy {
			t.Errorf("Strings(%s) = %q, %q; want %q, %q", c.args, got, lossy, c.want, c.lossy)
		}
	}
}

// Strings is the inverse of Params: what it writes, added back, is the
// arguments again.
func TestStringsInverse(t *testing.T) {
	const args = `{"a":"x","b":["1","2","3"],"c":""}`
	var ps Params
	if lossy := Strings([]byte(args), func(k, v string) { ps.Add(k, false, v) }); lossy != "" {
		t.Fatal(lossy)
	}
	if got := string(ps.JSON()); got != args {
		t.Errorf("got %s, want %s", got, args)
	}
}
