package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// The streaming encoders: from token-mode events, as they arrive, a
// provider's stream form (see doc.go, "Streaming encoders"). The encoder
// below holds what every form shares — text runs, the calls streaming, the
// response's start and its stop reason — and a streamForm writes one
// provider's wire bytes.

// runKind is a kind of text run.
type runKind struct {
	t       syntax.Type
	refusal bool
}

// stop is why a response ends.
type stop uint8

const (
	stopEnd   stop = iota // the model finished its turn
	stopCalls             // the turn ends in calls for the client to run
	stopCut               // a call was cut off (the input ended, or a limit): the provider's truncation
	stopError             // a call turned out malformed: the provider's error form
)

// streamForm writes one provider's stream.
type streamForm interface {
	// start begins a response.
	start() error
	// textStart opens a run of reasoning or text (refusal: a refusal's).
	textStart(t syntax.Type, refusal bool) error
	textDelta(s string) error
	// textStop closes the run; state is the form's opaque state for it.
	textStop(state json.RawMessage) error
	// callStart opens a call; callDelta adds a fragment of its arguments'
	// JSON text; callStop closes it with its whole arguments (and the
	// form's opaque state). A form that writes calls whole writes them
	// at callStop.
	callStart(c *streamCall) error
	callDelta(c *streamCall, frag []byte) error
	callStop(c *streamCall, args []byte, state json.RawMessage) error
	// finish ends the response (msg: the error's, for stopCut and
	// stopError).
	finish(why stop, msg string, u *tokens) error
}

// streamCall is a call being written.
type streamCall struct {
	index   int    // the events' Index
	slot    int    // its place in the response: the n-th call (OpenAI's tool_calls index)
	block   int    // the form's block or output index, set by the form
	id      string // its id, or one made for it
	madeID  bool   // the id was made here (a form whose ids are optional leaves it out)
	name    string
	params  bool     // its arguments stream parameter by parameter (values as JSON strings)
	keys    []string // params: the keys streamed, in order
	inValue bool     // params: a value's string is open
	written int      // bytes of argument text written
	itemID  string   // Responses: the item's id
	where   []byte   // Responses: the item's "item_id" and "output_index" members
}

// encoder is the renderer of a stream form.
type encoder struct {
	name  string // the form, for messages and Event.Opaque
	w     *bufio.Writer
	f     streamForm
	seq   bool // the form writes one block at a time: what comes while a call streams waits for it
	joins bool // the form has no blocks: a run after another of its kind in the response follows a blank line
	// noRefusal: the form has no refusal; a refusal is written as text.
	noRefusal bool
	seen      map[runKind]bool
	open      bool // a response is open
	began     bool // a response was begun
	calls     bool // the response holds calls

	run struct {
		on, refusal bool
		t           syntax.Type
		ws          []byte // white space held at the run's end (event mode trims it)
		sent        bool   // fragments were written
		sep         bool   // the run's first text goes after a blank line
	}
	// cut is the message of an error that cut off what the response was
	// writing outside a call (text, a thought): the response ends in the
	// form's truncation unless it holds calls, which the cut did not touch.
	cut string
	// usage is the response's counts, when a usage event gave them; the
	// end of a response waits in pend for a usage event that comes after
	// it (a Chat stream's usage chunk follows its finish_reason).
	usage *tokens
	pend  struct {
		on  bool
		why stop
		msg string
	}
	streaming []*streamCall
	queue     []syntax.Event  // seq: events waiting for the streaming call
	made      int             // ids made, across the stream
	idPrefix  string          // a made id's start: "call_", and the response's id when it has one
	slots     int             // calls in the response
	ids       map[string]bool // the call ids written in the response
	scratch   []byte
	errs      []error
}

func newEncoder(name string, w io.Writer, seq, joins bool, mk func(*bufio.Writer) streamForm) *encoder {
	bw := bufio.NewWriter(w)
	return &encoder{name: name, w: bw, f: mk(bw), seq: seq, joins: joins, seen: map[runKind]bool{}, ids: map[string]bool{}, idPrefix: "call_"}
}

