package conversation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
	"github.com/toolparse/toolparse/syntax/wire"
)

// Turn is one message's worth of a conversation: the events of an assistant
// message or of a message carrying results, or a message kept as it is.
type Turn struct {
	Role   string         // "assistant", "user", "tool", "system", …
	Events []syntax.Event // parsed events, without the end event
	Other  *Message       // a message with no events, kept as it is
	// Rest says that Other is the rest of the message whose results are
	// the turn before: written in the same form, the two are one message
	// again.
	Rest bool
}

// Conversation is a transcript as turns.
type Conversation struct {
	Turns []Turn
}

// Events returns the events of all turns, with one end event at the end.
func (c *Conversation) Events() []syntax.Event {
	var evs []syntax.Event
	for _, t := range c.Turns {
		evs = append(evs, t.Events...)
	}
	return append(evs, syntax.Event{Type: syntax.End})
}

// isNative reports whether s is the native syntax (in any of its forms).
func isNative(s syntax.Syntax) bool { return s.Name == native.Syntax.Name }

// Read parses a conversation. Every message is first read as a provider
// message, by the native parser, in one stream (so a result finds the tool
// of the call it answers by its id): OpenAI Chat messages with tool_calls
// and "tool" messages, Anthropic messages with tool_use and tool_result
// blocks, Gemini contents with functionCall and functionResponse parts,
// Ollama messages (thinking, tool_calls, "tool" messages with tool_name),
// OpenAI Responses items (consecutive items of the model, and consecutive
// function_call_output items, read together). Then, unless s is native, the
// text of each assistant message is parsed with s, and the text of user
// messages too for the results s writes there (xmljson's <results>,
// delimiter's [SYSTEM: …]); a "tool" message whose text is JSON gives that
// JSON as the result's content.
//
// A message that gives no events (system and user messages) is a turn kept
// as it is, in [Turn.Other]; a user message that holds results beside other
// content (text next to Anthropic tool_result blocks or Gemini
// functionResponse parts) is a turn of its results followed by one of the
// rest of the message.
func Read(msgs []Message, s syntax.Syntax, opts syntax.Options) *Conversation {
	r := &reader{s: s, opts: opts, c: &Conversation{}}
	r.p = native.Syntax.New(func(e syntax.Event) { r.queue = append(r.queue, e) }, opts)
	for i := 0; i < len(msgs); {
		i = r.unit(msgs, i)
	}
	r.queue = r.queue[:0]
	r.p.Close()
	var errs []syntax.Event
	for _, e := range r.queue {
		if e.Type != syntax.End {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		r.c.Turns = append(r.c.Turns, Turn{Role: "assistant", Events: errs})
	}
	return r.c
}

type reader struct {
	s     syntax.Syntax
	opts  syntax.Options
	c     *Conversation
	p     syntax.Parser
	queue []syntax.Event
}

// responsesItem reports whether raw is an OpenAI Responses item without a
// role (a function_call, reasoning, function_call_output, … item), and
// whether it is a result.
func responsesItem(raw []byte) (item, result bool) {
	typ, _ := jsonscan.Unquote(jsonscan.Member(raw, "type"))
	if typ == "" || jsonscan.Member(raw, "role") != nil {
		return false, false
	}
	return true, typ == "function_call_output"
}

// feed gives the native parser one document and returns its events.
func (r *reader) feed(doc []byte) []syntax.Event {
	r.queue = r.queue[:0]
	r.p.Write(doc)
	r.p.Write([]byte{'\n'})
	return append([]syntax.Event(nil), r.queue...)
}

// unit reads the message at i (or the run of Responses items there) and
// returns the index of the next one.
func (r *reader) unit(msgs []Message, i int) int {
	m := msgs[i]
	raw := m.json()
	if item, result := responsesItem(raw); item {
		j := i + 1
		for j < len(msgs) {
			if it, res := responsesItem(msgs[j].json()); !it || res != result {
				break
			}
			j++
		}
		items := make([][]byte, 0, j-i)
		for _, x := range msgs[i:j] {
			items = append(items, x.json())
		}
		doc := []byte(`{"object":"response","status":"completed","output":[` + string(bytes.Join(items, []byte{','})) + `]}`)
		evs := r.feed(doc)
		if len(evs) == 0 {
			for k := i; k < j; k++ {
				r.c.Turns = append(r.c.Turns, Turn{Role: msgs[k].Role, Other: &msgs[k]})
			}
			return j
		}
		role := "assistant"
		if result {
			role = "tool"
		}
		r.c.Turns = append(r.c.Turns, Turn{Role: role, Events: r.text(evs, role)})
		return j
	}
	doc := raw
	switch {
	case jsonscan.Member(raw, "parts") != nil: // a Gemini content
		doc = []byte(`{"contents":[` + string(raw) + `]}`)
	case m.Role == "assistant" && jsonscan.Member(raw, "thinking") != nil: // an Ollama message
		doc = []byte(`{"message":` + string(raw) + `,"done":true}`)
	}
	evs := r.feed(doc)
	nativeResults := len(evs) > 0
	if m.Role == "tool" {
		for k := range evs {
			if evs[k].Type == syntax.Result && evs[k].Tool == "" {
				evs[k].Tool = m.Name // Ollama's tool_name
			}
		}
	}
	role := m.Role
	if role == "model" {
		role = "assistant"
	}
	evs = r.text(evs, role)
	if role == "user" && !isNative(r.s) {
		evs = append(evs, parse(r.s, m.Content, r.opts, func(e syntax.Event) bool { return e.Type == syntax.Result })...)
	}
	if len(evs) == 0 {
		r.c.Turns = append(r.c.Turns, Turn{Role: m.Role, Other: &msgs[i]})
		return i + 1
	}
	resultsOnly := true
	for _, e := range evs {
		if e.Type != syntax.Result && e.Type != syntax.Error {
			resultsOnly = false
		}
	}
	if !resultsOnly {
		role = "assistant"
	}
	r.c.Turns = append(r.c.Turns, Turn{Role: role, Events: evs})
	if rest := remainder(raw); resultsOnly && nativeResults && rest != nil {
		other := Message{Role: m.Role, Raw: rest}
		_ = json.Unmarshal(rest, &other)
		r.c.Turns = append(r.c.Turns, Turn{Role: m.Role, Other: &other, Rest: true})
	}
	return i + 1
}

// text parses, unless the syntax is native, the text of an assistant
// message with the syntax; and makes a tool message's JSON text JSON,
// whatever the syntax (a form whose results are text writes a value as its
// JSON text: read back, it is that value again).
func (r *reader) text(evs []syntax.Event, role string) []syntax.Event {
	var out []syntax.Event
	for _, e := range evs {
		switch {
		case e.Type == syntax.Respond && !e.Refusal && role == "assistant" && !isNative(r.s):
			out = append(out, parse(r.s, e.Content, r.opts, nil)...)
			continue
		case e.Type == syntax.Result && role == "tool":
			if s, ok := jsonscan.Unquote(e.Value); ok && json.Valid([]byte(s)) && jsonscan.Kind([]byte(s)) != '"' && strings.TrimSpace(s) != "" {
				e.Value = jsonscan.Compact([]byte(s)) // JSON content stays JSON
			}
		}
		out = append(out, e)
	}
	return out
}

// remainder returns a message holding results without them — the blocks
// of its content, or its parts, that are not results — or nil when nothing
// else is in it.
func remainder(raw []byte) []byte {
	key := "content"
	isResult := func(e []byte) bool {
		t, _ := jsonscan.Unquote(jsonscan.Member(e, "type"))
		return strings.HasSuffix(t, "tool_result")
	}
	if jsonscan.Member(raw, "parts") != nil {
		key = "parts"
		isResult = func(e []byte) bool { return jsonscan.Member(e, "functionResponse") != nil }
	}
	list := jsonscan.Member(raw, key)
	if jsonscan.Kind(list) != '[' {
		return nil
	}
	var kept [][]byte
	jsonscan.Elements(list, func(e []byte, _ int) bool {
		if !isResult(e) {
			kept = append(kept, e)
		}
		return true
	})
	if len(kept) == 0 {
		return nil
	}
	return jsonscan.WithMember(raw, key, append(append([]byte{'['}, bytes.Join(kept, []byte{','})...), ']'))
}

// parse parses one message's content, dropping the end event and keeping
// only the events keep accepts (all when keep is nil).
func parse(s syntax.Syntax, content string, opts syntax.Options, keep func(syntax.Event) bool) []syntax.Event {
	var evs []syntax.Event
	for _, e := range syntax.Parse(s, []byte(content), opts) {
		if e.Type == syntax.End || keep != nil && !keep(e) {
			continue
		}
		evs = append(evs, e)
	}
	return evs
}

// Write assembles a conversation back into messages, rendering assistant
// events and results in s. Rendering problems (what s cannot carry) are
// returned together with the messages.
//
// In a text syntax, each assistant turn is an assistant message whose
// content is the rendered text, and each run of results a user message in
// the syntax's result form — or, for a syntax that has none (caret,
// xmltag), one "tool" message per result.
//
// In a native form (anthropic, openai, openai-responses, gemini, ollama),
// each turn is written as the provider's own messages, which the renderer
// of the form writes: OpenAI Chat assistant messages with tool_calls and
// "tool" messages; Anthropic messages with tool_use and tool_result blocks
// (as a request takes them: no "type", and a stop_reason only for a
// refusal);
// Gemini contents (role model, and user contents of functionResponse
// parts); Ollama messages; OpenAI Responses items. Calls without an id are
// given one first (call_1, call_2, … through the whole conversation) and
// the results that answer them the same, so that every result points at its
// call across turns. A message kept as it is (Other) is written as it was,
// but for its form: a Gemini content written in another form, or a message
// written as Gemini, is rewritten with its role and text (losing what else
// it had, which is reported).
func Write(c *Conversation, s syntax.Syntax, opts syntax.Options) ([]Message, error) {
	if s.Render == nil {
		return nil, fmt.Errorf("conversation: syntax %s has no renderer", s.Name)
	}
	if isNative(s) {
		return writeNative(c, s, opts)
	}
	var msgs []Message
	var losses lossList
	var batch []syntax.Event       // the calls of the last assistant turn, and its execute
	written := map[string]string{} // a call's id → the id the syntax wrote for it, where it wrote another
	for i := 0; i < len(c.Turns); i++ {
		t, first := c.Turns[i], i
		evs := findingsOut(t.Events)
		if t.Other == nil && t.Role != "assistant" {
			// Consecutive turns of results (a tool message each) are one
			// run, written as the syntax writes a batch's results.
			for i+1 < len(c.Turns) && c.Turns[i+1].Other == nil && c.Turns[i+1].Role != "assistant" {
				i++
				evs = append(evs, findingsOut(c.Turns[i].Events)...)
			}
		}
		switch {
		case t.Other != nil:
			msgs = append(msgs, *t.Other)
		case t.Role == "assistant":
			text, err := render(s, evs, opts)
			losses.add(i, err)
			msgs = append(msgs, Message{Role: "assistant", Content: text})
			if calls := callsOf(evs); len(calls) > 0 {
				batch = calls
				// The ids the syntax wrote (kimi's functions.NAME:IDX), read
				// back, for the results that answer them.
				back := callsOf(parse(s, text, opts, nil))
				for k, c := range calls {
					if k < len(back) && c.ID != "" && back[k].ID != "" && back[k].ID != c.ID {
						written[c.ID] = back[k].ID
					}
				}
			}
		default: // results
			// The renderer is given the calls they answer first (their
			// text is not written again): a syntax pairs results with
			// calls by position, and writes them in its own form.
			text, err := renderAfter(s, batch, evs, opts)
			if strings.TrimSpace(text) == "" && len(evs) > 0 {
				// The syntax has no form for results: one tool message
				// each, its content text as every such form writes it.
				for _, e := range evs {
					id := e.ID
					if w, ok := written[id]; ok {
						id = w
					}
					msgs = append(msgs, Message{Role: "tool", ToolCallID: id, Name: e.Tool, Content: wire.ResultText(e)})
				}
				continue
			}
			losses.add(first, err)
			msgs = append(msgs, Message{Role: "user", Content: text})
		}
	}
	return msgs, losses.err()
}

// findingsOut returns evs without the schema findings (error events of code
// schema): they say something about a call, which is written with the
// call; they are not part of the conversation to write.
func findingsOut(evs []syntax.Event) []syntax.Event {
	out := evs[:0:0]
	for _, e := range evs {
		if e.Type == syntax.Error && e.Code == syntax.CodeSchema {
			continue
		}
		out = append(out, e)
	}
	return out
}

// callsOf returns the calls of evs with an execute after them, or nil.
func callsOf(evs []syntax.Event) []syntax.Event {
	var calls []syntax.Event
	for _, e := range evs {
		if e.Type == syntax.Call && !e.Partial {
			calls = append(calls, e)
		}
	}
	if calls == nil {
		return nil
	}
	return append(calls, syntax.Event{Type: syntax.Execute})
}

// renderAfter renders evs in s after before, which the renderer is given
// first and whose own output is left out.
func renderAfter(s syntax.Syntax, before, evs []syntax.Event, opts syntax.Options) (string, error) {
	if len(before) == 0 {
		return render(s, evs, opts)
	}
	var b bytes.Buffer
	r := s.Render(&b, opts)
	for _, e := range before {
		r.Event(e) // written before, with what it could not carry reported there
	}
	if f, ok := r.(syntax.Flusher); ok {
		f.Flush()
	}
	mark := b.Len()
	err := syntax.Render(r, evs)
	return strings.TrimSpace(b.String()[mark:]), err
}

// A Loss is one thing a written conversation does not carry.
type Loss struct {
	Turn int   // the index in Conversation.Turns of the turn it is in
	Err  error // what was not carried, and what was written instead; it wraps wire.ErrCannotCarry
}

// WriteError is the error [Write] returns when the messages it wrote do not
// carry everything the conversation holds: each loss, in the turn it is
// in. It wraps [wire.ErrCannotCarry] (errors.Is). A schema finding (an
// error event of code schema) is not a loss: it is not written, and not
// reported.
type WriteError struct {
	Losses []Loss
}

func (e *WriteError) Error() string {
	var b strings.Builder
	b.WriteString("conversation: ")
	for i, l := range e.Losses {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "turn %d: %v", l.Turn, strings.ReplaceAll(l.Err.Error(), "\n", "; "))
	}
	return b.String()
}

