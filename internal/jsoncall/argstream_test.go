package jsoncall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/jsontest"
	"github.com/toolparse/toolparse/syntax"
)

// stream feeds in to an ArgStream at depth in the given pieces, as a syntax
// does, and returns its events and whether the scan found a valid value.
// Each event's span must be a non-empty stretch of in, for a delta at least
// as long as the delta (compaction only removes bytes); the spans are then
// cleared, for comparison.
func stream(in []byte, pieces [][]byte, depth int, keys Keys) ([]syntax.Event, bool) {
	var evs []syntax.Event
	var js jsonscan.JSON
	a := ArgStream{Depth: depth, Keys: keys, JSON: &js, Emit: func(e syntax.Event) { evs = append(evs, e) }}
	a.Reset()
	off := int64(0)
	valid := true
	for _, p := range pieces {
		n := a.Scan(p, off)
		off += int64(len(p))
		if js.Err() != nil || n < len(p) && len(jsonscan.TrimSpace(p[n:])) > 0 {
			valid = false
			break
		}
	}
	if valid {
		js.End()
		valid = js.Err() == nil
	}
	for i, e := range evs {
		sp := e.Span
		if sp.Start < 0 || sp.End <= sp.Start || sp.End > int64(len(in)) {
			evs[i].Name = fmt.Sprintf("BAD SPAN %v of %q", sp, e.Name)
		} else if int64(len(e.Delta)) > sp.Len() {
			evs[i].Name = fmt.Sprintf("SPAN %v (%q) SHORTER THAN THE DELTA %q", sp, in[sp.Start:sp.End], e.Delta)
		}
		evs[i].Span = syntax.Span{}
	}
	return evs, valid
}

// call is what a call object holds by encoding/json's reading, the first
// of a key given twice counting.
type call struct {
	name, id  string
	nameOK    bool   // the first name is a non-empty string
	idFirst   bool   // a string id comes before the name
	args      []byte // the first args, compacted, when they are an object
	argsFirst bool
}

func decodeCall(t *testing.T, obj []byte, keys Keys) (c call, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return c, false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%q: %v", obj, err)
		}
		key := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("%q: %v", obj, err)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		switch key {
		case keys.Name:
			c.nameOK = json.Unmarshal(raw, &c.name) == nil && c.name != ""
		case keys.ID:
			if json.Unmarshal(raw, &c.id) == nil && !seen[keys.Name] {
				c.idFirst = true
			}
		case keys.Args:
			if raw[0] == '{' {
				var b bytes.Buffer
				json.Compact(&b, raw)
				c.args = b.Bytes()
				c.argsFirst = !seen[keys.Name]
			}
		}
	}
	return c, true
}

// checkStream checks the events of one call object obj (the call at index
// within its stream) against what encoding/json reads in it.
func checkStream(t *testing.T, obj []byte, evs []syntax.Event, index int, keys Keys) {
	t.Helper()
	want, _ := decodeCall(t, obj, keys)
	if !want.nameOK {
		if len(evs) > 0 {
			t.Fatalf("%q: no name, but events %v", obj, evs)
		}
		return
	}
	if len(evs) == 0 {
		t.Fatalf("%q: no events for call %q", obj, want.name)
	}
	wantID := ""
	if want.idFirst {
		wantID = want.id
	}
	first := syntax.Event{Type: syntax.Call, Partial: true, Name: want.name, ID: wantID, Index: index}
	if !reflect.DeepEqual(evs[0], first) {
		t.Fatalf("%q: first event %+v, want %+v", obj, evs[0], first)
	}
	var joined strings.Builder
	for _, e := range evs[1:] {
		if e.Type != syntax.Call || !e.Partial || e.Name != want.name || e.ID != "" || e.Index != index || e.Delta == "" {
			t.Fatalf("%q: event %+v is not a delta of call %d %q", obj, e, index, want.name)
		}
		if utf8.Valid(want.args) && !utf8.ValidString(e.Delta) {
			t.Fatalf("%q: delta %q splits a character", obj, e.Delta)
		}
		joined.WriteString(e.Delta)
	}
	if joined.String() != string(want.args) {
		t.Fatalf("%q: deltas join to %q, want %q", obj, joined.String(), want.args)
	}
	// ReadCall reads the same call.
	if name, id, args, problem := ReadCall(obj, keys); problem == "" {
		if name != want.name || id != want.id || want.args != nil && string(args) != string(want.args) {
			t.Fatalf("%q: ReadCall gives %q %q %s, the stream %q %q %s", obj, name, id, args, want.name, want.id, want.args)
		}
	}
}

var otherKeys = Keys{Name: "function", Args: "arguments", ID: "call_id"}

