package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newResponsesRenderer returns a renderer that writes events as OpenAI
// Responses output items, one JSON document per line: the model's output up
// to an execute (or to results, or the end) is a response,
// {"object":"response","status":"completed","output":[…]}, holding its items
// in stream order — a reasoning item per thought (its text a summary_text
// part), a message item per text run (an output_text part, or a refusal
// part for a refusal), a function_call item per call (call_id, name, and
// arguments as a JSON string), a custom_tool_call item per custom call
// (its input the text), and an item per hosted call with its result. A run
// of results is a request's input, {"input":[…]}, holding a
// function_call_output item per result (call_id, output a string), as the
// next request sends them.
//
// A hosted call of a built-in tool (web_search, file_search,
// code_interpreter, image_generation) whose args are that item's request
// fields and whose result is an object is written as that tool's item
// (web_search_call, …), the args and the result's fields merged, status
// completed or failed; any other hosted call is an mcp_call item (its
// arguments a JSON string, its result's fields beside them).
//
// A result's output is text (wire.ResultText: a value that is not a string
// as its JSON text, a failure after "Error: "). It cannot carry the tool
// name of a result whose
// call is not in the output (function_call_output has none), a hosted call
// without its result or a result without its call, a hosted result that is
// not an object (written as an mcp_call's output), calls no execute
// followed, or an execute with no call. Each loss is reported. A call
// without an id is given one (call_1, call_2, … in stream order), and the
// results that answer it the same call_id.
func newResponsesRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	if opts.Mode == syntax.TokenMode {
		r, _ := NewStream(responsesName, w, StreamOptions{})
		return r
	}
	r := wire.New("openai-responses", &responsesUnits{w: bufio.NewWriter(w), names: map[string]string{}})
	r.IDs, r.Form = true, responsesName
	return r
}

const responsesName = "openai-responses"

type (
	rPart struct {
		Type    string  `json:"type"`
		Text    *string `json:"text,omitempty"`
		Refusal *string `json:"refusal,omitempty"`
	}
	rItem struct {
		Type      string   `json:"type"`
		ID        string   `json:"id,omitempty"`
		Role      string   `json:"role,omitempty"`
		Content   []rPart  `json:"content,omitempty"`
		Summary   *[]rPart `json:"summary,omitempty"` // a reasoning item's, [] when empty
		CallID    string   `json:"call_id,omitempty"`
		Name      string   `json:"name,omitempty"`
		Arguments *string  `json:"arguments,omitempty"`
		Input     *string  `json:"input,omitempty"`
		Output    *string  `json:"output,omitempty"`
		// EncryptedContent is a reasoning item's, given back as it came.
		EncryptedContent string `json:"encrypted_content,omitempty"`
	}
	rResponse struct {
		Object string `json:"object,omitempty"`
		Status string `json:"status,omitempty"`
		Output []any  `json:"output"`
	}
	rInput struct {
		Input []any `json:"input"`
	}
)

type responsesUnits struct {
	w        *bufio.Writer
	output   []any             // the open response's items
	calls    int               // its calls
	hosted   *syntax.Event     // a hosted call waiting for its result
	names    map[string]string // call id → tool name, of the batch's calls
	answered bool              // results were written since the batch's calls
}

// before is called before every unit but a hosted result: a hosted call
// waiting for its result gets none.
func (u *responsesUnits) before() error {
	if u.hosted == nil {
		return nil
	}
	c := u.hosted
	u.hosted = nil
	item, err := hostedItem(c, nil)
	u.output = append(u.output, item)
	return errors.Join(err, wire.CannotCarry(responsesName, "hosted call %s without its result (written as an item in progress, which reads back with a failed hosted_result)", c.Name))
}

func (u *responsesUnits) Text(t syntax.Type, s string) error {
	err := u.before()
	if t == syntax.Think {
		// Thoughts in a row are the summary parts of one reasoning item,
		// until the item's state (its id) closes it.
		if it := u.openReasoning(); it != nil {
			*it.Summary = append(*it.Summary, rPart{Type: "summary_text", Text: &s})
			return err
		}
		u.output = append(u.output, &rItem{Type: "reasoning", Summary: &[]rPart{{Type: "summary_text", Text: &s}}})
	} else {
		u.output = append(u.output, rItem{Type: "message", Role: "assistant", Content: []rPart{{Type: "output_text", Text: &s}}})
	}
	return err
}