// Unwrap gives wire.ErrCannotCarry and each loss's error.
func (e *WriteError) Unwrap() []error {
	errs := []error{wire.ErrCannotCarry}
	for _, l := range e.Losses {
		errs = append(errs, l.Err)
	}
	return errs
}

// lossList gathers the losses of a Write.
type lossList []Loss

func (l *lossList) add(turn int, err error) {
	if err == nil {
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			l.add(turn, e)
		}
		return
	}
	*l = append(*l, Loss{Turn: turn, Err: err})
}

func (l lossList) err() error {
	if len(l) == 0 {
		return nil
	}
	return &WriteError{Losses: l}
}

func render(s syntax.Syntax, evs []syntax.Event, opts syntax.Options) (string, error) {
	var b bytes.Buffer
	err := syntax.Render(s.Render(&b, opts), evs)
	return strings.TrimRight(b.String(), "\n"), err
}

// withIDs returns the turns' events with an id on every call that had
// none, and on every result that answers such a call (the first call of
// its tool in the last batch that no result answered yet).
func withIDs(turns []Turn) [][]syntax.Event {
	out := make([][]syntax.Event, len(turns))
	var batch []syntax.Event
	var answered []bool
	executed := false
	made := 0
	for i, t := range turns {
		evs := append([]syntax.Event(nil), t.Events...)
		for k, e := range evs {
			switch e.Type {
			case syntax.Call:
				if executed {
					batch, answered, executed = nil, nil, false
				}
				if e.ID == "" {
					made++
					evs[k].ID = "call_" + strconv.Itoa(made)
				}
				batch, answered = append(batch, evs[k]), append(answered, false)
			case syntax.Execute:
				executed = true
			case syntax.Result:
				for j, c := range batch {
					if !answered[j] && (e.ID == c.ID || e.ID == "" && c.Name == e.Tool) {
						answered[j] = true
						evs[k].ID = c.ID
						break
					}
				}
			}
		}
		out[i] = evs
	}
	return out
}

