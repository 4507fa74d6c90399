package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/prompt"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// notes are what a request's translation could not carry: each reported
// once, in the request's log line, never dropped without a word.
type notes struct{ list []string }

func (n *notes) add(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !slices.Contains(n.list, msg) {
		n.list = append(n.list, msg)
	}
}

// err adds what a renderer or conversation.Write reports as not carried.
func (n *notes) err(err error) {
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			n.add("%s", line)
		}
	}
}

// unread notes the members of req that the translation did not read.
func (n *notes) unread(req map[string]json.RawMessage, read ...string) {
	for _, k := range slices.Sorted(maps.Keys(req)) {
		if !slices.Contains(read, k) {
			n.add("%s: not carried to the backend", k)
		}
	}
}

// rewrite reads a history (raw, the array of member key: messages or input
// items) with native and writes it in the syntax or form s, one message
// each. With folding, the providers' state goes into the calls' ids
// (fold: s is the Chat Completions form a request is translated through);
// without, state in ids comes back out (unfold: s is the backend's).
func rewrite(raw json.RawMessage, key string, s syntax.Syntax, n *notes, folding bool) ([]json.RawMessage, error) {
	msgs, err := conversation.Decode(bytes.NewReader(append(append([]byte(`{"`+key+`":`), raw...), '}')))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", key, err)
	}
	c := conversation.Read(msgs, native.Syntax, syntax.Options{})
	if folding {
		fold(c)
	} else {
		unfold(c)
	}
	written, err := conversation.Write(c, s, syntax.Options{})
	n.err(err) // another provider's state (signatures), what s cannot carry
	var out []json.RawMessage
	for _, m := range written {
		b, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		out = append(out, b)
	}
	return out, nil
}

// chatRequest is a Chat Completions client's request as the backend's API
// is written from: as it is (model and stream are set for the backend).
func chatRequest(req map[string]json.RawMessage, _ *notes) (map[string]json.RawMessage, error) {
	if _, ok := req["messages"]; !ok {
		return nil, fmt.Errorf("messages: the request has none")
	}
	delete(req, "stream_options") // set for the backend by the handler's needs, not the client's
	return req, nil
}

// messagesRequest is an Anthropic Messages client's request as a Chat
// Completions request: its system text first, its messages in the openai
// form (tool_use blocks as tool_calls, tool_result blocks as tool
// messages), its tools as functions, and the sampling fields Chat has.
// What Chat has no field for (thinking, metadata, context_management,
// output_config, …) is noted as not carried.
func messagesRequest(req map[string]json.RawMessage, n *notes) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	raw, ok := req["messages"]
	if !ok {
		return nil, fmt.Errorf("messages: the request has none")
	}
	openai, _ := registry.Lookup("openai")
	written, err := rewrite(raw, "messages", openai, n, true)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if sys := systemText(req["system"]); sys != "" {
		m, _ := json.Marshal(map[string]string{"role": "system", "content": sys})
		list = append(list, m)
	}
	out["messages"], _ = json.Marshal(append(list, written...))
	n.unread(req, "model", "messages", "system", "tools", "tool_choice", "max_tokens", "temperature", "top_p", "stop_sequences", "stream")
	if t, ok := req["tools"]; ok {
		tools, err := chatTools(t, n)
		if err != nil {
			return nil, err
		}
		if len(tools) > 0 {
			out["tools"], _ = json.Marshal(tools)
		}
	}
	if c, ok := req["tool_choice"]; ok {
		if tc := chatToolChoice(c); tc != nil {
			out["tool_choice"] = tc
		}
	}
	for _, k := range []string{"max_tokens", "temperature", "top_p"} {
		if v, ok := req[k]; ok {
			out[k] = v
		}
	}
	if v, ok := req["stop_sequences"]; ok {
		out["stop"] = v
	}
	return out, nil
}

// systemText is an Anthropic system prompt's text: a string, or its text
// blocks joined by blank lines.
func systemText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// chatTools are Anthropic tools as Chat functions. A tool the provider runs
// itself (web_search_…, a typed tool with no input_schema) has no function
// form: it is left out.
func chatTools(raw json.RawMessage, n *notes) ([]map[string]any, error) {
	var tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if err := json.Unmarshal(raw, &tools); err != nil {
		return nil, fmt.Errorf("tools: %v", err)
	}
	var out []map[string]any
	for _, t := range tools {
		if t.Name == "" || len(t.InputSchema) == 0 {
			n.add("tool %q: a tool the provider runs itself has no function form; not carried", t.Name)
			continue
		}
		fn := map[string]any{"name": t.Name, "parameters": t.InputSchema}
		if t.Description != "" {
			fn["description"] = t.Description
		}
		out = append(out, map[string]any{"type": "function", "function": fn})
	}
	return out, nil
}

