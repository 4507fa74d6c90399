package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A payload is one model output holding a single write_file call whose
// content argument is a given number of bytes of source code, in one wire
// format.
type payload struct {
	format  string // hermes, qwen3coder, openai, anthropic
	size    int    // bytes of the content argument
	content string // the content argument itself
	input   []byte // the model output (or SSE stream) that carries the call
	body    []byte // the JSON the call's arguments are read from, for the json.Valid baseline
}

// source returns n bytes of Go-like source text: quotes, backslashes, tabs,
// newlines and a non-ASCII character, so every format has to escape or carry
// them.
func source(n int) string {
	const line = "\tfmt.Printf(\"%s\\n\", \"héllo <world>\") // a line of code\n"
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(line)
	}
	s := b.String()[:n]
	for !validEnd(s) { // never cut a UTF-8 character
		s = s[:len(s)-1]
	}
	return s
}

func validEnd(s string) bool { return len(s) == 0 || s[len(s)-1] < 0x80 }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func makePayload(format string, size int) payload {
	content := source(size)
	args := `{"path": "main.go", "content": ` + quote(content) + `}`
	p := payload{format: format, size: size, content: content, body: []byte(args)}
	switch format {
	case "hermes":
		p.input = []byte("I'll write the file.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": " + args + "}\n</tool_call>")
	case "qwen3coder":
		p.input = []byte("<tool_call>\n<function=write_file>\n<parameter=path>\nmain.go\n</parameter>\n<parameter=content>\n" +
			content + "\n</parameter>\n</function>\n</tool_call>")
	case "openai":
		p.input = openAIStream(args)
	case "anthropic":
		p.input = anthropicStream(args)
	default:
		panic("unknown format " + format)
	}
	return p
}

// deltas cuts s into pieces of 4 characters, as a model streams tokens,
// never inside a UTF-8 character.
func deltas(s string) []string {
	var out []string
	for len(s) > 0 {
		n := min(4, len(s))
		for n < len(s) && s[n]&0xC0 == 0x80 {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func openAIStream(args string) []byte {
	var b strings.Builder
	chunk := func(delta string, finish string) {
		fin := "null"
		if finish != "" {
			fin = quote(finish)
		}
		fmt.Fprintf(&b, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`+"\n\n", delta, fin)
	}
	chunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write_file","arguments":""}}]}`, "")
	for _, d := range deltas(args) {
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+quote(d)+`}}]}`, "")
	}
	chunk(`{}`, "tool_calls")
	b.WriteString("data: [DONE]\n\n")
	return []byte(b.String())
}

func anthropicStream(args string) []byte {
	var b strings.Builder
	event := func(name, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	event("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`)
	event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"write_file","input":{}}}`)
	for _, d := range deltas(args) {
		event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+quote(d)+`}}`)
	}
	event("content_block_stop", `{"type":"content_block_stop","index":0}`)
	event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":100}}`)
	event("message_stop", `{"type":"message_stop"}`)
	return []byte(b.String())
}

// chunks cuts input into pieces of n bytes (the whole input when n is 0).
func chunks(input []byte, n int) [][]byte {
	if n <= 0 || n >= len(input) {
		return [][]byte{input}
	}
	out := make([][]byte, 0, len(input)/n+1)
	for len(input) > 0 {
		k := min(n, len(input))
		out = append(out, input[:k])
		input = input[k:]
	}
	return out
}

// checkArgs reports whether args (a JSON object) is the payload's call.
func (p payload) checkArgs(args []byte) error {
	var a struct{ Path, Content string }
	if err := json.Unmarshal(args, &a); err != nil {
		return fmt.Errorf("arguments are not a JSON object: %v", err)
	}
	if a.Path != "main.go" || a.Content != p.content {
		return fmt.Errorf("wrong arguments: path %q, content of %d bytes (want %d)", a.Path, len(a.Content), len(p.content))
	}
	return nil
}
