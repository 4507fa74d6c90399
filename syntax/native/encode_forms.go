package native

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
)

// The stream forms. Ids, models and times are fixed unless StreamOptions
// say otherwise, so that the same events always give the same bytes: a
// server that re-serves a stream sets its own (package serve).

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

// chatStream writes OpenAI Chat Completions chunks.
type chatStream struct {
	w    *bufio.Writer
	b    []byte // the chunk being made, reused
	top  string // every chunk's start, up to its choices
	head string // every chunk's start, up to its delta
	kind syntax.Type
	ref  bool
}

func newChatStream(w *bufio.Writer, o StreamOptions) *chatStream {
	h := syntax.AppendQuote([]byte(`{"id":`), o.id("chatcmpl-", 1))
	h = strconv.AppendInt(append(h, `,"object":"chat.completion.chunk","created":`...), o.Created, 10)
	h = syntax.AppendQuote(append(h, `,"model":`...), o.model())
	return &chatStream{w: w, top: string(h), head: string(append(h, `,"choices":[{"index":0,"delta":`...))}
}

// send ends the chunk b (its delta written) with finish_reason and writes it.
func (s *chatStream) send(b []byte, finish string) error {
	b = append(b, `,"finish_reason":`...)
	if finish == "" {
		b = append(b, "null"...)
	} else {
		b = syntax.AppendQuote(b, finish)
	}
	b = append(b, "}]}"...)
	s.b = b
	return sse(s.w, "", b)
}

func (s *chatStream) start() error {
	return s.send(append(append(s.b[:0], s.head...), `{"role":"assistant","content":""}`...), "")
}

func (s *chatStream) textStart(t syntax.Type, refusal bool) error {
	s.kind, s.ref = t, refusal
	return nil
}

func (s *chatStream) textDelta(text string) error {
	key := `{"content":`
	switch {
	case s.kind == syntax.Think:
		key = `{"reasoning_content":`
	case s.ref:
		key = `{"refusal":`
	}
	b := append(append(s.b[:0], s.head...), key...)
	b = syntax.AppendQuote(b, text)
	return s.send(append(b, '}'), "")
}

func (s *chatStream) textStop(json.RawMessage) error { return nil }

func (s *chatStream) callStart(c *streamCall) error {
	b := append(append(s.b[:0], s.head...), `{"tool_calls":[{"index":`...)
	b = strconv.AppendInt(b, int64(c.slot), 10)
	b = syntax.AppendQuote(append(b, `,"id":`...), c.id)
	b = syntax.AppendQuote(append(b, `,"type":"function","function":{"name":`...), c.name)
	return s.send(append(b, `,"arguments":""}}]}`...), "")
}

func (s *chatStream) callDelta(c *streamCall, frag []byte) error {
	b := append(append(s.b[:0], s.head...), `{"tool_calls":[{"index":`...)
	b = strconv.AppendInt(b, int64(c.slot), 10)
	b = params.Quote(append(b, `,"function":{"arguments":`...), frag)
	return s.send(append(b, `}}]}`...), "")
}

func (s *chatStream) callStop(*streamCall, []byte, json.RawMessage) error { return nil }

func (s *chatStream) finish(why stop, msg string, u *tokens) error {
	var err error
	switch why {
	case stopError:
		e := syntax.AppendQuote([]byte(`{"error":{"message":`), msg)
		err = sse(s.w, "", append(e, `,"type":"invalid_tool_call","code":null}}`...))
	default:
		err = s.send(append(append(s.b[:0], s.head...), `{}`...), [...]string{stopEnd: "stop", stopCalls: "tool_calls", stopCut: "length"}[why])
		if err == nil && u != nil {
			// The usage chunk, as stream_options.include_usage asks for it.
			err = sse(s.w, "", append(u.appendChat(append(append(s.b[:0], s.top...), `,"choices":[],"usage":`...), false), '}'))
		}
	}
	if err != nil {
		return err
	}
	return sse(s.w, "", []byte("[DONE]"))
}

