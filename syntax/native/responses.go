// OpenAI Responses: its stream events and whole responses read (output
// items: messages, reasoning with its encrypted content, function and
// custom calls, and the items of tools the provider runs, which are
// hosted calls and results, never calls), the fast path for its deltas,
// the renderer (output items, function_call_output items for results) and
// the stream encoder (SSE events of items and their parts).

package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// responsesEvent reads one event of an OpenAI Responses stream.
func (p *parser) responsesEvent(d fields, typ string, span syntax.Span) {
	outIdx, hasOut := d.num("output_index")
	itemID := d.s("item_id")
	key := "item:" + itemID
	if itemID == "" && hasOut {
		key = "output:" + strconv.Itoa(outIdx)
	}
	switch typ {
	case "response.output_item.added":
		switch it := d.obj("item"); it.s("type") {
		case "function_call":
			c := p.callFor(respKey(it, outIdx, hasOut), it.s("call_id"), it.s("name"), span)
			p.responsesCallID(c, it)
			if args, ok := it.text("arguments"); ok {
				p.addArgs(c, args, span)
			}
		default:
			p.responsesItemOpen(it, respKey(it, outIdx, hasOut), span)
		}
	case "response.function_call_arguments.delta":
		c := p.respCall(key, outIdx, hasOut)
		if c == nil {
			p.Errorf(syntax.CodeMalformed, p.docStart, span, nil, "arguments delta for %s, which did not start as a function_call", key)
			return
		}
		delta, _ := d.text("delta")
		p.addArgs(c, delta, span)
	case "response.function_call_arguments.done":
		if c := p.respCall(key, outIdx, hasOut); c != nil {
			if args, ok := d.text("arguments"); ok {
				p.setWhole(c, args)
				c.span.End = span.End
			}
		}
	case "response.output_item.done":
		switch it := d.obj("item"); it.s("type") {
		case "function_call":
			c := p.callFor(respKey(it, outIdx, hasOut), it.s("call_id"), it.s("name"), span)
			p.responsesCallID(c, it)
			if args, ok := it.text("arguments"); ok {
				p.setWhole(c, args)
			}
			p.completeCall(c, "")
		case "message": // its text came in deltas
		case "reasoning": // its text came in deltas; its state is at its end
			p.EndRun()
			p.reasoningState(it, span)
		default:
			p.responsesItem(it, respKey(it, outIdx, hasOut), span, true)
		}
		p.EndRun()
	case "response.content_part.done", "response.reasoning_summary_part.done":
		p.EndRun() // each part is a run of its own
	case "response.output_text.delta":
		p.text(syntax.Respond, d.get("delta"), span)
	case "response.refusal.delta":
		p.refuse(d.get("delta"), span)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		p.text(syntax.Think, d.get("delta"), span)
	case "response.completed", "response.incomplete", "response.failed":
		p.EndRun()
		cut := ""
		if typ != "response.completed" {
			cut = strings.TrimPrefix(typ, "response.")
			if reason := d.obj("response").obj("incomplete_details").s("reason"); reason != "" {
				cut += ": " + reason
			}
		}
		p.endMessage(span, cut)
		u, ok := chatUsage(d.obj("response").obj("usage"), true)
		p.emitUsage(u, ok, span)
	}
}

func respKey(it fields, outIdx int, hasOut bool) string {
	if id := it.s("id"); id != "" {
		return "item:" + id
	}
	if hasOut {
		return "output:" + strconv.Itoa(outIdx)
	}
	return "call:" + it.s("call_id")
}

// respCall finds the call an event is about, by item id or output index.
func (p *parser) respCall(key string, outIdx int, hasOut bool) *call {
	if c := p.msg.byKey[key]; c != nil {
		return c
	}
	if hasOut {
		return p.msg.byKey["output:"+strconv.Itoa(outIdx)]
	}
	return nil
}