func checkCallObject(t *testing.T, obj []byte, seed uint64, keys Keys) {
	if !json.Valid(obj) {
		return
	}
	if _, ok := decodeCall(t, obj, keys); !ok {
		return
	}
	// The object alone, at depth 0.
	evs, ok := stream(obj, jsontest.RandomChunks(obj, seed), 0, keys)
	if !ok {
		t.Fatalf("%q: valid for encoding/json, not for the scanner", obj)
	}
	checkStream(t, obj, evs, 0, keys)
	// Two of it in an array, at depth 1: calls 0 and 1.
	arr := []byte("[ " + string(obj) + " ,\n" + string(obj) + "]")
	evs, ok = stream(arr, jsontest.RandomChunks(arr, seed), 1, keys)
	if !ok {
		t.Fatalf("%q: valid for encoding/json, not for the scanner", arr)
	}
	var calls [2][]syntax.Event
	for _, e := range evs {
		if e.Index < 0 || e.Index > 1 {
			t.Fatalf("%q: event %+v has a bad index", arr, e)
		}
		calls[e.Index] = append(calls[e.Index], e)
	}
	checkStream(t, obj, calls[0], 0, keys)
	checkStream(t, obj, calls[1], 1, keys)
}

var callCases = []string{
	`{"name":"read","args":{"f":"a"}}`,
	`{ "name" : "write" , "id" : "c1" , "args" : { "path" : "a b" , "n" : [ 1 , 2.5 , { } ] } }`,
	`{"args":{"x":1},"name":"late","id":"after"}`,
	`{"id":"i1","args":{"x":"é ✓ \u00e9"},"name":"x"}`,
	`{"name":"read","args":{"f":"a"},"name":"write","args":{"f":"b"}}`,
	`{"name":5,"name":"x","args":{}}`,
	`{"args":null,"name":"n","args":{"a":1}}`,
	`{"n\u0061me":"esc","\u0061rgs":{"k\"":"v\\"}}`,
	`{"name":"","args":{"a":1}}`,
	`{"name":"n","args":[1,2]}`,
	`{"name":"n","id":7,"id":"x","args":{}}`,
	`{"other":{"name":"inner","args":{"a":1}},"name":"outer","args":{"b":{"name":"deep"}}}`,
	`{"name":"n","args":{"a":-0.5e+3,"b":true,"c":null,"d":12}}`,
	`{"function":"f","call_id":"c","arguments":{"a":[]}}`,
	"{\"name\":\"n\",\"args\":{\"s\":\"\xe2\x9c\x93\xe2\x9c\x93\xf0\x9f\x98\x80\"}}",
	`{}`,
}

func TestArgStream(t *testing.T) {
	for _, c := range callCases {
		for seed := range uint64(12) {
			checkCallObject(t, []byte(c), seed, Default)
			checkCallObject(t, []byte(c), seed, otherKeys)
		}
	}
}

func TestArgStreamEvents(t *testing.T) {
	in := []byte(`[{"args":{"a": "x"},"id":"1","name":"late"}, 7, {"name":"two","id":"2","args":{"b" : [1, 2]}}]`)
	evs, ok := stream(in, jsontest.RandomChunks(in, 0), 1, Default)
	if !ok {
		t.Fatal("invalid")
	}
	want := []syntax.Event{
		{Type: syntax.Call, Partial: true, Name: "late", ID: "1", Index: 0},
		{Type: syntax.Call, Partial: true, Name: "late", Index: 0, Delta: `{"a":"x"}`},
		{Type: syntax.Call, Partial: true, Name: "two", Index: 1}, // the id comes after the name
	}
	var deltas string
	for _, e := range evs[len(want):] {
		deltas += e.Delta
	}
	if len(evs) < len(want) || deltas != `{"b":[1,2]}` {
		t.Fatalf("events %+v", evs)
	}
	for i, w := range want {
		if !reflect.DeepEqual(evs[i], w) {
			t.Errorf("event %d: %+v, want %+v", i, evs[i], w)
		}
	}
}

// FuzzArgStream: for a valid call object split anywhere, alone or as the
// elements of an array, the partial events give the name and id that
// encoding/json reads (the first of a key given twice counting), and the
// deltas join to the compacted args.
func FuzzArgStream(f *testing.F) {
	for i, c := range callCases {
		f.Add([]byte(c), uint64(i), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, obj []byte, seed uint64, other bool) {
		keys := Default
		if other {
			keys = otherKeys
		}
		checkCallObject(t, obj, seed, keys)
	})
}

