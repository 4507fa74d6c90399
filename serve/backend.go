package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/toolparse/toolparse/registry"
)

// backendAPI is a backend's API: how a request, made in Chat Completions'
// form whatever the client's API, is sent in it. Its streamed answer is
// read by native, which reads every provider's stream.
type backendAPI struct {
	// build makes the request's path (after the base URL) and body from the
	// Chat Completions request chat, for the backend model.
	build func(chat map[string]json.RawMessage, model string, n *notes) (path string, body []byte, err error)
	// auth sets a key (when there is one) and the headers the API wants on
	// every request.
	auth func(req *http.Request, key string)
	// models is where the API lists its models, and the JSON member and
	// item member that hold their ids.
	models struct{ path, list, id string }
}

var backendAPIs = map[string]*backendAPI{
	"openai": {
		build: func(chat map[string]json.RawMessage, model string, n *notes) (string, []byte, error) {
			if bytes.Contains(chat["messages"], []byte(statePrefix)) {
				// State in the calls' ids: the ids go back to the calls'
				// own (a template may write them; Mistral's take 9
				// characters), the state has no field in this API.
				openai, _ := registry.Lookup("openai")
				msgs, err := rewrite(chat["messages"], "messages", openai, n, false)
				if err != nil {
					return "", nil, err
				}
				chat["messages"], _ = json.Marshal(msgs)
			}
			chat["model"], _ = json.Marshal(model)
			chat["stream"] = json.RawMessage("true")
			chat["stream_options"] = json.RawMessage(`{"include_usage":true}`) // the counts, in a last chunk
			b, err := json.Marshal(chat)
			return "/chat/completions", b, err
		},
		auth:   header("Authorization", "Bearer "),
		models: struct{ path, list, id string }{"/models", "data", "id"},
	},
	"openai-responses": {build: responsesBody, auth: header("Authorization", "Bearer "),
		models: struct{ path, list, id string }{"/models", "data", "id"}},
	"anthropic": {build: anthropicBody, auth: func(req *http.Request, key string) {
		req.Header.Set("anthropic-version", "2023-06-01")
		header("x-api-key", "")(req, key)
	}, models: struct{ path, list, id string }{"/v1/models", "data", "id"}},
	"ollama": {build: ollamaBody, auth: header("Authorization", "Bearer "),
		models: struct{ path, list, id string }{"/api/tags", "models", "name"}},
	"gemini": {build: geminiBody, auth: header("x-goog-api-key", ""),
		models: struct{ path, list, id string }{"/v1beta/models", "models", "name"}},
}

// header sets a key, when there is one, as header name with prefix.
func header(name, prefix string) func(*http.Request, string) {
	return func(req *http.Request, key string) {
		if key != "" {
			req.Header.Set(name, prefix+key)
		}
	}
}

// chatParts are the parts of a Chat Completions request the other APIs
// are written from.
type chatParts struct {
	system    string
	history   json.RawMessage // the messages but the system ones
	tools     []chatTool
	choice    string // auto, required, none, or "" (the API's default)
	forced    string // the one tool the choice names
	maxTokens json.RawMessage
	temp, p   json.RawMessage
	stop      []string
	n         *notes
}

type chatTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