// responsesOutput reads the output items of a whole Responses response (or
// input items of a Responses conversation). Calls are emitted at their
// place, as in a stream, unless the response is incomplete: then the last
// one is left for endMessage to report as cut off.
func (p *parser) responsesOutput(items [][]byte, span syntax.Span, incomplete bool) {
	for i, raw := range items {
		it := p.object(raw)
		switch it.s("type") {
		case "message":
			if r := it.s("role"); r == "user" || r == "system" || r == "developer" {
				p.endTurn(span) // input of a Responses conversation: no events
				continue
			}
			for _, c := range it.arr("content") {
				p.content(append(append([]byte{'['}, c...), ']'), span)
				p.EndRun() // each content part is a run of its own, as in a stream
			}
		case "reasoning":
			// The summary's parts, or the reasoning text itself (gpt-oss
			// servers, LM Studio: reasoning_text parts in content), each a
			// run of its own, as in a stream; then the item's state.
			for _, key := range [...]string{"summary", "content"} {
				for _, s := range it.arr(key) {
					pt := p.object(s)
					switch typ := pt.s("type"); typ {
					case "summary_text", "reasoning_text", "":
						p.text(syntax.Think, pt.get("text"), span)
					default:
						p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a reasoning part of type %q is not read", typ)
					}
					p.EndRun()
				}
			}
			p.reasoningState(it, span)
		case "function_call":
			c := p.callFor("output:"+strconv.Itoa(i), it.s("call_id"), it.s("name"), span)
			p.responsesCallID(c, it)
			if args, ok := it.text("arguments"); ok {
				p.setWhole(c, args)
			}
			if !incomplete {
				p.completeCall(c, "")
			}
		case "function_call_output":
			p.endTurn(span) // the batch of calls before it executes first
			p.Emit(syntax.Event{Type: syntax.Result, Tool: p.toolName(it.s("call_id")), ID: it.s("call_id"), Status: syntax.Success, Value: contentValue(it.get("output")), Span: span})
		default:
			p.responsesItem(it, "output:"+strconv.Itoa(i), span, !incomplete)
		}
	}
	p.EndRun()
}

// reasoningState emits the state of a Responses reasoning item that the
// API takes back — its id, and its encrypted_content when the request
// asked for it — as a thought of no text after the item's text (see
// syntax.Event.Opaque).
func (p *parser) reasoningState(it fields, span syntax.Span) {
	id, enc := it.s("id"), it.s("encrypted_content")
	if id == "" {
		return
	}
	state := append([]byte(`{"id":`), syntax.AppendQuote(nil, id)...)
	if enc != "" {
		state = append(append(state, `,"encrypted_content":`...), syntax.AppendQuote(nil, enc)...)
	}
	p.flushRefusal()
	p.RunOpaque(syntax.Think, opaque(responsesForm, string(state)+"}"), span)
	p.EndRun()
}

// responsesCallID keeps a function_call item's id (fc_…, not its call_id),
// which the API takes back with the item.
func (p *parser) responsesCallID(c *call, it fields) {
	if id := it.s("id"); id != "" {
		c.opaque = opaque(responsesForm, `{"id":`+string(syntax.AppendQuote(nil, id))+`}`)
	}
}

// responsesForm is the name of the Responses form, the key of its state.
const responsesForm = "openai-responses"

// responsesRequest lists, for each built-in tool item of OpenAI Responses
// that the provider runs, the fields that are its request (the hosted
// call's args); its other fields, but id, type and status, are the result.
var responsesRequest = map[string][]string{
	"web_search_call":       {"action"},
	"file_search_call":      {"queries"},
	"code_interpreter_call": {"code", "container_id"},
	"image_generation_call": {"revised_prompt"},
	"mcp_call":              {"arguments"}, // parsed: the MCP tool's own arguments
}

// responsesClientCall names the client-run built-in items of OpenAI
// Responses (calls for the agent to run) and the field that holds their
// arguments.
var responsesClientCall = map[string]string{
	"local_shell_call": "action",
	"shell_call":       "action",
	"apply_patch_call": "operation",
	"custom_tool_call": "input",
}

