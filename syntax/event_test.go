package syntax_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolparse/toolparse/syntax"
)

func TestEventJSONForm(t *testing.T) {
	for _, c := range []struct {
		e    syntax.Event
		want string
	}{
		{syntax.Event{Type: syntax.Think, Content: "a <b> & c\n"}, `{"type":"think","content":"a <b> & c\n"}`},
		{syntax.Event{Type: syntax.Call, Name: "read", Args: json.RawMessage(`{"z":1,"a":2}`), ID: "c1"}, `{"type":"call","name":"read","args":{"z":1,"a":2},"id":"c1"}`},
		{syntax.Event{Type: syntax.Call, Name: "now"}, `{"type":"call","name":"now","args":{}}`},
		{syntax.Event{Type: syntax.Execute}, `{"type":"execute"}`},
		{syntax.Event{Type: syntax.Result, Tool: "t", Status: syntax.Failure, Value: json.RawMessage(`"no"`)}, `{"type":"result","tool":"t","status":"failure","content":"no"}`},
		{syntax.Event{Type: syntax.Result, Tool: "t", ID: "call_1", Status: syntax.Success, Value: json.RawMessage(`1`)}, `{"type":"result","tool":"t","id":"call_1","status":"success","content":1}`},
		{syntax.Event{Type: syntax.Error, Code: syntax.CodeMalformed, Message: "bad", Pos: syntax.Pos{Offset: 5, Line: 2, Column: 3}, Raw: "x"}, `{"type":"error","code":"malformed","message":"bad","offset":5,"line":2,"column":3,"raw":"x"}`},
		{syntax.Event{Type: syntax.Respond, Content: "no", Refusal: true}, `{"type":"respond","content":"no","refusal":true}`},
		{syntax.Event{Type: syntax.Call, Name: "patch", Args: json.RawMessage(`{"input":"x"}`), ID: "c", Custom: true}, `{"type":"call","name":"patch","args":{"input":"x"},"id":"c","custom":true}`},
		{syntax.Event{Type: syntax.HostedCall, Name: "web_search", Args: json.RawMessage(`{"query":"go"}`), ID: "s1"}, `{"type":"hosted_call","name":"web_search","args":{"query":"go"},"id":"s1"}`},
		{syntax.Event{Type: syntax.HostedResult, Tool: "web_search", ID: "s1", Status: syntax.Success, Value: json.RawMessage(`[]`)}, `{"type":"hosted_result","tool":"web_search","id":"s1","status":"success","content":[]}`},
		{syntax.Event{Type: syntax.End}, `{"type":"end"}`},
		{syntax.Event{Type: "user", Content: "What's in main.py?"}, `{"type":"user","content":"What's in main.py?"}`},
		{syntax.Event{Type: "metric", Value: json.RawMessage(`{"input":50}`)}, `{"type":"metric","content":{"input":50}}`},
		{syntax.Event{Type: syntax.Respond, Content: "\x01\"\\"}, `{"type":"respond","content":"\u0001\"\\"}`},
	} {
		if got := c.e.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		var back syntax.Event
		if err := json.Unmarshal([]byte(c.want), &back); err != nil {
			t.Fatal(err)
		}
		if back.String() != c.want {
			t.Errorf("decode then encode: %s, want %s", back, c.want)
		}
	}
}

func TestEventSpanAndUnknownFields(t *testing.T) {
	e := syntax.Event{Type: syntax.Respond, Content: "x", Span: syntax.Span{Start: 3, End: 9}}
	b, _ := json.Marshal(e)
	if string(b) != `{"type":"respond","content":"x","span":[3,9]}` {
		t.Fatalf("MarshalJSON = %s", b)
	}
	var back syntax.Event
	if err := json.Unmarshal([]byte(`{"type":"respond","content":"x","span":[3,9],"later":{"a":1}}`), &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(e, back); d != "" {
		t.Error(d)
	}
	for _, bad := range []string{`{"content":"x"}`, `{"type":"call","name":"a","args":"{}"}`, `{"type":"think","content":3}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s decoded without error", bad)
		}
	}
}

func TestInvalidUTF8BecomesReplacement(t *testing.T) {
	e := syntax.Event{Type: syntax.Respond, Content: "a\xffb"}
	if got := e.String(); got != "{\"type\":\"respond\",\"content\":\"a\uFFFDb\"}" {
		t.Errorf("got %s", got)
	}
}

func TestAppendQuoteMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "tab\tnew\nline", "é ✓ 🙂", "\u2028", strings.Repeat("\\\"", 3), "\x00\x1f\x7f"} {
		var back string
		if err := json.Unmarshal(syntax.AppendQuote(nil, s), &back); err != nil || back != s {
			t.Errorf("AppendQuote(%q) decodes to %q, %v", s, back, err)
		}
	}
}
