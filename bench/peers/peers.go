package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicsse "github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/model/parsers"
	"github.com/ollama/ollama/tools"
	"github.com/openai/openai-go/v3"
	openaisse "github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// errSlow says a run passed its time budget and was stopped.
var errSlow = errors.New("over the time budget")

// A parser is one implementation under test: it reads the chunks of a
// payload and checks that it produced the payload's call. It stops with
// errSlow once the deadline has passed (checked between chunks).
type parser struct {
	name    string
	formats []string // payload formats it reads
	run     func(p payload, chunks [][]byte, deadline time.Time) error
}

func (r parser) reads(format string) bool {
	for _, f := range r.formats {
		if f == format {
			return true
		}
	}
	return false
}

// toolparseSyntax is the toolparse syntax that reads each payload format.
var toolparseSyntax = map[string]string{
	"hermes":     "hermes",
	"qwen3coder": "qwen3coder",
	"openai":     "native",
	"anthropic":  "native",
}

var toolparse = parser{
	name:    "toolparse",
	formats: []string{"hermes", "qwen3coder", "openai", "anthropic"},
	run: func(p payload, chunks [][]byte, deadline time.Time) error {
		s, err := registry.Default().Lookup(toolparseSyntax[p.format])
		if err != nil {
			return err
		}
		var calls [][]byte
		var problems []string
		parser := s.New(func(e syntax.Event) {
			switch {
			case e.Type == syntax.Call && !e.Partial && e.Name == "write_file":
				calls = append(calls, e.Args)
			case e.Type == syntax.Error:
				problems = append(problems, e.Message)
			}
		}, syntax.Options{})
		for i, c := range chunks {
			if i&1023 == 0 && time.Now().After(deadline) {
				return errSlow
			}
			parser.Write(c)
		}
		parser.Close()
		if len(problems) > 0 {
			return fmt.Errorf("error events: %v", problems)
		}
		return oneCall(p, calls)
	},
}

func oneCall(p payload, calls [][]byte) error {
	if len(calls) != 1 {
		return fmt.Errorf("%d calls, want 1", len(calls))
	}
	return p.checkArgs(calls[0])
}

// writeFileTool is the tool definition Ollama's parsers are given.
var writeFileTool = func() []api.Tool {
	var t []api.Tool
	err := json.Unmarshal([]byte(`[{"type":"function","function":{"name":"write_file","description":"Write a file.",
		"parameters":{"type":"object","required":["path","content"],"properties":{
		"path":{"type":"string"},"content":{"type":"string"}}}}}]`), &t)
	if err != nil {
		panic(err)
	}
	return t
}()

func ollamaArgs(calls []api.ToolCall) [][]byte {
	var out [][]byte
	for _, c := range calls {
		if c.Function.Name != "write_file" {
			continue
		}
		b, err := json.Marshal(c.Function.Arguments)
		if err != nil {
			b = []byte(err.Error())
		}
		out = append(out, b)
	}
	return out
}

// ollamaModelParser runs one of Ollama's model/parsers (the parser Ollama
// picks for a model: qwen3 for Qwen3's <tool_call> JSON, qwen3-coder for
// its XML).
func ollamaModelParser(label, name, format string) parser {
	return parser{
		name:    label,
		formats: []string{format},
		run: func(p payload, chunks [][]byte, deadline time.Time) error {
			mp := parsers.ParserForName(name)
			if mp == nil {
				return fmt.Errorf("ollama has no parser %q", name)
			}
			mp.Init(writeFileTool, nil, nil)
			var calls [][]byte
			for i, c := range chunks {
				if time.Now().After(deadline) {
					return errSlow
				}
				_, _, cs, err := mp.Add(string(c), i == len(chunks)-1)
				if err != nil {
					return err
				}
				calls = append(calls, ollamaArgs(cs)...)
			}
			return oneCall(p, calls)
		},
	}
}