func writeNative(c *Conversation, s syntax.Syntax, opts syntax.Options) ([]Message, error) {
	f := native.Form(s)
	evs := withIDs(c.Turns)
	var msgs []Message
	var losses lossList
	for i := 0; i < len(c.Turns); {
		t := c.Turns[i]
		if t.Other != nil {
			m := *t.Other
			own := m.json()
			raw, err := native.KeepMessage(f, own, m.Role, m.Content)
			if string(raw) != string(own) {
				m = Message{Raw: raw}
				json.Unmarshal(raw, &m)
			}
			losses.add(i, err)
			i++
			if n := len(msgs); t.Rest && n > 0 && err == nil {
				if joined, ok := join(msgs[n-1], m); ok {
					msgs[n-1] = joined
					continue
				}
			}
			msgs = append(msgs, m)
			continue
		}
		// The turns up to the next message kept as it is are one stream
		// for the renderer, as the parser read them: each is given to it
		// in turn, so that what it could not carry is told by turn.
		var b bytes.Buffer
		r := s.Render(&b, opts)
		for ; i < len(c.Turns) && c.Turns[i].Other == nil; i++ {
			for _, e := range findingsOut(evs[i]) {
				losses.add(i, r.Event(e))
			}
		}
		losses.add(i-1, r.Close())
		for _, line := range bytes.Split(b.Bytes(), []byte{'\n'}) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			for _, raw := range native.RequestMessages(f, line) {
				var m Message
				if err := json.Unmarshal(raw, &m); err != nil {
					panic(fmt.Sprintf("conversation: a native renderer wrote a message that is not JSON: %v", err)) // a bug
				}
				msgs = append(msgs, m)
			}
		}
	}
	return msgs, losses.err()
}

// join returns a message and the rest of it (see Turn.Rest) as one, when
// both hold their content in an array of the same key and have one role.
func join(a, b Message) (Message, bool) {
	ra, rb := a.json(), b.json()
	for _, key := range []string{"content", "parts"} {
		ca, cb := jsonscan.Member(ra, key), jsonscan.Member(rb, key)
		if a.Role != b.Role || jsonscan.Kind(ca) != '[' || jsonscan.Kind(cb) != '[' {
			continue
		}
		ca, cb = jsonscan.Compact(ca), jsonscan.Compact(cb)
		list := append(append(ca[:len(ca)-1:len(ca)-1], ','), cb[1:]...)
		if len(ca) == 2 { // a's list is empty
			list = cb
		}
		m := a
		m.Raw = jsonscan.WithMember(ra, key, list)
		_ = json.Unmarshal(m.Raw, &m)
		return m, true
	}
	return a, false
}