// responsesItemOpen starts the call of a Responses item other than a
// function_call, when one is added to a stream: it stays open, and becomes
// an error if its item never completes.
func (p *parser) responsesItemOpen(it fields, key string, span syntax.Span) {
	typ := it.s("type")
	if _, hosted := responsesRequest[typ]; hosted {
		c := p.callFor(key, it.s("id"), hostedName(it, typ), span)
		c.hosted, c.unclosed = true, true
	} else if _, ok := responsesClientCall[typ]; ok {
		c := p.callFor(key, it.s("call_id"), clientName(it, typ), span)
		c.unclosed = true
	}
}

func hostedName(it fields, typ string) string {
	if typ == "mcp_call" {
		return it.s("name")
	}
	return strings.TrimSuffix(typ, "_call")
}

func clientName(it fields, typ string) string {
	if typ == "custom_tool_call" {
		return it.s("name")
	}
	return strings.TrimSuffix(typ, "_call")
}

// responsesItem reads a complete Responses output item other than a
// message, reasoning or function_call: a built-in tool's item, or an item
// the parser cannot read (an unsupported error). now says whether a client
// call is emitted at once; otherwise it waits for the message's end.
func (p *parser) responsesItem(it fields, key string, span syntax.Span, now bool) {
	typ := it.s("type")
	if req, hosted := responsesRequest[typ]; hosted {
		p.hostedItem(it, typ, key, req, span)
		return
	}
	field, ok := responsesClientCall[typ]
	if !ok {
		what := "an output item of type " + typ
		if typ == "" {
			what = "an output item with no type"
		}
		p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "%s is not read", what)
		return
	}
	c := p.callFor(key, it.s("call_id"), clientName(it, typ), span)
	c.unclosed = false
	if typ == "custom_tool_call" {
		c.custom = true
		if jsonscan.Kind(it.get("input")) == '"' {
			p.setWhole(c, append(append([]byte(`{"input":`), jsonscan.Compact(it.get("input"))...), '}'))
		} else {
			p.setValue(c, it.get("input")) // not a string: reported as arguments that are not an object
		}
	} else {
		p.setValue(c, it.get(field))
	}
	if c.whole == nil {
		p.setWhole(c, []byte("null"))
	}
	if now {
		p.completeCall(c, "")
	}
}