func (e *encoder) cannot(format string, args ...any) {
	e.errs = append(e.errs, wire.CannotCarry(e.name, format, args...))
}

// Event writes what ev adds to the stream. The error reports what the form
// cannot carry, and a failed write.
func (e *encoder) Event(ev syntax.Event) error {
	e.errs = e.errs[:0]
	err := e.event(&ev)
	if len(e.errs) == 0 {
		return err
	}
	return errors.Join(append(e.errs, err)...)
}

func (e *encoder) event(ev *syntax.Event) error {
	if e.pend.on && ev.Type != syntax.Usage {
		if err := e.finish(); err != nil {
			return err
		}
	}
	if e.seq && len(e.streaming) > 0 && !e.belongs(ev) {
		e.queue = append(e.queue, *ev)
		return nil
	}
	switch ev.Type {
	case syntax.Think, syntax.Respond:
		return e.text(ev)
	case syntax.Call:
		if ev.Partial {
			return e.partial(ev)
		}
		return e.call(ev)
	case syntax.Execute:
		return e.end(stopCalls, "")
	case syntax.Error:
		if len(e.streaming) > 0 {
			why := stopError
			if ev.Code == syntax.CodeTruncated || ev.Code == syntax.CodeOverLimit {
				why = stopCut
			}
			e.streaming = e.streaming[:0]
			e.queue = e.queue[:0]
			return e.end(why, ev.Message)
		}
		if IsCut(*ev) && (e.open || !e.began) {
			if err := e.begin(); err != nil {
				return err
			}
			if e.cut == "" {
				e.cut = ev.Message
			}
			return nil
		}
		e.cannot("an error event (%s): a stream holds no errors but a call's and a cut; not written", ev.Code)
	case syntax.Result:
		e.cannot("results: a response stream holds the model's turn only (results go back in the next request); not written")
	case syntax.HostedCall, syntax.HostedResult:
		e.cannot("a %s: not written in the stream form", ev.Type)
	case syntax.Usage:
		u, ok := usageOf(ev.Value)
		switch {
		case !ok:
			e.cannot("a usage event whose value is not token counts: not written")
		case e.pend.on:
			e.usage = &u
			return e.finish()
		case e.open:
			e.usage = &u
		case !e.began:
			// The counts of a response that wrote nothing (an empty turn):
			// it is begun, to carry them.
			if err := e.begin(); err != nil {
				return err
			}
			e.usage = &u
		default:
			e.cannot("a usage event outside a response: not written")
		}
	case syntax.End:
		return errors.Join(e.end(stopEnd, ""), e.finish())
	}
	return nil
}

// finish writes the end of the response that ended, if one waits.
func (e *encoder) finish() error {
	if !e.pend.on {
		return nil
	}
	e.pend.on = false
	return e.f.finish(e.pend.why, e.pend.msg, e.usage)
}

// belongs reports whether ev goes on the call streaming first (a form that
// writes one block at a time takes nothing else until it completes).
func (e *encoder) belongs(ev *syntax.Event) bool {
	c := e.streaming[0]
	switch {
	case ev.Type == syntax.Error || ev.Type == syntax.End:
		return true
	case ev.Type != syntax.Call:
		return false
	case ev.Partial:
		return ev.Index == c.index && (ev.Param != "" || ev.Delta != "")
	}
	return e.find(ev) == c
}

func (e *encoder) begin() error {
	if e.open {
		return nil
	}
	clear(e.seen)
	e.open, e.calls, e.slots, e.began, e.cut, e.usage = true, false, 0, true, "", nil
	clear(e.ids)
	return e.f.start()
}