// anthropicStream writes Anthropic Messages events.
type anthropicStream struct {
	w       *bufio.Writer
	blocks  int    // content blocks started in the message
	msgs    int    // messages started
	tool    bool   // the open block is a tool_use block
	b       []byte // the event being made, reused
	refusal []byte // a refusal's text: the message stops with "refusal", the text its explanation
	refuse  bool   // the open run is a refusal
	kind    syntax.Type
	note    func(format string, args ...any) // reports what is not carried
	o       StreamOptions
}

func (s *anthropicStream) event(name string, data []byte) error { return sse(s.w, name, data) }

func (s *anthropicStream) start() error {
	s.msgs++
	s.blocks, s.refuse, s.refusal = 0, false, s.refusal[:0]
	d := syntax.AppendQuote([]byte(`{"type":"message_start","message":{"id":`), s.o.id("msg_", s.msgs))
	d = syntax.AppendQuote(append(d, `,"type":"message","role":"assistant","model":`...), s.o.model())
	d = append(d, `,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}`...)
	return s.event("message_start", d)
}

func (s *anthropicStream) blockStart(block []byte) error {
	d := []byte(`{"type":"content_block_start","index":`)
	d = strconv.AppendInt(d, int64(s.blocks), 10)
	d = append(d, `,"content_block":`...)
	d = append(d, block...)
	return s.event("content_block_start", append(d, '}'))
}

// deltaHead starts a content_block_delta event in s.b, up to its delta's
// members; the caller appends them and calls deltaEnd.
func (s *anthropicStream) deltaHead(typ string) []byte {
	d := append(s.b[:0], `{"type":"content_block_delta","index":`...)
	d = strconv.AppendInt(d, int64(s.blocks), 10)
	d = append(d, `,"delta":{"type":"`...)
	d = append(d, typ...)
	return append(d, `",`...)
}

func (s *anthropicStream) deltaEnd(d []byte) error {
	s.b = append(d, "}}"...)
	return s.event("content_block_delta", s.b)
}

func (s *anthropicStream) textDeltaEvent(typ, key, text string) error {
	d := append(s.deltaHead(typ), key...)
	return s.deltaEnd(syntax.AppendQuote(d, text))
}

func (s *anthropicStream) blockStop() error {
	d := []byte(`{"type":"content_block_stop","index":`)
	d = strconv.AppendInt(d, int64(s.blocks), 10)
	s.blocks++
	return s.event("content_block_stop", append(d, '}'))
}

func (s *anthropicStream) textStart(t syntax.Type, refusal bool) error {
	s.kind, s.tool, s.refuse = t, false, refusal
	if refusal {
		// Anthropic writes a refusal as the message's stop details, not
		// as a block.
		if len(s.refusal) > 0 {
			s.refusal = append(s.refusal, "\n\n"...)
		}
		return nil
	}
	if t == syntax.Think {
		return s.blockStart([]byte(`{"type":"thinking","thinking":"","signature":""}`))
	}
	return s.blockStart([]byte(`{"type":"text","text":""}`))
}

func (s *anthropicStream) textDelta(text string) error {
	if s.refuse {
		s.refusal = append(s.refusal, text...)
		return nil
	}
	if s.kind == syntax.Think {
		return s.textDeltaEvent("thinking_delta", `"thinking":`, text)
	}
	return s.textDeltaEvent("text_delta", `"text":`, text)
}

func (s *anthropicStream) textStop(state json.RawMessage) error {
	if s.refuse {
		s.refuse = false
		return nil
	}
	if s.kind == syntax.Think && state != nil {
		var st struct{ Type, Signature string }
		json.Unmarshal(state, &st)
		if st.Signature != "" {
			if err := s.textDeltaEvent("signature_delta", `"signature":`, st.Signature); err != nil {
				return err
			}
		}
	}
	return s.blockStop()
}