// chatToolChoice is an Anthropic tool_choice in Chat's words, or nil.
func chatToolChoice(raw json.RawMessage) json.RawMessage {
	var c struct{ Type, Name string }
	if json.Unmarshal(raw, &c) != nil {
		return nil
	}
	switch c.Type {
	case "auto":
		return json.RawMessage(`"auto"`)
	case "any":
		return json.RawMessage(`"required"`)
	case "none":
		return json.RawMessage(`"none"`)
	case "tool":
		b, _ := json.Marshal(map[string]any{"type": "function", "function": map[string]string{"name": c.Name}})
		return b
	}
	return nil
}

// turn is what a whole response is made of, from token-mode events: the
// model's events (without fragments, results, errors and the end; a call
// without an id given one unique to the response, id), whether a call was
// cut off, and the error of a call that turned out malformed after it began
// — which, as in a stream, makes the response the API's error.
func turn(evs []syntax.Event, id string) (kept []syntax.Event, calls, cut bool, err error) {
	n, open, textCut := 0, 0, false
	for _, e := range evs {
		switch {
		case e.Partial && e.Type == syntax.Call && e.Param == "" && e.Delta == "":
			open++
		case e.Partial:
		case e.Type == syntax.Think, e.Type == syntax.Respond, e.Type == syntax.Execute:
			kept = append(kept, e)
		case e.Type == syntax.Call:
			if e.ID == "" {
				n++
				e.ID = fmt.Sprintf("call_%s_%d", id, n)
			}
			kept = append(kept, e)
			calls = true
			open = max(open-1, 0)
		case e.Type == syntax.Error:
			c := e.Code == syntax.CodeTruncated || e.Code == syntax.CodeOverLimit
			if open > 0 {
				cut = cut || c
			} else {
				textCut = textCut || native.IsCut(e)
			}
			if open > 0 && !c && err == nil {
				err = fmt.Errorf("the model wrote a malformed call: %s", e.Message)
			}
			if open > 0 {
				open--
			}
		}
	}
	// A cut outside any call (text, a thought) ends the response so only
	// when it holds no call, as the stream encoders do.
	return kept, calls, cut || textCut && !calls, err
}

// firstMessage renders evs in the native form and returns the first
// message it wrote as a JSON object's members.
func firstMessage(form string, evs []syntax.Event, n *notes) (map[string]json.RawMessage, error) {
	s, err := registry.Lookup(form)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	n.err(syntax.Render(s.Render(&buf, syntax.Options{}), evs))
	m := map[string]json.RawMessage{}
	line, _ := bufio.NewReader(&buf).ReadBytes('\n')
	if len(bytes.TrimSpace(line)) > 0 {
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("the response could not be written: %v", err)
		}
	}
	return m, nil
}

// wholeChat is a chat.completion response of evs.
func wholeChat(evs []syntax.Event, o native.StreamOptions, n *notes) ([]byte, error) {
	kept, calls, cut, err := turn(evs, o.ID)
	if err != nil {
		return nil, err
	}
	msg, err := firstMessage("openai", kept, n)
	if err != nil {
		return nil, err
	}
	msg["role"] = json.RawMessage(`"assistant"`)
	if _, ok := msg["content"]; !ok {
		msg["content"] = json.RawMessage(`""`)
	}
	finish := "stop"
	switch {
	case cut:
		finish = "length"
	case calls:
		finish = "tool_calls"
	}
	return json.Marshal(map[string]any{
		"id": "chatcmpl-" + o.ID, "object": "chat.completion", "created": o.Created, "model": o.Model,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil}},
		"usage":   usage(evs, "openai", `{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}`),
	})
}