// text writes a fragment of a run, or a whole run. White space is held
// until text follows it in the run, so that a run of white space alone is
// never written; white space at a run's end is written only when the whole
// run keeps it (a signed thought is exact), as event mode does.
func (e *encoder) text(ev *syntax.Event) error {
	if ev.Refusal && e.noRefusal {
		e.cannot("a refusal: the form has none; written as text")
		ev.Refusal = false
	}
	r := &e.run
	if r.on && (r.t != ev.Type || r.refusal != ev.Refusal) {
		if err := e.stopText(nil); err != nil {
			return err
		}
	}
	state := e.opaque(ev)
	if !ev.Partial {
		if r.on {
			if len(ev.Content) > 0 && isWS(ev.Content[0]) && state != nil {
				e.cannot("the white space that starts a %s with provider state: streams carry a run from its first other byte", ev.Type)
			}
			if len(r.ws) > 0 && len(ev.Content) > 0 && isWS(ev.Content[len(ev.Content)-1]) {
				if err := e.textDelta(string(r.ws)); err != nil {
					return err
				}
			}
			return e.stopText(state)
		}
		if ev.Content == "" && state == nil {
			return nil
		}
		if err := e.startText(ev); err != nil {
			return err
		}
		if err := e.textDelta(ev.Content); err != nil {
			return err
		}
		return e.stopText(state)
	}
	s := ev.Content
	body := trimRight(s)
	if body == "" {
		r.ws = append(r.ws, s...)
		return nil
	}
	if !r.on {
		ws := append([]byte(nil), r.ws...) // white space that came before the run's first text
		if err := e.startText(ev); err != nil {
			return err
		}
		r.ws = append(r.ws, ws...)
	}
	if len(r.ws) > 0 {
		body = string(r.ws) + body
		r.ws = r.ws[:0]
	}
	r.ws = append(r.ws, s[len(trimRight(s)):]...)
	r.sent = true
	return e.textDelta(body)
}

// textDelta writes text of the open run, after the blank line that joins it
// to the run before when the form needs one.
func (e *encoder) textDelta(s string) error {
	if e.run.sep && s != "" {
		e.run.sep = false
		s = "\n\n" + s
	}
	return e.f.textDelta(s)
}

func (e *encoder) startText(ev *syntax.Event) error {
	if err := e.begin(); err != nil {
		return err
	}
	r := &e.run
	r.on, r.t, r.refusal, r.sent = true, ev.Type, ev.Refusal, false
	r.ws = r.ws[:0]
	r.sep = e.joins && e.seen[runKind{ev.Type, ev.Refusal}]
	return e.f.textStart(ev.Type, ev.Refusal)
}

func (e *encoder) stopText(state json.RawMessage) error {
	if !e.run.on {
		return nil
	}
	e.run.on = false
	e.run.ws = e.run.ws[:0]
	if e.run.sent {
		e.seen[runKind{e.run.t, e.run.refusal}] = true
	}
	return e.f.textStop(state)
}

// opaque is the member of ev.Opaque this form writes back; the others are
// reported as not carried.
func (e *encoder) opaque(ev *syntax.Event) json.RawMessage {
	if len(ev.Opaque) == 0 {
		return nil
	}
	var own json.RawMessage
	jsonscan.Members(ev.Opaque, func(k string, v []byte) bool {
		if k == e.name {
			own = v
		} else {
			e.cannot("the %s state of a %s event: not written", k, ev.Type)
		}
		return true
	})
	return own
}

