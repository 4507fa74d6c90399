package params

import "testing"

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
