package invokexml

import (
	"strings"
	"testing"
)

func TestTagAt(t *testing.T) {
	for _, c := range []struct {
		in   string
		eof  bool
		n    int
		name string
	}{
		{`<invoke name="get_weather">rest`, false, 27, "get_weather"},
		{`<invoke name='a b'>`, true, 19, "a b"},
		{`<invoke name=ls>`, true, 16, "ls"},
		{"<invoke\n  name=\"x\"  >", true, 21, "x"},
		{`<invoke name="x" string="true">`, true, 31, "x"},
		{`<invoke name="x"`, false, -1, ""},           // the '>' may come
		{`<inv`, false, -1, ""},                       // the prefix may come
		{`<inv`, true, 0, ""},                         // it cannot
		{`<invoke name="x"`, true, 0, ""},             // cut off
		{`<invokes name="x">`, true, 0, ""},           // another tag
		{`<invoke>`, true, 0, ""},                     // no attribute at all
		{`<invoke name="x>`, true, 0, ""},             // an unclosed quote
		{`<invoke name>`, true, 0, ""},                // no value
		{`<invoke name="x" name="y">`, true, 26, "x"}, // the first counts
		{"<invoke name=\"" + strings.Repeat("a", maxTag) + "\">", false, 0, ""},
		{`<invoke name="x"id="1">`, true, 23, "x"}, // attributes run together: read
		{`<invoke name=a<b>`, true, 0, ""},         // a bare value running into markup
		{`<invoke name="x" <id="1">`, true, 0, ""}, // a key holding '<'
		{`<invoke name=x"y">`, true, 0, ""},        // a quote after a bare value
	} {
		n, attrs := tagAt([]byte(c.in), "<invoke", ">", "name", c.eof)
		if n != c.n || n > 0 && string(attrs.name) != c.name {
			t.Errorf("tagAt(%q, eof %v) = %d, %v; want %d, name %q", c.in, c.eof, n, attrs, c.n, c.name)
		}
	}
}

// TestTagAtOtherForm reads a tag of another closer and name attribute
// (Kimi K3's <|open|>call tool="N" index="1"<|sep|>).
func TestTagAtOtherForm(t *testing.T) {
	tags := Tags{Invoke: "<|open|>call", NameAttr: "tool", TagEnd: "<|sep|>", Entities: true}
	for _, c := range []struct {
		in   string
		eof  bool
		n    int
		name string
	}{
		{`<|open|>call tool="a&amp;b" index="1"<|sep|>x`, false, 44, "a&amp;b"},
		{`<|open|>call tool="f"<|se`, false, -1, ""},    // the closer may come
		{`<|open|>call tool="f"<|se`, true, 0, ""},      // it cannot
		{`<|open|>call tool="f"/<|sep|>`, true, 0, ""},  // no self-closing tag in this form
		{`<|open|>call name="f"<|sep|>`, true, 28, ""},  // a tag, but no name
		{`<|open|>call tool="f">x<|sep|>`, true, 0, ""}, // '>' is no closer here
	} {
		n, attrs := tags.invokeAt([]byte(c.in), c.eof)
		if n != c.n || n > 0 && string(attrs.name) != c.name {
			t.Errorf("invokeAt(%q, eof %v) = %d, %v; want %d, name %q", c.in, c.eof, n, attrs, c.n, c.name)
		}
	}
	if n, attrs := TagAt([]byte(`<|open|>argument key="a&amp;" type='string' key="b"<|sep|>v`), "<|open|>argument", "<|sep|>", true); n != 58 ||
		string(attrs["key"]) != "a&amp;" || string(attrs["type"]) != "string" {
		t.Errorf("TagAt = %d, %q; want 58, key a&amp; as written (the first), type string", n, attrs)
	}
	if n, _ := TagAt([]byte(`<invoke name="x"/>`), "<invoke", ">", true); n != 0 {
		t.Errorf("TagAt read a tag closing itself: %d", n)
	}
	if got := tags.Tag(`a&"b`); got != `<|open|>call tool="a&amp;&quot;b"<|sep|>` {
		t.Errorf("Tag = %q, want the name escaped", got)
	}
	if got := tags.callName([]byte("a&amp;b&quot;")); got != `a&b"` {
		t.Errorf("callName = %q, want the entities read", got)
	}
	if got := tags.shown("f"); got != `<|open|>call tool="f"<|sep|>` {
		t.Errorf("shown = %q", got)
	}
}

func TestInvokeAt(t *testing.T) {
	tags := Tags{Invoke: "<invoke"}
	for _, c := range []struct {
		in        string
		eof       bool
		yes, wait bool
	}{
		{`<invoke name="f">`, false, true, false},
		{`<invoke name="">`, false, false, false},
		{`<invoke>`, false, false, false},
		{`<invoke`, false, false, true},
		{`<invoke`, true, false, false},
		{`get_weather(city="Paris")`, false, false, false},
	} {
		yes, wait := InvokeAt(tags, []byte(c.in), c.eof)
		if yes != c.yes || wait != c.wait {
			t.Errorf("InvokeAt(%q, eof %v) = %v, %v; want %v, %v", c.in, c.eof, yes, wait, c.yes, c.wait)
		}
	}
}