// openReasoning returns the last output item when it is a reasoning item
// that no id closed yet, or nil.
func (u *responsesUnits) openReasoning() *rItem {
	if n := len(u.output); n > 0 {
		if it, ok := u.output[n-1].(*rItem); ok && it.Type == "reasoning" && it.ID == "" {
			return it
		}
	}
	return nil
}

// TextOpaque writes a reasoning item's state (its id, its encrypted
// content) on the item its thoughts opened, or on an item of its own.
func (u *responsesUnits) TextOpaque(t syntax.Type, s string, state json.RawMessage) error {
	var st struct {
		ID               string `json:"id"`
		EncryptedContent string `json:"encrypted_content"`
	}
	json.Unmarshal(state, &st)
	if t != syntax.Think || st.ID == "" {
		return errors.Join(u.Text(t, s), wire.CannotCarry(responsesName, "the %s state of a %s event that is no reasoning item's: not written", responsesName, t))
	}
	if s != "" {
		if err := u.Text(t, s); err != nil {
			return err
		}
	}
	err := u.before()
	it := u.openReasoning()
	if it == nil {
		it = &rItem{Type: "reasoning", Summary: &[]rPart{}}
		u.output = append(u.output, it)
	}
	it.ID, it.EncryptedContent = st.ID, st.EncryptedContent
	return err
}

func (u *responsesUnits) Refusal(s string) error {
	err := u.before()
	u.output = append(u.output, rItem{Type: "message", Role: "assistant", Content: []rPart{{Type: "refusal", Refusal: &s}}})
	return err
}

func (u *responsesUnits) Calls(calls []syntax.Event) error {
	err := u.before()
	if u.answered {
		u.names = map[string]string{} // a new batch: results answer its calls (memory does not grow with the stream)
		u.answered = false
	}
	for _, c := range calls {
		u.names[c.ID] = c.Name
		if input, ok := customInput(c); ok {
			u.output = append(u.output, rItem{Type: "custom_tool_call", CallID: c.ID, Name: c.Name, Input: &input})
			continue
		}
		if c.Custom {
			err = errors.Join(err, wire.CannotCarry(responsesName, "the custom flag of call %s, whose args are not {\"input\": text} (written as a function call)", c.Name))
		}
		args := string(c.ArgsJSON())
		u.output = append(u.output, rItem{Type: "function_call", ID: responsesItemID(c), CallID: c.ID, Name: c.Name, Arguments: &args})
	}
	u.calls += len(calls)
	return err
}

// customInput returns the text of a custom call, whose args are exactly
// {"input": text}.
func customInput(c syntax.Event) (string, bool) {
	if !c.Custom {
		return "", false
	}
	var input string
	n := 0
	ok := true
	jsonscan.MembersRaw(c.ArgsJSON(), func(k, v []byte) bool {
		n++
		input, ok = jsonscan.Unquote(v)
		return ok && string(k) == "input"
	})
	return input, ok && n == 1
}

// Hosted writes a hosted call and its result as one item.
func (u *responsesUnits) Hosted(e syntax.Event) error {
	if e.Type == syntax.HostedCall {
		err := u.before()
		u.hosted = &e
		return err
	}
	if c := u.hosted; c != nil && (c.ID == e.ID || (e.ID == "" && c.Name == e.Tool)) {
		u.hosted = nil
		item, err := hostedItem(c, &e)
		u.output = append(u.output, item)
		return err
	}
	err := u.before()
	item, e2 := hostedItem(&syntax.Event{Type: syntax.HostedCall, Name: e.Tool, ID: e.ID}, &e)
	u.output = append(u.output, item)
	return errors.Join(err, e2, wire.CannotCarry(responsesName, "a hosted result of %s without its call (written as an item whose call has no args, which reads back as a hosted_call too)", e.Tool))
}

