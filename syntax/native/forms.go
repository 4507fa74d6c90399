package native

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/toolparse/toolparse/syntax"
)

// The forms' entry points: NewStream's choice of a provider's stream
// encoder (each in its provider's file) and what the renderers share. Ids,
// models and times are fixed unless StreamOptions say otherwise, so that
// the same events always give the same bytes: a server that re-serves a
// stream sets its own (package serve).

const streamModel = "toolparse"

// StreamOptions are what a stream says of the response beside the events:
// its id (each form makes its own from it: chatcmpl-…, msg_…, resp_…), the
// model's name, and its creation time in Unix seconds. The zero value gives
// the fixed ones of the CLI's streams ("toolparse", time 0).
type StreamOptions struct {
	ID      string
	Model   string
	Created int64
}

func (o StreamOptions) model() string {
	if o.Model == "" {
		return streamModel
	}
	return o.Model
}

// id is the response's id with prefix, and n (the response's number in the
// stream) when there is no id of the options'.
func (o StreamOptions) id(prefix string, n int) string {
	if o.ID != "" {
		if n > 1 {
			return prefix + o.ID + "_" + strconv.Itoa(n)
		}
		return prefix + o.ID
	}
	return prefix + "toolparse_" + strconv.Itoa(n)
}

// NewStream returns the stream encoder of a native form (anthropic, openai,
// openai-responses, gemini, ollama), writing to w as events arrive, with o's
// id, model and time. It is what the form's renderer is given
// Options.Mode TokenMode, with o set.
func NewStream(form string, w io.Writer, o StreamOptions) (syntax.Renderer, error) {
	e, err := newStream(form, w, o)
	if err != nil {
		return nil, err
	}
	if o.ID != "" {
		e.idPrefix = "call_" + o.ID + "_" // ids made for calls are unique across responses
	}
	return e, nil
}

// A Failer ends an open response in its form's truncation or error form
// (the stream encoders of NewStream are Failers).
type Failer interface {
	Fail(cut bool, msg string) error
}

func newStream(form string, w io.Writer, o StreamOptions) (*encoder, error) {
	switch form {
	case "anthropic":
		s := &anthropicStream{o: o}
		e := newEncoder("anthropic", w, true, false, func(w *bufio.Writer) streamForm { s.w = w; return s })
		s.note = e.cannot
		return e, nil
	case "openai":
		return newEncoder("openai", w, false, true, func(w *bufio.Writer) streamForm { return newChatStream(w, o) }), nil
	case responsesName:
		return newEncoder(responsesName, w, false, false, func(w *bufio.Writer) streamForm { return &responsesStream{w: w, o: o} }), nil
	case "gemini":
		e := newEncoder("gemini", w, false, true, func(w *bufio.Writer) streamForm { return &geminiStream{w: w, o: o} })
		e.noRefusal = true
		return e, nil
	case "ollama":
		e := newEncoder("ollama", w, false, true, func(w *bufio.Writer) streamForm { return &ollamaStream{w: w, o: o} })
		e.noRefusal = true
		return e, nil
	}
	return nil, fmt.Errorf("native: no stream form %q (anthropic, openai, openai-responses, gemini, ollama)", form)
}

// writeLine writes v as one JSON line, without HTML escaping.
func writeLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