func parts(chat map[string]json.RawMessage, n *notes) (*chatParts, error) {
	c := &chatParts{maxTokens: chat["max_tokens"], temp: chat["temperature"], p: chat["top_p"], n: n}
	n.unread(chat, "model", "messages", "tools", "tool_choice", "max_tokens", "max_completion_tokens", "temperature", "top_p", "stop", "stream")
	if c.maxTokens == nil {
		c.maxTokens = chat["max_completion_tokens"]
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(chat["messages"], &msgs); err != nil {
		return nil, fmt.Errorf("messages: %v", err)
	}
	system, rest := splitSystem(msgs)
	c.system = strings.Join(system, "\n\n")
	list, _ := json.Marshal(rest)
	c.history = list
	if t, ok := chat["tools"]; ok {
		var tools []struct {
			Type     string   `json:"type"`
			Function chatTool `json:"function"`
		}
		if err := json.Unmarshal(t, &tools); err != nil {
			return nil, fmt.Errorf("tools: %v", err)
		}
		for _, tl := range tools {
			if tl.Function.Name == "" {
				n.add("tool of type %q: no function form; not carried", tl.Type)
				continue
			}
			c.tools = append(c.tools, tl.Function)
		}
	}
	if tc, ok := chat["tool_choice"]; ok {
		var s string
		var named struct {
			Function struct{ Name string } `json:"function"`
		}
		switch {
		case json.Unmarshal(tc, &s) == nil:
			c.choice = s
		case json.Unmarshal(tc, &named) == nil && named.Function.Name != "":
			c.choice, c.forced = "tool", named.Function.Name
		}
	}
	var one string
	switch {
	case json.Unmarshal(chat["stop"], &one) == nil && one != "":
		c.stop = []string{one}
	default:
		json.Unmarshal(chat["stop"], &c.stop)
	}
	return c, nil
}

// messagesIn writes the history in a native form.
func (c *chatParts) messagesIn(form string) ([]json.RawMessage, error) {
	s, err := registry.Lookup(form)
	if err != nil {
		return nil, err
	}
	return rewrite(c.history, "messages", s, c.n, false)
}

// splitSystem takes the system and developer messages out of msgs: their
// texts, in order, and the other messages.
func splitSystem(msgs []json.RawMessage) (system []string, rest []json.RawMessage) {
	for _, m := range msgs {
		var sys struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m, &sys) == nil && (sys.Role == "system" || sys.Role == "developer") {
			if t := systemText(sys.Content); t != "" {
				system = append(system, t)
			}
			continue
		}
		rest = append(rest, m)
	}
	return system, rest
}

func set(m map[string]any, k string, v json.RawMessage) {
	if len(v) > 0 && string(v) != "null" {
		m[k] = v
	}
}

// anthropicBody is the request for Anthropic's Messages API (POST
// /v1/messages, the base URL without /v1 as its SDK takes it).
func anthropicBody(chat map[string]json.RawMessage, model string, n *notes) (string, []byte, error) {
	c, err := parts(chat, n)
	if err != nil {
		return "", nil, err
	}
	msgs, err := c.messagesIn("anthropic")
	if err != nil {
		return "", nil, err
	}
	body := map[string]any{"model": model, "messages": msgs, "stream": true, "max_tokens": 4096}
	set(body, "max_tokens", c.maxTokens)
	set(body, "temperature", c.temp)
	set(body, "top_p", c.p)
	if c.system != "" {
		body["system"] = c.system
	}
	if len(c.stop) > 0 {
		body["stop_sequences"] = c.stop
	}
	if len(c.tools) > 0 {
		var tools []map[string]any
		for _, t := range c.tools {
			schema := t.Parameters
			if len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			tl := map[string]any{"name": t.Name, "input_schema": schema}
			if t.Description != "" {
				tl["description"] = t.Description
			}
			tools = append(tools, tl)
		}
		body["tools"] = tools
		switch c.choice {
		case "auto":
			body["tool_choice"] = map[string]string{"type": "auto"}
		case "required":
			body["tool_choice"] = map[string]string{"type": "any"}
		case "none":
			body["tool_choice"] = map[string]string{"type": "none"}
		case "tool":
			body["tool_choice"] = map[string]string{"type": "tool", "name": c.forced}
		}
	}
	b, err := json.Marshal(body)
	return "/v1/messages", b, err
}