func (s *anthropicStream) callStart(c *streamCall) error {
	s.tool = true
	b := syntax.AppendQuote([]byte(`{"type":"tool_use","id":`), c.id)
	b = append(b, `,"name":`...)
	b = syntax.AppendQuote(b, c.name)
	return s.blockStart(append(b, `,"input":{}}`...))
}

func (s *anthropicStream) callDelta(_ *streamCall, frag []byte) error {
	d := append(s.deltaHead("input_json_delta"), `"partial_json":`...)
	return s.deltaEnd(params.Quote(d, frag))
}

func (s *anthropicStream) callStop(*streamCall, []byte, json.RawMessage) error {
	s.tool = false
	return s.blockStop()
}

func (s *anthropicStream) finish(why stop, msg string, u *tokens) error {
	if why == stopError {
		e := syntax.AppendQuote([]byte(`{"type":"error","error":{"type":"api_error","message":`), msg)
		return s.event("error", append(e, "}}"...))
	}
	reason := [...]string{stopEnd: "end_turn", stopCalls: "tool_use", stopCut: "max_tokens"}[why]
	if len(s.refusal) > 0 && why == stopEnd {
		reason = "refusal"
	} else if len(s.refusal) > 0 {
		// The message stops for another reason: the refusal is text.
		s.note("a refusal in a message that goes on to calls: written as text")
		if err := s.blockStart([]byte(`{"type":"text","text":""}`)); err != nil {
			return err
		}
		if err := s.textDeltaEvent("text_delta", `"text":`, string(s.refusal)); err != nil {
			return err
		}
		if err := s.blockStop(); err != nil {
			return err
		}
	}
	d := syntax.AppendQuote([]byte(`{"type":"message_delta","delta":{"stop_reason":`), reason)
	d = append(d, `,"stop_sequence":null`...)
	if reason == "refusal" {
		d = syntax.AppendQuote(append(d, `,"stop_details":{"type":"refusal","explanation":`...), string(s.refusal))
		d = append(d, '}')
	}
	if u != nil {
		d = append(u.appendAnthropic(append(d, `},"usage":`...)), '}')
	} else {
		d = append(d, `},"usage":{"output_tokens":0}}`...)
	}
	if err := s.event("message_delta", d); err != nil {
		return err
	}
	return s.event("message_stop", []byte(`{"type":"message_stop"}`))
}

// geminiStream writes Gemini streamGenerateContent chunks (calls whole).
type geminiStream struct {
	w       *bufio.Writer
	thought bool
	o       StreamOptions
}

func (s *geminiStream) chunk(part []byte, finish string, u *tokens) error {
	d := []byte(`{"candidates":[{"content":{"parts":[`)
	d = append(d, part...)
	d = append(d, `],"role":"model"}`...)
	if finish != "" {
		d = append(d, `,"finishReason":"`...)
		d = append(d, finish...)
		d = append(d, '"')
	}
	d = append(d, `,"index":0}]`...)
	if finish != "" {
		if u == nil {
			u = &tokens{}
		}
		d = u.appendGemini(append(d, `,"usageMetadata":`...))
	}
	d = syntax.AppendQuote(append(d, `,"modelVersion":`...), s.o.model())
	d = append(d, '}')
	return sse(s.w, "", d)
}

func (s *geminiStream) start() error { return nil }

func (s *geminiStream) textStart(t syntax.Type, _ bool) error {
	s.thought = t == syntax.Think
	return nil
}

func (s *geminiStream) textDelta(text string) error {
	p := syntax.AppendQuote([]byte(`{"text":`), text)
	if s.thought {
		p = append(p, `,"thought":true`...)
	}
	return s.chunk(append(p, '}'), "", nil)
}

func (s *geminiStream) textStop(state json.RawMessage) error {
	if sig := geminiSignature(state); sig != "" {
		// The signature closes the part it came on: an empty part of the
		// same kind carries it.
		p := []byte(`{"text":""`)
		if s.thought {
			p = append(p, `,"thought":true`...)
		}
		p = syntax.AppendQuote(append(p, `,"thoughtSignature":`...), sig)
		return s.chunk(append(p, '}'), "", nil)
	}
	return nil
}