// wholeMessage is an Anthropic Messages response of evs.
func wholeMessage(evs []syntax.Event, o native.StreamOptions, n *notes) ([]byte, error) {
	kept, calls, cut, err := turn(evs, o.ID)
	if err != nil {
		return nil, err
	}
	msg, err := firstMessage("anthropic", kept, n)
	if err != nil {
		return nil, err
	}
	if _, ok := msg["content"]; !ok {
		msg["content"] = json.RawMessage(`[]`)
	}
	msg["id"], _ = json.Marshal("msg_" + o.ID)
	msg["type"] = json.RawMessage(`"message"`)
	msg["role"] = json.RawMessage(`"assistant"`)
	msg["model"], _ = json.Marshal(o.Model)
	switch {
	case cut:
		msg["stop_reason"] = json.RawMessage(`"max_tokens"`)
	case calls:
		msg["stop_reason"] = json.RawMessage(`"tool_use"`)
	case msg["stop_reason"] == nil:
		msg["stop_reason"] = json.RawMessage(`"end_turn"`)
	}
	msg["stop_sequence"] = json.RawMessage(`null`)
	msg["usage"] = usage(evs, "anthropic", `{"input_tokens":0,"output_tokens":0}`)
	return json.Marshal(msg)
}

// responsesRequest is an OpenAI Responses client's request (stateless) as a
// Chat Completions request: its instructions as the system message, its
// input (a string, or items: messages, function_call and
// function_call_output items, reasoning) as messages, its flat function
// tools nested as Chat's, and the sampling fields. A request that names a
// stored response (previous_response_id) cannot be served: nothing is
// stored.
func responsesRequest(req map[string]json.RawMessage, n *notes) (map[string]json.RawMessage, error) {
	if p, ok := req["previous_response_id"]; ok && string(p) != "null" {
		return nil, fmt.Errorf("previous_response_id: this server stores no response; send the whole input (store: false)")
	}
	out := map[string]json.RawMessage{}
	var list []json.RawMessage
	var instr string
	if json.Unmarshal(req["instructions"], &instr) == nil && instr != "" {
		m, _ := json.Marshal(map[string]string{"role": "system", "content": instr})
		list = append(list, m)
	}
	raw, ok := req["input"]
	if !ok {
		return nil, fmt.Errorf("input: the request has none")
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		m, _ := json.Marshal(map[string]string{"role": "user", "content": text})
		list = append(list, m)
	} else {
		openai, _ := registry.Lookup("openai")
		written, err := rewrite(raw, "input", openai, n, true)
		if err != nil {
			return nil, err
		}
		list = append(list, written...)
	}
	// store, include and reasoning ask for what a stateless server with a
	// Chat backend has not: they are read and have no effect.
	n.unread(req, "model", "input", "instructions", "tools", "tool_choice", "max_output_tokens", "temperature", "top_p", "stream", "store", "include", "previous_response_id")
	out["messages"], _ = json.Marshal(list)
	if t, ok := req["tools"]; ok {
		var tools []struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(t, &tools); err != nil {
			return nil, fmt.Errorf("tools: %v", err)
		}
		var fns []map[string]any
		for _, tl := range tools {
			if tl.Type != "function" || tl.Name == "" {
				n.add("tool of type %q: no function form; not carried", tl.Type) // a hosted tool (web_search, …) or a namespace
				continue
			}
			fn := map[string]any{"name": tl.Name}
			if tl.Description != "" {
				fn["description"] = tl.Description
			}
			if len(tl.Parameters) > 0 {
				fn["parameters"] = tl.Parameters
			}
			fns = append(fns, map[string]any{"type": "function", "function": fn})
		}
		if len(fns) > 0 {
			out["tools"], _ = json.Marshal(fns)
		}
	}
	if c, ok := req["tool_choice"]; ok {
		var name struct{ Type, Name string }
		switch {
		case json.Unmarshal(c, &name) == nil && name.Type == "function":
			out["tool_choice"], _ = json.Marshal(map[string]any{"type": "function", "function": map[string]string{"name": name.Name}})
		case string(c) == `"auto"` || string(c) == `"required"` || string(c) == `"none"`:
			out["tool_choice"] = c
		}
	}
	if v, ok := req["max_output_tokens"]; ok {
		out["max_tokens"] = v
	}
	for _, k := range []string{"temperature", "top_p"} {
		if v, ok := req[k]; ok {
			out[k] = v
		}
	}
	return out, nil
}