// ollamaBody is the request for Ollama's own chat API (POST /api/chat, the
// base URL without /v1).
func ollamaBody(chat map[string]json.RawMessage, model string, n *notes) (string, []byte, error) {
	c, err := parts(chat, n)
	if err != nil {
		return "", nil, err
	}
	msgs, err := c.messagesIn("ollama")
	if err != nil {
		return "", nil, err
	}
	if c.system != "" {
		sys, _ := json.Marshal(map[string]string{"role": "system", "content": c.system})
		msgs = append([]json.RawMessage{sys}, msgs...)
	}
	body := map[string]any{"model": model, "messages": msgs, "stream": true}
	if len(c.tools) > 0 {
		var tools []map[string]any
		for _, t := range c.tools {
			tools = append(tools, map[string]any{"type": "function", "function": t})
		}
		body["tools"] = tools
	}
	opts := map[string]any{}
	set(opts, "num_predict", c.maxTokens)
	set(opts, "temperature", c.temp)
	set(opts, "top_p", c.p)
	if len(c.stop) > 0 {
		opts["stop"] = c.stop
	}
	if len(opts) > 0 {
		body["options"] = opts
	}
	b, err := json.Marshal(body)
	return "/api/chat", b, err
}

// responsesBody is the request for OpenAI's Responses API (POST /responses,
// the base URL with /v1), stateless.
func responsesBody(chat map[string]json.RawMessage, model string, n *notes) (string, []byte, error) {
	c, err := parts(chat, n)
	if err != nil {
		return "", nil, err
	}
	input, err := c.messagesIn("openai-responses")
	if err != nil {
		return "", nil, err
	}
	body := map[string]any{"model": model, "input": input, "stream": true, "store": false}
	if c.system != "" {
		body["instructions"] = c.system
	}
	set(body, "max_output_tokens", c.maxTokens)
	set(body, "temperature", c.temp)
	set(body, "top_p", c.p)
	if len(c.tools) > 0 {
		var tools []map[string]any
		for _, t := range c.tools {
			tl := map[string]any{"type": "function", "name": t.Name}
			if t.Description != "" {
				tl["description"] = t.Description
			}
			if len(t.Parameters) > 0 {
				tl["parameters"] = t.Parameters
			}
			tools = append(tools, tl)
		}
		body["tools"] = tools
		switch c.choice {
		case "auto", "required", "none":
			body["tool_choice"] = c.choice
		case "tool":
			body["tool_choice"] = map[string]string{"type": "function", "name": c.forced}
		}
	}
	b, err := json.Marshal(body)
	return "/responses", b, err
}

// geminiBody is the request for Gemini's streamGenerateContent (the base
// URL as the genai SDK takes it, without the version).
func geminiBody(chat map[string]json.RawMessage, model string, n *notes) (string, []byte, error) {
	c, err := parts(chat, n)
	if err != nil {
		return "", nil, err
	}
	contents, err := c.messagesIn("gemini")
	if err != nil {
		return "", nil, err
	}
	body := map[string]any{"contents": contents}
	if c.system != "" {
		body["systemInstruction"] = map[string]any{"parts": []map[string]string{{"text": c.system}}}
	}
	if len(c.tools) > 0 {
		var decls []map[string]any
		for _, t := range c.tools {
			d := map[string]any{"name": t.Name}
			if t.Description != "" {
				d["description"] = t.Description
			}
			if len(t.Parameters) > 0 {
				d["parametersJsonSchema"] = t.Parameters
			}
			decls = append(decls, d)
		}
		body["tools"] = []map[string]any{{"functionDeclarations": decls}}
		mode := map[string]string{"auto": "AUTO", "required": "ANY", "none": "NONE", "tool": "ANY"}[c.choice]
		if mode != "" {
			cfg := map[string]any{"mode": mode}
			if c.forced != "" {
				cfg["allowedFunctionNames"] = []string{c.forced}
			}
			body["toolConfig"] = map[string]any{"functionCallingConfig": cfg}
		}
	}
	gen := map[string]any{}
	set(gen, "maxOutputTokens", c.maxTokens)
	set(gen, "temperature", c.temp)
	set(gen, "topP", c.p)
	if len(c.stop) > 0 {
		gen["stopSequences"] = c.stop
	}
	if len(gen) > 0 {
		body["generationConfig"] = gen
	}
	b, err := json.Marshal(body)
	path := "/v1beta/models/" + url.PathEscape(strings.TrimPrefix(model, "models/")) + ":streamGenerateContent?alt=sse"
	return path, b, err
}