// partial writes a call's start or a fragment of its arguments.
func (e *encoder) partial(ev *syntax.Event) error {
	if ev.Param == "" && ev.Delta == "" {
		if err := e.stopText(nil); err != nil {
			return err
		}
		if err := e.begin(); err != nil {
			return err
		}
		c := e.newCall(ev)
		e.streaming = append(e.streaming, c)
		return e.f.callStart(c)
	}
	c := e.byIndex(ev.Index)
	if c == nil {
		return nil // a fragment of a call not started here: its whole call follows
	}
	if ev.Param == "" {
		e.scratch = append(e.scratch[:0], ev.Delta...)
		return e.fragment(c)
	}
	c.params = true
	b := e.scratch[:0]
	if ev.Delta == "" { // a value starts
		switch {
		case len(c.keys) == 0:
			b = append(b, '{')
		case c.inValue:
			b = append(b, `",`...)
		default:
			b = append(b, ',')
		}
		b = syntax.AppendQuote(b, ev.Param)
		b = append(b, `:"`...)
		c.keys = append(c.keys, ev.Param)
		c.inValue = true
	} else {
		q := len(b)
		b = syntax.AppendQuote(b, ev.Delta)
		b = append(b[:q], b[q+1:len(b)-1]...)
	}
	e.scratch = b
	return e.fragment(c)
}

func (e *encoder) fragment(c *streamCall) error {
	c.written += len(e.scratch)
	return e.f.callDelta(c, e.scratch)
}

func (e *encoder) newCall(ev *syntax.Event) *streamCall {
	c := &streamCall{index: ev.Index, slot: e.slots, id: ev.ID, name: ev.Name}
	e.slots++
	if c.id != "" && e.ids[c.id] {
		// Two calls of one response with one id (a model's greedy
		// sampling): the SDKs refuse such a response, and a provider the
		// results that answer it.
		e.cannot("the id %q of call %s repeats an earlier call's in the response: written as a made id", c.id, c.name)
		c.id = ""
	}
	for c.id == "" || c.madeID && e.ids[c.id] {
		e.made++
		c.id, c.madeID = e.idPrefix+strconv.Itoa(e.made), true
	}
	e.ids[c.id] = true
	return c
}

func (e *encoder) byIndex(i int) *streamCall {
	for _, c := range e.streaming {
		if c.index == i {
			return c
		}
	}
	return nil
}

// find is the streaming call a complete call closes: the one with its id,
// else the first with its name and no id of the source's; nil for a call
// that did not stream.
func (e *encoder) find(ev *syntax.Event) *streamCall {
	if len(e.streaming) == 0 {
		return nil
	}
	for _, c := range e.streaming {
		if ev.ID != "" && c.id == ev.ID {
			return c
		}
	}
	for _, c := range e.streaming {
		if c.name == ev.Name && (ev.ID == "" || c.madeID) {
			return c
		}
	}
	return nil
}

// call writes a complete call: the rest of a streamed one, or all of one
// that did not stream.
func (e *encoder) call(ev *syntax.Event) error {
	args := []byte(ev.ArgsJSON())
	state := e.opaque(ev)
	c := e.find(ev)
	if c == nil {
		if err := e.stopText(nil); err != nil {
			return err
		}
		if err := e.begin(); err != nil {
			return err
		}
		c = e.newCall(ev)
		if err := e.f.callStart(c); err != nil {
			return err
		}
		e.scratch = append(e.scratch[:0], args...)
		if err := e.fragment(c); err != nil {
			return err
		}
		e.calls = true
		return e.f.callStop(c, args, state)
	}
	e.drop(c)
	if c.params {
		var ok bool
		if args, ok = paramsArgs(args, c.keys); !ok {
			// A key given twice (an array of its values), or a value the
			// schema made no string: what was written cannot be taken
			// back, so the call is not finished as a call.
			e.queue = e.queue[:0]
			e.streaming = e.streaming[:0]
			return e.end(stopError, fmt.Sprintf("call %s: its arguments changed shape after they streamed (a repeated key, or a typed value); not finished as a call", c.name))
		}
	}
	if c.written < len(args) {
		e.scratch = append(e.scratch[:0], args[c.written:]...)
		if err := e.fragment(c); err != nil {
			return err
		}
	}
	e.calls = true
	if err := e.f.callStop(c, args, state); err != nil {
		return err
	}
	return e.drain()
}

// drop takes c off the streaming calls.
func (e *encoder) drop(c *streamCall) {
	for i, s := range e.streaming {
		if s == c {
			e.streaming = append(e.streaming[:i], e.streaming[i+1:]...)
			return
		}
	}
}