// wholeResponse is a Responses response object of evs.
func wholeResponse(evs []syntax.Event, o native.StreamOptions, n *notes) ([]byte, error) {
	kept, _, cut, err := turn(evs, o.ID)
	if err != nil {
		return nil, err
	}
	resp, err := firstMessage("openai-responses", kept, n)
	if err != nil {
		return nil, err
	}
	if _, ok := resp["output"]; !ok {
		resp["output"] = json.RawMessage(`[]`)
	}
	resp["id"], _ = json.Marshal("resp_" + o.ID)
	resp["object"] = json.RawMessage(`"response"`)
	resp["created_at"], _ = json.Marshal(o.Created)
	resp["model"], _ = json.Marshal(o.Model)
	resp["status"] = json.RawMessage(`"completed"`)
	if cut {
		resp["status"] = json.RawMessage(`"incomplete"`)
		resp["incomplete_details"] = json.RawMessage(`{"reason":"max_output_tokens"}`)
	}
	resp["usage"] = usage(evs, "openai-responses", `{"input_tokens":0,"output_tokens":0,"total_tokens":0}`)
	return json.Marshal(resp)
}

// promptDefault is the syntax tools are taught in when a route that sends
// them in a prompt reads its model's text by auto-detection and the model's
// name calls for no syntax: Hermes, the form most open models were trained
// on.
const promptDefault = "hermes"

// toolsInPrompt rewrites a Chat Completions request for a model that gets
// its tools in a system prompt: the tools (and tool_choice) leave the
// request, a prompt that teaches them in s is added to the system message,
// and the history's calls and results are written as s writes them (the
// model reads back its own format).
func toolsInPrompt(req map[string]json.RawMessage, s syntax.Syntax, n *notes) error {
	list, err := rewrite(req["messages"], "messages", s, n, false)
	if err != nil {
		return err
	}
	if tools, ok := req["tools"]; ok && len(tools) > 2 {
		set, err := schema.Load(tools)
		if err != nil {
			return fmt.Errorf("tools: %v", err)
		}
		p, err := prompt.Build(s, set)
		if err != nil {
			return fmt.Errorf("tools: %v", err)
		}
		// One system message, first (chat templates refuse another): the
		// client's system and developer text, then the tools' prompt.
		system, rest := splitSystem(list)
		text := strings.Join(append(system, p.Text), "\n\n")
		b, _ := json.Marshal(map[string]string{"role": "system", "content": text})
		list = append([]json.RawMessage{b}, rest...)
	}
	req["messages"], _ = json.Marshal(list)
	delete(req, "tools")
	delete(req, "tool_choice")
	delete(req, "parallel_tool_calls")
	return nil
}

// usage is the backend's counts for the response (its last usage event)
// in the client's API's form, or none (zeros) when it gave none.
func usage(evs []syntax.Event, form, none string) json.RawMessage {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == syntax.Usage {
			if u, ok := native.UsageJSON(form, evs[i].Value); ok {
				return u
			}
		}
	}
	return json.RawMessage(none)
}

// failedCall is the first call of a backend's turn that failed in a way
// the model can mend when told: malformed, not JSON, or failing its tool's
// schema (a call cut off by the token limit is not asked again). It
// returns why, and what the model wrote of it; "" when none failed.
func failedCall(evs []syntax.Event) (problem, raw string) {
	for _, e := range evs {
		switch {
		case e.Type == syntax.Error && (e.Code == syntax.CodeMalformed || e.Code == syntax.CodeInvalidJSON) && e.Message != native.ProviderError:
			return e.Message, e.Raw
		case e.Type == syntax.Call && !e.Partial && e.Invalid != "":
			return "call " + e.Name + ": " + e.Invalid, e.Name + " " + string(e.ArgsJSON())
		}
	}
	return "", ""
}

// retryRequest is the Chat Completions request chat asked again: its
// messages, then what the model wrote of its failed call and a user
// message that says why it failed.
func retryRequest(chat map[string]json.RawMessage, raw, problem string) (map[string]json.RawMessage, error) {
	var msgs []json.RawMessage
	if err := json.Unmarshal(chat["messages"], &msgs); err != nil {
		return nil, err
	}
	for _, m := range []map[string]string{
		{"role": "assistant", "content": raw},
		{"role": "user", "content": "Your last tool call could not be used: " + problem + ". Write the call again, whole and valid."},
	} {
		b, _ := json.Marshal(m)
		msgs = append(msgs, b)
	}
	retry := maps.Clone(chat)
	b, err := json.Marshal(msgs)
	retry["messages"] = b
	return retry, err
}