// ollamaTools runs Ollama's generic template-derived parser (package tools),
// which Ollama uses for models without a parser of their own, with the tag
// Qwen's template gives it.
var ollamaTools = parser{
	name:    "ollama tools.Parser",
	formats: []string{"hermes"},
	run: func(p payload, chunks [][]byte, deadline time.Time) error {
		tp := tools.NewParserWithTag(writeFileTool, "<tool_call>")
		var calls [][]byte
		for _, c := range chunks {
			if time.Now().After(deadline) {
				return errSlow
			}
			cs, _ := tp.Add(string(c))
			calls = append(calls, ollamaArgs(cs)...)
		}
		return oneCall(p, calls)
	},
}

// chunkedBody is an HTTP response body that hands out the stream in the
// given chunks, as a network connection would, and stops with errSlow past
// the deadline.
type chunkedBody struct {
	chunks   [][]byte
	cur      []byte
	deadline time.Time
	n        int
}

func (b *chunkedBody) Read(p []byte) (int, error) {
	for len(b.cur) == 0 {
		if len(b.chunks) == 0 {
			return 0, io.EOF
		}
		b.cur, b.chunks = b.chunks[0], b.chunks[1:]
		if b.n++; b.n&1023 == 0 && time.Now().After(b.deadline) {
			return 0, errSlow
		}
	}
	n := copy(p, b.cur)
	b.cur = b.cur[n:]
	return n, nil
}

func (b *chunkedBody) Close() error { return nil }

func sseResponse(chunks [][]byte, deadline time.Time) *http.Response {
	return &http.Response{
		StatusCode: 200,
		Header:     http.Header{"Content-Type": []string{"text/event-stream"}},
		Body:       &chunkedBody{chunks: chunks, deadline: deadline},
	}
}

// openaiGo reads the stream the way openai-go does for a streamed chat
// completion: its SSE decoder over the response body, each chunk decoded
// into a ChatCompletionChunk and added to a ChatCompletionAccumulator.
var openaiGo = parser{
	name:    "openai-go accumulator",
	formats: []string{"openai"},
	run: func(p payload, chunks [][]byte, deadline time.Time) error {
		stream := openaisse.NewStream[openai.ChatCompletionChunk](openaisse.NewDecoder(sseResponse(chunks, deadline)), nil)
		acc := openai.ChatCompletionAccumulator{}
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		if err := stream.Err(); err != nil {
			return err
		}
		if len(acc.Choices) != 1 {
			return fmt.Errorf("%d choices", len(acc.Choices))
		}
		var calls [][]byte
		for _, tc := range acc.Choices[0].Message.ToolCalls {
			if tc.Function.Name == "write_file" {
				calls = append(calls, []byte(tc.Function.Arguments))
			}
		}
		return oneCall(p, calls)
	},
}

// anthropicGo reads the stream the way anthropic-sdk-go does: its SSE
// decoder, each event decoded into a MessageStreamEventUnion and given to
// Message.Accumulate.
var anthropicGo = parser{
	name:    "anthropic-sdk-go Accumulate",
	formats: []string{"anthropic"},
	run: func(p payload, chunks [][]byte, deadline time.Time) error {
		stream := anthropicsse.NewStream[anthropic.MessageStreamEventUnion](anthropicsse.NewDecoder(sseResponse(chunks, deadline)), nil)
		var msg anthropic.Message
		for stream.Next() {
			if err := msg.Accumulate(stream.Current()); err != nil {
				return err
			}
		}
		if err := stream.Err(); err != nil {
			return err
		}
		var calls [][]byte
		for _, b := range msg.Content {
			if b.Type == "tool_use" && b.Name == "write_file" {
				calls = append(calls, bytes.Clone(b.Input))
			}
		}
		return oneCall(p, calls)
	},
}

// jsonValid is the baseline: encoding/json.Valid over the call's arguments,
// whole, once. Chunking does not apply to it.
var jsonValid = parser{
	name:    "encoding/json.Valid",
	formats: []string{"hermes", "qwen3coder", "openai", "anthropic"},
	run: func(p payload, _ [][]byte, _ time.Time) error {
		if !json.Valid(p.body) {
			return errors.New("invalid")
		}
		return nil
	},
}

var peers = []parser{
	ollamaModelParser("ollama Qwen3Parser", "qwen3", "hermes"),
	ollamaTools,
	ollamaModelParser("ollama Qwen3CoderParser", "qwen3-coder", "qwen3coder"),
	openaiGo,
	anthropicGo,
}
