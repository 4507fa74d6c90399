package jsoncall_test

import (
	"testing"

	"github.com/toolparse/toolparse/internal/jsoncall"
)

// TestArgs: the argument forms of docs/formats.md, and what is not one.
func TestArgs(t *testing.T) {
	for _, c := range []struct {
		raw, want string
		kind      byte
		ok        bool
	}{
		{``, `{}`, 0, true},
		{`null`, `{}`, 'n', true},
		{`{ "a" : [1, 2] }`, `{"a":[1,2]}`, '{', true},
		{`""`, `{}`, '"', true},
		{`" \n "`, `{}`, '"', true},
		{`"{\"a\": \"x y\"}"`, `{"a":"x y"}`, '"', true},
		{`" {\"a\": 1} "`, `{"a":1}`, '"', true},
		{`"[1]"`, ``, '"', false},           // a string holding an array
		{`"{\"a\": 1} {}"`, ``, '"', false}, // two values
		{`"{\"a\": "`, ``, '"', false},      // not JSON
		{`"hello"`, ``, '"', false},         // text
		{`[{"a": 1}]`, ``, '[', false},
		{`42`, ``, '4', false},
		{`true`, ``, 't', false},
	} {
		args, kind, ok := jsoncall.Args([]byte(c.raw), 0)
		if string(args) != c.want || kind != c.kind || ok != c.ok {
			t.Errorf("Args(%s) = %s, %q, %v; want %s, %q, %v", c.raw, args, kind, ok, c.want, c.kind, c.ok)
		}
	}
	// The depth limit applies to the object a string holds.
	if _, _, ok := jsoncall.Args([]byte(`"{\"a\": {\"b\": {}}}"`), 2); ok {
		t.Error("a string holding an object three deep passed a depth limit of 2")
	}
}