// hostedItem emits a hosted_call and its hosted_result for an item of a
// built-in tool that the provider ran.
func (p *parser) hostedItem(it fields, typ, key string, req []string, span syntax.Span) {
	c := p.callFor(key, it.s("id"), hostedName(it, typ), span)
	c.hosted, c.unclosed = true, false
	skip := func(k string) bool { return k == "id" || k == "type" || k == "status" }
	if typ == "mcp_call" {
		// The MCP tool's own arguments, a JSON string, are the args.
		if jsonscan.Kind(it.get("arguments")) == '"' {
			args, _ := it.text("arguments")
			p.setWhole(c, args)
		} else {
			p.setValue(c, it.get("arguments")) // not a string: read as the arguments themselves
		}
		skip = func(k string) bool {
			return k == "id" || k == "type" || k == "status" || k == "arguments" || k == "name"
		}
	} else {
		p.setWhole(c, pick(it, func(k string) bool { return contains(req, k) }))
		old := skip
		skip = func(k string) bool { return old(k) || contains(req, k) }
	}
	if !p.completeCall(c, "") {
		return
	}
	status := syntax.Success
	if st := it.s("status"); (st != "" && st != "completed") || (it.has("error") && jsonscan.Kind(it.get("error")) != 'n') {
		status = syntax.Failure
	}
	p.Emit(syntax.Event{Type: syntax.HostedResult, Tool: c.name, ID: c.id, Status: status, Value: pick(it, func(k string) bool { return !skip(k) }), Span: span})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pick returns the members of f whose key keep accepts, as a compact JSON
// object.
func pick(f fields, keep func(string) bool) []byte {
	b := []byte{'{'}
	for _, m := range f.m {
		k := string(m.key)
		if !keep(k) {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = syntax.AppendQuote(b, k)
		b = append(b, ':')
		b = append(b, jsonscan.Compact(m.val)...)
	}
	return append(b, '}')
}

// fastResponses reads the argument and text deltas of a Responses stream.
func (p *parser) fastResponses(span syntax.Span) bool {
	f := &p.fd
	outIdx, hasOut, ok := fastInt(f.outputIndex)
	if !ok || !isStr(f.itemID) || !isStr(f.delta) {
		return false
	}
	switch string(f.typ) {
	case `"response.output_text.delta"`:
		p.fastText(syntax.Respond, f.delta, span)
		return true
	case `"response.reasoning_summary_text.delta"`, `"response.reasoning_text.delta"`:
		p.fastText(syntax.Think, f.delta, span)
		return true
	}
	// function_call_arguments.delta: the call by item id, else by output
	// index (respCall).
	id := decode(&p.sID, f.itemID)
	var c *call
	if len(id) > 0 || !hasOut {
		p.sKey = append(append(p.sKey[:0], "item:"...), id...)
		c = p.msg.byKey[string(p.sKey)]
	}
	if c == nil && hasOut {
		p.sKey = strconv.AppendInt(append(p.sKey[:0], "output:"...), int64(outIdx), 10)
		c = p.msg.byKey[string(p.sKey)]
	}
	if c == nil {
		return false
	}
	p.addArgs(c, decode(&p.sText, f.delta), span)
	return true
}

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

// responsesStream writes OpenAI Responses events. The protocol repeats
// each item whole in its output_item.done event and every item in
// response.completed, so the items of the open response are kept.
type responsesStream struct {
	o     StreamOptions
	w     *bufio.Writer
	b     []byte // the event being made, reused
	seq   int    // sequence_number
	n     int    // responses started
	ids   int    // items made
	items []json.RawMessage

	body []byte // an event's members, reused
	idx  []byte // a part's index member, reused

	// The open message or reasoning item and its open part.
	item     *rsItem
	partText []byte
	partKind string // "output_text", "refusal", "summary_text"
}

type rsItem struct {
	where   []byte // its "item_id" and "output_index" members
	id, typ string
	out     int               // output_index
	parts   []json.RawMessage // the content or summary parts done
	state   json.RawMessage   // reasoning: the opaque state
}

func (s *responsesStream) event(typ string, body []byte) error {
	d := s.head(typ)
	if len(body) > 0 {
		d = append(d, ',')
		d = append(d, body...)
	}
	return s.emit(typ, d)
}

// head starts an event of type typ in s.b, up to its sequence number; the
// caller appends its other members (each after a comma) and calls emit.
func (s *responsesStream) head(typ string) []byte {
	d := append(s.b[:0], `{"type":"`...)
	d = append(d, typ...)
	d = append(d, `","sequence_number":`...)
	d = strconv.AppendInt(d, int64(s.seq), 10)
	s.seq++
	return d
}

func (s *responsesStream) emit(typ string, d []byte) error {
	s.b = append(d, '}')
	return sse(s.w, typ, s.b)
}

func (s *responsesStream) response(status string, extra string) []byte {
	d := syntax.AppendQuote([]byte(`"response":{"id":`), s.o.id("resp_", s.n))
	d = strconv.AppendInt(append(d, `,"object":"response","created_at":`...), s.o.Created, 10)
	d = append(d, `,"status":"`...)
	d = append(d, status...)
	d = syntax.AppendQuote(append(d, `","model":`...), s.o.model())
	d = append(d, `,"output":[`...)
	for i, it := range s.items {
		if i > 0 {
			d = append(d, ',')
		}
		d = append(d, it...)
	}
	d = append(d, ']')
	d = append(d, extra...)
	return append(d, '}')
}

func (s *responsesStream) start() error {
	s.n++
	s.seq, s.items, s.item = 0, s.items[:0], nil
	if err := s.event("response.created", s.response("in_progress", "")); err != nil {
		return err
	}
	return s.event("response.in_progress", s.response("in_progress", ""))
}

func (s *responsesStream) newID(prefix string) string {
	s.ids++
	return prefix + strconv.Itoa(s.ids)
}

// where is an item's item_id and output_index members.
func where(id string, out int) []byte {
	d := syntax.AppendQuote([]byte(`"item_id":`), id)
	d = append(d, `,"output_index":`...)
	return strconv.AppendInt(d, int64(out), 10)
}

// itemJSON is the open item, whole.
func (it *rsItem) json(status string) []byte {
	d := syntax.AppendQuote([]byte(`{"id":`), it.id)
	d = syntax.AppendQuote(append(d, `,"type":`...), it.typ)
	key := `,"content":[`
	if it.typ == "reasoning" {
		key = `,"summary":[`
		var st struct {
			EncryptedContent string `json:"encrypted_content"`
		}
		json.Unmarshal(it.state, &st)
		if st.EncryptedContent != "" {
			d = syntax.AppendQuote(append(d, `,"encrypted_content":`...), st.EncryptedContent)
		}
	} else {
		d = syntax.AppendQuote(append(d, `,"status":`...), status)
		d = append(d, `,"role":"assistant"`...)
	}
	d = append(d, key...)
	for i, p := range it.parts {
		if i > 0 {
			d = append(d, ',')
		}
		d = append(d, p...)
	}
	return append(d, "]}"...)
}

// openItem makes sure an item of typ is open (closing another).
func (s *responsesStream) openItem(typ string) error {
	if s.item != nil && s.item.typ == typ {
		return nil
	}
	if err := s.closeItem(); err != nil {
		return err
	}
	prefix := "msg_"
	if typ == "reasoning" {
		prefix = "rs_"
	}
	s.item = &rsItem{id: s.newID(prefix), typ: typ, out: len(s.items)}
	s.item.where = where(s.item.id, s.item.out)
	s.items = append(s.items, nil) // its place in the output
	d := []byte(`"output_index":`)
	d = strconv.AppendInt(d, int64(s.item.out), 10)
	d = append(d, `,"item":`...)
	return s.event("response.output_item.added", append(d, s.item.json("in_progress")...))
}

func (s *responsesStream) closeItem() error {
	it := s.item
	if it == nil {
		return nil
	}
	s.item = nil
	whole := it.json("completed")
	s.items[it.out] = whole
	d := []byte(`"output_index":`)
	d = strconv.AppendInt(d, int64(it.out), 10)
	d = append(d, `,"item":`...)
	return s.event("response.output_item.done", append(d, whole...))
}

func (s *responsesStream) textStart(t syntax.Type, refusal bool) error {
	typ, kind := "message", "output_text"
	switch {
	case t == syntax.Think:
		typ, kind = "reasoning", "summary_text"
	case refusal:
		kind = "refusal"
	}
	if err := s.openItem(typ); err != nil {
		return err
	}
	s.partKind, s.partText = kind, s.partText[:0]
	d := append(where(s.item.id, s.item.out), s.partIndex()...)
	d = append(d, `,"part":`...)
	d = append(d, s.part("")...)
	if typ == "reasoning" {
		return s.event("response.reasoning_summary_part.added", d)
	}
	return s.event("response.content_part.added", d)
}

func (s *responsesStream) partIndex() []byte {
	key := `,"content_index":`
	if s.item.typ == "reasoning" {
		key = `,"summary_index":`
	}
	s.idx = strconv.AppendInt(append(s.idx[:0], key...), int64(len(s.item.parts)), 10)
	return s.idx
}

func (s *responsesStream) part(text string) []byte {
	switch s.partKind {
	case "refusal":
		return append(syntax.AppendQuote([]byte(`{"type":"refusal","refusal":`), text), '}')
	case "summary_text":
		return append(syntax.AppendQuote([]byte(`{"type":"summary_text","text":`), text), '}')
	}
	return append(syntax.AppendQuote([]byte(`{"type":"output_text","text":`), text), `,"annotations":[]}`...)
}

func (s *responsesStream) textDelta(text string) error {
	s.partText = append(s.partText, text...)
	d := append(append(s.body[:0], s.item.where...), s.partIndex()...)
	d = syntax.AppendQuote(append(d, `,"delta":`...), text)
	s.body = d
	switch s.partKind {
	case "refusal":
		return s.event("response.refusal.delta", d)
	case "summary_text":
		return s.event("response.reasoning_summary_text.delta", d)
	}
	return s.event("response.output_text.delta", d)
}

func (s *responsesStream) textStop(state json.RawMessage) error {
	text := string(s.partText)
	d := append(where(s.item.id, s.item.out), s.partIndex()...)
	var err error
	switch s.partKind {
	case "refusal":
		err = s.event("response.refusal.done", syntax.AppendQuote(append(d, `,"refusal":`...), text))
	case "summary_text":
		err = s.event("response.reasoning_summary_text.done", syntax.AppendQuote(append(d, `,"text":`...), text))
	default:
		err = s.event("response.output_text.done", syntax.AppendQuote(append(d, `,"text":`...), text))
	}
	if err != nil {
		return err
	}
	p := s.part(text)
	d = append(append(d, `,"part":`...), p...)
	name := "response.content_part.done"
	if s.partKind == "summary_text" {
		name = "response.reasoning_summary_part.done"
		if state != nil {
			s.item.state = state
		}
	}
	s.item.parts = append(s.item.parts, p)
	return s.event(name, d)
}

func (s *responsesStream) fcItem(c *streamCall, status string, args []byte) []byte {
	d := syntax.AppendQuote([]byte(`{"id":`), c.itemID)
	d = syntax.AppendQuote(append(d, `,"type":"function_call","status":`...), status)
	d = syntax.AppendQuote(append(d, `,"arguments":`...), string(args))
	d = syntax.AppendQuote(append(d, `,"call_id":`...), c.id)
	d = syntax.AppendQuote(append(d, `,"name":`...), c.name)
	return append(d, '}')
}

func (s *responsesStream) callStart(c *streamCall) error {
	if err := s.closeItem(); err != nil {
		return err
	}
	c.itemID, c.block = s.newID("fc_"), len(s.items)
	c.where = where(c.itemID, c.block)
	s.items = append(s.items, nil)
	d := strconv.AppendInt([]byte(`"output_index":`), int64(c.block), 10)
	d = append(d, `,"item":`...)
	return s.event("response.output_item.added", append(d, s.fcItem(c, "in_progress", nil)...))
}

func (s *responsesStream) callDelta(c *streamCall, frag []byte) error {
	const typ = "response.function_call_arguments.delta"
	d := append(append(s.head(typ), ','), c.where...)
	return s.emit(typ, params.Quote(append(d, `,"delta":`...), frag))
}

func (s *responsesStream) callStop(c *streamCall, args []byte, _ json.RawMessage) error {
	d := syntax.AppendQuote(append(where(c.itemID, c.block), `,"arguments":`...), string(args))
	if err := s.event("response.function_call_arguments.done", d); err != nil {
		return err
	}
	whole := s.fcItem(c, "completed", args)
	s.items[c.block] = whole
	d = strconv.AppendInt([]byte(`"output_index":`), int64(c.block), 10)
	d = append(d, `,"item":`...)
	return s.event("response.output_item.done", append(d, whole...))
}

func (s *responsesStream) finish(why stop, msg string, u *tokens) error {
	if err := s.closeItem(); err != nil {
		return err
	}
	// Items that never completed (a call cut off) are left out.
	kept := s.items[:0]
	for _, it := range s.items {
		if it != nil {
			kept = append(kept, it)
		}
	}
	s.items = kept
	usage := ""
	if u != nil {
		usage = string(u.appendChat([]byte(`,"usage":`), true))
	}
	switch why {
	case stopCut:
		return s.event("response.incomplete", s.response("incomplete", `,"incomplete_details":{"reason":"max_output_tokens"}`+usage))
	case stopError:
		d := syntax.AppendQuote([]byte(`"code":"invalid_tool_call","message":`), msg)
		return s.event("error", append(d, `,"param":null`...))
	}
	return s.event("response.completed", s.response("completed", usage))
}