// drain writes the events that waited for the call that completed.
func (e *encoder) drain() error {
	for len(e.queue) > 0 && (len(e.streaming) == 0 || !e.seq || e.belongs(&e.queue[0])) {
		ev := e.queue[0]
		e.queue = e.queue[1:]
		if err := e.event(&ev); err != nil {
			return err
		}
	}
	if len(e.queue) == 0 {
		e.queue = nil
	}
	return nil
}

// paramsArgs is args with the streamed keys first, in their order, when
// each of them holds a string (as streamed), and false when one does not.
func paramsArgs(args []byte, keys []string) ([]byte, bool) {
	vals := make(map[string][]byte, len(keys))
	var rest [][2][]byte
	jsonscan.Members(args, func(k string, v []byte) bool {
		vals[k] = v
		return true
	})
	out := []byte{'{'}
	for i, k := range keys {
		v, ok := vals[k]
		if !ok || jsonscan.Kind(v) != '"' {
			return nil, false
		}
		for _, k2 := range keys[:i] {
			if k2 == k {
				return nil, false
			}
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = syntax.AppendQuote(out, k)
		out = append(out, ':')
		out = append(out, v...)
		delete(vals, k)
	}
	jsonscan.Members(args, func(k string, v []byte) bool {
		if _, ok := vals[k]; ok {
			rest = append(rest, [2][]byte{[]byte(k), v})
		}
		return true
	})
	for _, kv := range rest {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = syntax.AppendQuote(out, string(kv[0]))
		out = append(out, ':')
		out = append(out, kv[1]...)
	}
	return append(out, '}'), true
}

// end finishes the open response.
func (e *encoder) end(why stop, msg string) error {
	if err := e.stopText(nil); err != nil {
		return err
	}
	if !e.open {
		if why == stopCalls {
			e.cannot("an execute with no call: not written")
		}
		return nil
	}
	if why == stopEnd && e.calls {
		why = stopCalls
	}
	if why == stopEnd && e.cut != "" {
		why, msg = stopCut, e.cut
	}
	e.open = false
	e.pend.on, e.pend.why, e.pend.msg = true, why, msg
	return nil
}

func (e *encoder) Flush() error { return e.w.Flush() }

// Fail ends the stream with the open response in the form's truncation
// form (cut) or error form, for a server whose backend failed in a way the
// events do not say (a broken connection, a provider's error). The calls
// of the response that were not finished are not calls. A stream whose
// last response already ended is left as it is; one that wrote nothing
// gets an empty response that ends so.
func (e *encoder) Fail(cut bool, msg string) error {
	e.errs = e.errs[:0]
	e.streaming, e.queue = e.streaming[:0], e.queue[:0]
	if e.began && !e.open {
		return errors.Join(e.finish(), e.w.Flush())
	}
	why := stopError
	if cut {
		why = stopCut
	}
	var err error
	if !e.open {
		err = e.begin()
	}
	e.calls = false
	return errors.Join(err, e.end(why, msg), e.finish(), e.w.Flush())
}

func (e *encoder) Close() error {
	e.errs = e.errs[:0]
	var err error
	if !e.began {
		// Events that wrote nothing still make a response: an empty turn.
		err = e.begin()
	}
	err = errors.Join(err, e.end(stopEnd, ""), e.finish())
	return errors.Join(append(e.errs, err, e.w.Flush())...)
}

func trimRight(s string) string {
	for len(s) > 0 && isWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// sse writes one server-sent event: an event line when name is set, the
// data line, a blank line.
func sse(w *bufio.Writer, name string, data []byte) error {
	if name != "" {
		w.WriteString("event: ")
		w.WriteString(name)
		w.WriteByte('\n')
	}
	w.WriteString("data: ")
	w.Write(data)
	_, err := w.WriteString("\n\n")
	return err
}
