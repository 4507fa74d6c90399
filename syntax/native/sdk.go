package native

import (
	"iter"

	"github.com/toolparse/toolparse/syntax"
)

// Chunks parses a provider stream given as the raw JSON documents of its
// chunks, as the providers' Go SDKs hand them out, and returns its events:
// each chunk is one document (a Chat Completions chunk, an event of the
// Anthropic or Responses stream, a Gemini or Ollama response), read as the
// parser reads a line of JSON lines. It needs no SDK: the SDK's stream is
// turned into an iterator of chunks by a few lines of the caller's, below.
//
// The events come as the chunks that complete them are read, then the
// stream's end event once chunks is done. An error from chunks ends the
// stream as if it had ended there (a call still open is reported as
// truncated, never emitted): its last events and its end event come, then
// the error, once. Stopping the loop early stops reading chunks.
//
// openai-go (Chat Completions and Responses) and anthropic-sdk-go streams
// have Next, Current and Err, and every chunk has RawJSON; [StreamChunks]
// turns such a stream into chunks:
//
//	stream := client.Chat.Completions.NewStreaming(ctx, params) // or client.Responses.NewStreaming, or anthropic's client.Messages.NewStreaming
//	for e, err := range native.Chunks(native.StreamChunks[openai.ChatCompletionChunk](stream), syntax.Options{}) { … }
//
// (the type argument is the stream's chunk type: openai.ChatCompletionChunk,
// responses.ResponseStreamEventUnion, anthropic.MessageStreamEventUnion).
// The Gemini SDK (google.golang.org/genai) yields decoded responses, which
// encode back to the API's JSON:
//
//	chunks := func(yield func([]byte, error) bool) {
//		for resp, err := range client.Models.GenerateContentStream(ctx, model, contents, config) {
//			b, jerr := json.Marshal(resp)
//			if !yield(b, errors.Join(err, jerr)) || err != nil {
//				return
//			}
//		}
//	}
//	for e, err := range native.Chunks(chunks, syntax.Options{}) { … }
//
// and Ollama's client (github.com/ollama/ollama/api) calls a function with
// each response, which json.Marshal encodes in the API's form too: send
// those bytes on a channel, or gather them, and range over them the same way.
func Chunks[T ~string | ~[]byte](chunks iter.Seq2[T, error], opts syntax.Options) iter.Seq2[syntax.Event, error] {
	return func(yield func(syntax.Event, error) bool) {
		var queue []syntax.Event
		p := newParser(func(e syntax.Event) { queue = append(queue, e) }, opts)
		drain := func() bool {
			for i, e := range queue {
				if !yield(e, nil) {
					queue = queue[i+1:]
					return false
				}
			}
			queue = queue[:0]
			return true
		}
		newline := []byte{'\n'}
		for chunk, err := range chunks {
			if err != nil {
				p.Close()
				if drain() {
					yield(syntax.Event{}, err)
				}
				return
			}
			p.Write([]byte(chunk))
			p.Write(newline) // a chunk is a document of its own, as a line is
			if !drain() {
				return
			}
		}
		p.Close()
		drain()
	}
}

// StreamChunks returns the raw JSON of each chunk of an SDK stream that
// has Next, Current and Err and whose chunks have RawJSON: the streams of
// openai-go and anthropic-sdk-go (ssestream.Stream), for [Chunks]. The
// stream's error, if any, is yielded once at the end. The caller closes the
// stream.
func StreamChunks[T interface{ RawJSON() string }](s interface {
	Next() bool
	Current() T
	Err() error
}) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for s.Next() {
			if !yield(s.Current().RawJSON(), nil) {
				return
			}
		}
		if err := s.Err(); err != nil {
			yield("", err)
		}
	}
}