// streamed feeds in to a, one byte at a time from offset 0, and returns its
// events, the deltas joined into the first delta event, the spans cleared.
func streamed(t *testing.T, a *ArgStream, js *jsonscan.JSON, in string) []syntax.Event {
	t.Helper()
	var evs []syntax.Event
	a.JSON, a.Emit = js, func(e syntax.Event) {
		e.Span = syntax.Span{}
		if e.Delta != "" && len(evs) > 0 && evs[len(evs)-1].Delta != "" {
			evs[len(evs)-1].Delta += e.Delta
			return
		}
		evs = append(evs, e)
	}
	for i := range len(in) {
		if n := a.Scan([]byte(in[i:i+1]), int64(i)); n != 1 {
			t.Fatalf("%q: scan stopped at %d", in, i)
		}
	}
	js.End()
	if !js.Done() {
		t.Fatalf("%q: not a valid value", in)
	}
	return evs
}

// TestArgStreamOptions: a second args key, no id key, WaitArgs, SetIndex,
// the name as the key and a bare args object.
func TestArgStreamOptions(t *testing.T) {
	keys := Keys{Name: "name", Args: "parameters", AltArgs: "arguments"}
	call := func(name string, index int, delta string) []syntax.Event {
		evs := []syntax.Event{{Type: syntax.Call, Partial: true, Name: name, Index: index}}
		if delta != "" {
			evs = append(evs, syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: index, Delta: delta})
		}
		return evs
	}
	for _, c := range []struct {
		in       string
		waitArgs bool
		shaped   bool
		want     []syntax.Event
	}{
		{`{"": "x", "name": "f", "arguments": {"a" : 1}, "parameters": {}}`, false, true, call("f", 5, `{"a":1}`)},
		{`{"parameters": {"b": 2}, "name": "f"}`, false, true, call("f", 5, `{"b":2}`)},
		{`{"name": "f", "other": 1}`, false, false, call("f", 5, "")},
		{`{"name": "f", "other": 1}`, true, false, nil},
		{`{"name": "f", "other": 1, "arguments": null}`, true, true, call("f", 5, "")},
	} {
		var js jsonscan.JSON
		js.Reset(64)
		a := ArgStream{Keys: keys, WaitArgs: c.waitArgs}
		a.Reset()
		a.SetIndex(5)
		evs := streamed(t, &a, &js, c.in)
		if !reflect.DeepEqual(evs, c.want) {
			t.Errorf("%q: events %+v, want %+v", c.in, evs, c.want)
		}
		if !a.Keyed() || a.Shaped() != c.shaped {
			t.Errorf("%q: keyed %v, shaped %v", c.in, a.Keyed(), a.Shaped())
		}
	}

	// {NAME: ARGS}: the first member's key names the call.
	for _, c := range []struct {
		in   string
		want []syntax.Event
	}{
		{`{"get_weather" : {"city": "Paris"}}`, call("get_weather", 5, `{"city":"Paris"}`)},
		{`{"f": "{\"a\": 1}"}`, call("f", 5, "")}, // args in a string: not streamed
		{`{"f": {"a": 1}, "g": {"b": 2}}`, call("f", 5, `{"a":1}`)},
	} {
		var js jsonscan.JSON
		js.Reset(64)
		a := ArgStream{Keys: Keys{NameKey: true}}
		a.Reset()
		a.SetIndex(5)
		if evs := streamed(t, &a, &js, c.in); !reflect.DeepEqual(evs, c.want) {
			t.Errorf("NameKey %q: events %+v, want %+v", c.in, evs, c.want)
		}
		if !a.Keyed() || !a.Shaped() {
			t.Errorf("NameKey %q: keyed %v, shaped %v", c.in, a.Keyed(), a.Shaped())
		}
	}

	var js jsonscan.JSON
	js.Reset(64)
	var a ArgStream
	a.Reset()
	a.Bare("g", 3, -1)
	evs := streamed(t, &a, &js, ` {"x" : [1, "é"]}`)
	want := []syntax.Event{{Type: syntax.Call, Partial: true, Name: "g", Index: 3, Delta: `{"x":[1,"é"]}`}}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("bare: events %+v, want %+v", evs, want)
	}

	// Keys naming no id still read an "id" member (a call that holds one
	// keeps it); Keys that name one read only theirs.
	_, id, args, problem := ReadCall([]byte(`{"id": "1", "name": "f", "arguments": {"a": 1}}`), Keys{Name: "name", Args: "parameters", AltArgs: "arguments"})
	if id != "1" || string(args) != `{"a":1}` || problem != "" {
		t.Errorf("ReadCall: id %q, args %s, problem %q", id, args, problem)
	}
	if _, id, _, _ := ReadCall([]byte(`{"id": "1", "name": "f", "arguments": {}}`), Keys{Name: "name", Args: "arguments", ID: "tool_call_id"}); id != "" {
		t.Errorf("ReadCall with ID tool_call_id: id %q from the member \"id\"", id)
	}
}