// hostedItem writes a hosted call and its result (nil: none, the item is
// in progress) as one Responses item.
func hostedItem(c, r *syntax.Event) (json.RawMessage, error) {
	var err error
	typ := c.Name + "_call"
	req, builtin := responsesRequest[typ]
	builtin = builtin && typ != "mcp_call"
	if builtin {
		jsonscan.MembersRaw(c.ArgsJSON(), func(k, _ []byte) bool {
			builtin = contains(req, string(k))
			return builtin
		})
	}
	reserved := []string{"id", "type", "status", "arguments", "name"}
	if builtin {
		reserved = append([]string{"id", "type", "status"}, req...)
	}
	content := []byte("{}")
	status := "in_progress"
	if r != nil {
		status = "completed"
		if r.Status == syntax.Failure {
			status = "failed"
		}
		content = r.ValueJSON()
		clash := ""
		jsonscan.MembersRaw(content, func(k, _ []byte) bool {
			if contains(reserved, string(k)) {
				clash = string(k)
			}
			return clash == ""
		})
		if jsonscan.Kind(content) != '{' || clash != "" {
			what := "that is not an object"
			if clash != "" {
				what = fmt.Sprintf("with a field %q, which its item has already", clash)
			}
			builtin = false
			err = wire.CannotCarry(responsesName, "a hosted result of %s %s (written as the output of an mcp_call item, which reads back as {\"output\": content})", r.Tool, what)
			content = wrap("output", content)
		}
	}
	b := []byte{'{'}
	if c.ID != "" {
		b = append(append(b, `"id":`...), syntax.AppendQuote(nil, c.ID)...)
		b = append(b, ',')
	}
	if builtin {
		b = append(append(b, `"type":`...), syntax.AppendQuote(nil, typ)...)
		b = append(append(b, `,"status":`...), syntax.AppendQuote(nil, status)...)
		b = appendMembers(b, c.ArgsJSON())
	} else {
		b = append(b, `"type":"mcp_call","status":`...)
		b = append(append(b, syntax.AppendQuote(nil, status)...), `,"name":`...)
		b = append(append(b, syntax.AppendQuote(nil, c.Name)...), `,"arguments":`...)
		b = append(b, syntax.AppendQuote(nil, string(c.ArgsJSON()))...)
	}
	b = appendMembers(b, content)
	return append(b, '}'), err
}

// appendMembers appends the members of the JSON object obj, each after a
// comma.
func appendMembers(b, obj []byte) []byte {
	jsonscan.MembersRaw(obj, func(k, v []byte) bool {
		b = append(b, ',')
		b = syntax.AppendQuote(b, string(k))
		b = append(b, ':')
		b = append(b, jsonscan.Compact(v)...)
		return true
	})
	return b
}

func (u *responsesUnits) Execute() error {
	err := u.before()
	if u.calls == 0 {
		return errors.Join(err, wire.CannotCarry(responsesName, "an execute with no call"))
	}
	return errors.Join(err, u.response())
}

// response writes the open response, if it has items.
func (u *responsesUnits) response() error {
	if len(u.output) == 0 {
		return nil
	}
	err := writeLine(u.w, rResponse{Object: "response", Status: "completed", Output: u.output})
	u.output, u.calls = nil, 0
	return err
}

// pending drops the calls no execute followed, and the response they are
// in, which would give them one.
func (u *responsesUnits) pending() error {
	if u.calls == 0 {
		return nil
	}
	n := u.calls
	u.output, u.calls = nil, 0
	return wire.CannotCarry(responsesName, "%d call(s) with no execute: a response's function calls are executed; the response is not written", n)
}

func (u *responsesUnits) Results(rs []syntax.Event) error {
	err := errors.Join(u.before(), u.pending(), u.response())
	items := make([]any, len(rs))
	u.answered = true
	for i, r := range rs {
		content := wire.ResultText(r)
		if name, ok := u.names[r.ID]; (!ok || name != r.Tool) && r.Tool != "" {
			err = errors.Join(err, wire.CannotCarry(responsesName, "the tool name of a result of %s whose call is not in the output (function_call_output has none)", r.Tool))
		}
		items[i] = rItem{Type: "function_call_output", CallID: r.ID, Output: &content}
	}
	return errors.Join(err, writeLine(u.w, rInput{Input: items}))
}

func (u *responsesUnits) Flush() error { return u.w.Flush() }

func (u *responsesUnits) End() error {
	err := errors.Join(u.before(), u.pending(), u.response())
	return errors.Join(err, u.w.Flush())
}

// responsesItemID is the item id (fc_…) a call came with from the Responses
// API, or "".
func responsesItemID(c syntax.Event) string {
	var st map[string]struct {
		ID string `json:"id"`
	}
	json.Unmarshal(c.Opaque, &st)
	return st[responsesName].ID
}
