package tagcall

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

var qwen = Param{Open: "<parameter=", KeyClose: ">", Close: "</parameter>", TrimNewline: true}

// read feeds body to a reader in chunks of size bytes (all at once when
// size is 0) and returns its arguments, first problem, and what it
// streamed per key.
func read(t *testing.T, f *Param, body string, size int) (string, int, map[string]string) {
	t.Helper()
	var r Reader
	streamed := map[string]string{}
	r.OnParam = func(key string, from, to int) {
		if from >= to {
			t.Errorf("param %q: empty span %d..%d", key, from, to)
		}
	}
	r.OnDelta = func(key string, d []byte, from, to int) {
		if string(d) != body[from:to] {
			t.Errorf("delta %q is not its source %q", d, body[from:to])
		}
		streamed[key] += string(d)
	}
	r.Reset(f, true)
	if size == 0 {
		size = len(body)
	}
	for n := size; n < len(body); n += size {
		r.Read([]byte(body[:n]), false)
	}
	r.Read([]byte(body), true)
	at, _ := r.Err([]byte(body))
	return string(r.JSON()), at, streamed
}

func TestRule(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"\n<parameter=a>\n1\n</parameter>\n<parameter=b>\n2\n</parameter>\n", `{"a":"1","b":"2"}`},
		{"<parameter=a>x</parameter> y</parameter>\n<parameter=b>2</parameter>", `{"a":"x\u003c/parameter\u003e y","b":"2"}`},
		{"<parameter=a>\nno closer\n", `{"a":"no closer"}`},
		{"<parameter=a>1</parameter><parameter=a>2</parameter>", `{"a":["1","2"]}`},
		{"<parameter=a></parameter>", `{"a":""}`},
		{"", `{}`},
		{"<parameter=a>x</parameter>\n<param", `{"a":"x\u003c/parameter\u003e\n\u003cparam"}`},
	} {
		want := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(c.want)
		for _, size := range []int{0, 1, 2, 3, 7} {
			got, at, _ := read(t, &qwen, c.body, size)
			if at >= 0 || got != want {
				t.Errorf("%q in %d-byte chunks: %s (error at %d), want %s", c.body, size, got, at, want)
			}
		}
	}
}

func TestStreamedJoinsToValue(t *testing.T) {
	body := "<parameter=a>\nline </parameter> one\n\n</parameter>\n<parameter=b>é\n</parameter>"
	for _, size := range []int{0, 1, 2, 5} {
		got, _, streamed := read(t, &qwen, body, size)
		if got != `{"a":"line </parameter> one\n","b":"é"}` {
			t.Errorf("%d-byte chunks: args %s", size, got)
		}
		if streamed["a"] != "line </parameter> one\n" || streamed["b"] != "é" {
			t.Errorf("%d-byte chunks: streamed %q", size, streamed)
		}
	}
}

func TestProblems(t *testing.T) {
	for _, body := range []string{"oops<parameter=a>1</parameter>", "<parameter=a>1</parameter>\n<parameter=", "<parameter=>x</parameter>"} {
		for _, size := range []int{0, 1, 3} {
			if _, at, _ := read(t, &qwen, body, size); at < 0 {
				t.Errorf("%q in %d-byte chunks: no problem found", body, size)
			}
		}
	}
}

// A third dialect needs only its Param: MiniMax's invoke XML.
func TestAnotherDialect(t *testing.T) {
	minimax := Param{Open: `<parameter name="`, KeyClose: `">`, Close: "</parameter>"}
	body := "\n<parameter name=\"path\">a.md</parameter>\n<parameter name=\"text\">x</parameter> y</parameter>\n"
	for _, size := range []int{0, 1, 4} {
		got, at, streamed := read(t, &minimax, body, size)
		if at >= 0 || got != `{"path":"a.md","text":"x</parameter> y"}` {
			t.Errorf("%d-byte chunks: %s (error at %d)", size, got, at)
		}
		if streamed["text"] != "x</parameter> y" {
			t.Errorf("%d-byte chunks: streamed %q", size, streamed)
		}
	}
}

// TestManyParamsStaySmall: a body of many small parameters, of one key and
// of distinct keys, allocates a few dozen times in all (buffers doubling),
// not once or more per parameter, and its JSON is right.
func TestManyParamsStaySmall(t *testing.T) {
	const n = 20000
	var one, distinct strings.Builder
	for i := range n {
		one.WriteString("<parameter=a></parameter>")
		fmt.Fprintf(&distinct, "<parameter=k%d>v</parameter>\n", i)
	}
	for _, c := range []struct {
		name, body string
		check      func(m map[string]any) bool
	}{
		{"one key", one.String(), func(m map[string]any) bool { a, _ := m["a"].([]any); return len(m) == 1 && len(a) == n }},
		{"distinct keys", distinct.String(), func(m map[string]any) bool { return len(m) == n && m["k123"] == "v" }},
	} {
		var r Reader
		body := []byte(c.body)
		var args []byte
		allocs := testing.AllocsPerRun(1, func() {
			r.Reset(&qwen, false)
			r.Read(body, true)
			args = r.JSON()
		})
		if allocs > 60 {
			t.Errorf("%s: %v allocations for %d params", c.name, allocs, n)
		}
		var m map[string]any
		if err := json.Unmarshal(args, &m); err != nil || !c.check(m) {
			t.Errorf("%s: wrong arguments (%v): %.80s", c.name, err, args)
		}
	}
}

// A key in its tag ends at a line end when the model dropped the tag's
// closer (NewlineEndsKey), a CRLF one included; a CR alone is no key byte.
func TestKeyLineEnds(t *testing.T) {
	f := Param{Open: "<parameter=", KeyClose: ">", Close: "</parameter>", TrimNewline: true, NewlineEndsKey: true}
	for _, c := range []struct {
		rest    string
		final   bool
		n, klen int
	}{
		{"path>\nx", true, 5, 4},
		{"path\nx", true, 4, 4},
		{"path\r\nx", true, 4, 4},
		{"path\r", false, -1, 0},
		{"pa\rth>", true, 0, 0},
	} {
		n, _, klen := f.readKey([]byte(c.rest), c.final)
		if n != c.n || klen != c.klen {
			t.Errorf("%q: n %d, key length %d; want %d, %d", c.rest, n, klen, c.n, c.klen)
		}
	}
}
