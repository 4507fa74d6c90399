package native_test

import (
	"errors"
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// chunk stands for an SDK's chunk type (openai.ChatCompletionChunk,
// anthropic.MessageStreamEventUnion, …): it keeps the JSON it was read from.
type chunk struct{ raw string }

func (c chunk) RawJSON() string { return c.raw }

// sdkStream stands for an SDK's stream (ssestream.Stream): Next, Current,
// Err.
type sdkStream struct {
	chunks []chunk
	cur    chunk
	err    error
}

func (s *sdkStream) Next() bool {
	if len(s.chunks) == 0 {
		return false
	}
	s.cur, s.chunks = s.chunks[0], s.chunks[1:]
	return true
}
func (s *sdkStream) Current() chunk { return s.cur }
func (s *sdkStream) Err() error     { return s.err }

// A Chat Completions stream as openai-go hands it out, one chunk at a time.
func ExampleChunks() {
	stream := &sdkStream{chunks: []chunk{
		{`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Checking."}}]}`},
		{`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}`},
		{`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]}`},
		{`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`},
	}}
	for e, err := range native.Chunks(native.StreamChunks[chunk](stream), syntax.Options{}) {
		if err != nil {
			fmt.Println("stream failed:", err)
			break
		}
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Checking."}
	// {"type":"call","name":"get_weather","args":{"city":"Paris"},"id":"call_1"}
	// {"type":"execute"}
	// {"type":"end"}
}

// A stream that fails in the middle of a call: the call is never emitted,
// the stream's events end, then the error comes.
func ExampleChunks_error() {
	stream := &sdkStream{chunks: []chunk{
		{`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`},
		{`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"delete","input":{}}}`},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"/tm"}}`},
	}, err: errors.New("connection reset")}
	for e, err := range native.Chunks(native.StreamChunks[chunk](stream), syntax.Options{}) {
		if err != nil {
			fmt.Println("stream failed:", err)
			break
		}
		if e.Type == syntax.Error {
			fmt.Println(e.Type, e.Code)
		} else {
			fmt.Println(e.Type)
		}
	}
	// Output:
	// error truncated
	// end
	// stream failed: connection reset
}