func (s *geminiStream) callStart(*streamCall) error         { return nil }
func (s *geminiStream) callDelta(*streamCall, []byte) error { return nil }
func (s *geminiStream) callStop(c *streamCall, args []byte, state json.RawMessage) error {
	p := syntax.AppendQuote([]byte(`{"functionCall":{"name":`), c.name)
	p = append(p, `,"args":`...)
	p = append(p, args...)
	if !c.madeID {
		p = syntax.AppendQuote(append(p, `,"id":`...), c.id)
	}
	p = append(p, '}')
	if sig := geminiSignature(state); sig != "" {
		p = syntax.AppendQuote(append(p, `,"thoughtSignature":`...), sig)
	}
	return s.chunk(append(p, '}'), "", nil)
}

func (s *geminiStream) finish(why stop, _ string, u *tokens) error {
	reason := [...]string{stopEnd: "STOP", stopCalls: "STOP", stopCut: "MAX_TOKENS", stopError: "MALFORMED_FUNCTION_CALL"}[why]
	return s.chunk([]byte(`{"text":""}`), reason, u)
}

// ollamaStream writes Ollama /api/chat NDJSON (calls whole).
type ollamaStream struct {
	w     *bufio.Writer
	think bool
	o     StreamOptions
}

// head is the start of every line, up to the message's role.
func (s *ollamaStream) head(d []byte) []byte {
	d = syntax.AppendQuote(append(d, `{"model":`...), s.o.model())
	d = syntax.AppendQuote(append(d, `,"created_at":`...), time.Unix(s.o.Created, 0).UTC().Format(time.RFC3339Nano))
	return append(d, `,"message":{"role":"assistant","content":`...)
}

func (s *ollamaStream) line(msg []byte, done string, u *tokens) error {
	d := append(s.head(nil), `""`...)
	d = append(d, msg...)
	d = append(d, `},"done":`...)
	if done == "" {
		d = append(d, "false"...)
	} else {
		d = append(d, `true,"done_reason":"`...)
		d = append(d, done...)
		d = append(d, '"')
		if u != nil {
			d = u.appendOllama(d)
		}
	}
	d = append(d, "}\n"...)
	_, err := s.w.Write(d)
	return err
}

func (s *ollamaStream) start() error { return nil }

func (s *ollamaStream) textStart(t syntax.Type, _ bool) error {
	s.think = t == syntax.Think
	return nil
}

func (s *ollamaStream) textDelta(text string) error {
	if s.think {
		return s.line(syntax.AppendQuote([]byte(`,"thinking":`), text), "", nil)
	}
	d := syntax.AppendQuote(s.head(nil), text)
	d = append(d, `},"done":false}`+"\n"...)
	_, err := s.w.Write(d)
	return err
}

func (s *ollamaStream) textStop(json.RawMessage) error { return nil }

func (s *ollamaStream) callStart(*streamCall) error         { return nil }
func (s *ollamaStream) callDelta(*streamCall, []byte) error { return nil }

func (s *ollamaStream) callStop(c *streamCall, args []byte, _ json.RawMessage) error {
	m := []byte(`,"tool_calls":[{"function":{"name":`)
	m = syntax.AppendQuote(m, c.name)
	m = append(m, `,"arguments":`...)
	m = append(m, args...)
	m = append(m, `}}]`...)
	return s.line(m, "", nil)
}

func (s *ollamaStream) finish(why stop, msg string, u *tokens) error {
	if why == stopError {
		d := syntax.AppendQuote([]byte(`{"error":`), msg)
		_, err := s.w.Write(append(d, "}\n"...))
		return err
	}
	return s.line(nil, [...]string{stopEnd: "stop", stopCalls: "stop", stopCut: "length"}[why], u)
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
