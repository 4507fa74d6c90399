package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/syntax"
)

// Units writes the units of one syntax's wire form, in stream order. Each
// method writes what it can and returns an error (wrapping
// [ErrCannotCarry]) that says what it could not carry and what it did with
// it instead.
type Units interface {
	// Text writes a text run; t is Think or Respond. Each think event is
	// a unit of its own; adjacent respond events come as one run, joined by
	// a blank line (no syntax can tell two runs of prose apart).
	Text(t syntax.Type, content string) error
	// Calls writes consecutive calls. More calls, or an Execute, may follow;
	// a syntax that writes a batch as one block keeps them until Execute.
	Calls(calls []syntax.Event) error
	// Execute closes the batch of calls written since the last Execute.
	Execute() error
	// Results writes a run of results.
	Results(results []syntax.Event) error
	// End is called once, at the end of the output; calls written since
	// the last Execute are calls no execute followed. It flushes.
	End() error
}

// EndMarker is implemented by units whose syntax has an end marker
// (xmljson's <end>, delimiter's §end): it is written when the stream's end
// event comes, before End.
type EndMarker interface {
	EndMarker() error
}

// Hosted is implemented by units that can write the calls a provider ran
// itself and their results. For other units, such events are reported as
// not carried.
type Hosted interface {
	Hosted(e syntax.Event) error
}

// Flags is implemented by units that carry the refusal flag of respond text
// and the custom flag of calls: respond text with Refusal set comes to
// Refusal, as a run of its own, instead of Text, and calls come to Calls
// with Custom set. For other units, the text and the call are written and
// the flag is reported as not carried.
type Flags interface {
	Refusal(content string) error
}

// OpaqueText is implemented by units that write back provider state on
// text (a thought's signature; a thought that is only state, such as
// redacted thinking): a thought, or a respond run, that carries state of
// the renderer's Form comes to TextOpaque, with that state, instead of Text.
type OpaqueText interface {
	TextOpaque(t syntax.Type, content string, state json.RawMessage) error
}

// ErrCannotCarry is wrapped by the errors of units that a syntax cannot
// carry faithfully. A renderer writes what it can and goes on; the error says
// what was lost or changed.
var ErrCannotCarry = errors.New("cannot carry")

// CannotCarry returns an error wrapping ErrCannotCarry.
func CannotCarry(syntaxName, format string, args ...any) error {
	return fmt.Errorf("%s %w: %s", syntaxName, ErrCannotCarry, fmt.Sprintf(format, args...))
}

// Renderer groups events into units for a Units. It implements
// [syntax.Renderer], and [syntax.Flusher] when its Units does.
type Renderer struct {
	// IDs makes the renderer give every call without an id one, call_1,
	// call_2, … in stream order, for wire forms that pair results with
	// calls by id (OpenAI, Anthropic), and a call whose id another call of
	// its batch has (a model's greedy-sampled ids; the providers refuse a
	// message with two) a made one, reported; the results that answer it
	// take it. Results are given their call's id either way, when it has
	// one.
	IDs bool
	// Form is the provider form whose state (its member of Event.Opaque)
	// the units write back: a native form's name. Every other form's
	// state, and all of it when Form is "", is reported as not carried.
	Form string

	name      string
	u         Units
	text      strings.Builder
	textOpen  bool            // a respond run is being gathered
	textState json.RawMessage // the state of the Form the run carries
	calls     []syntax.Event
	results   []syntax.Event
	batch     []batchCall     // the calls of the open batch, then of the last executed one
	open      int             // batch[:open] are all answered: a result looks from open on
	executed  bool            // batch was executed: the next call starts a new one
	made      int             // ids made so far
	ids       map[string]bool // IDs: the ids written for the batch's calls
	ended     bool
}

// New returns a renderer for the syntax named name, writing through u.
func New(name string, u Units) *Renderer { return &Renderer{name: name, u: u} }

// Event takes the next event.
func (r *Renderer) Event(e syntax.Event) error {
	if e.Partial || r.ended {
		return nil
	}
	switch e.Type {
	case syntax.Respond:
		if f, ok := r.u.(Flags); ok && e.Refusal {
			return errors.Join(r.flush(), f.Refusal(e.Content))
		}
		err := errors.Join(r.flushCalls(), r.flushResults(), r.flag(e.Refusal, "the refusal flag of respond text (written as plain text)"))
		state, oerr := r.opaque(e)
		if e.Content == "" && state == nil {
			return errors.Join(err, oerr)
		}
		if state != nil {
			// Text with state is a run of its own: the state is its text's.
			err = errors.Join(err, r.flushText())
			r.textOpen, r.textState = true, state
			r.text.WriteString(e.Content)
			return errors.Join(err, oerr, r.flushText())
		}
		if r.textOpen && e.Content != "" && r.text.Len() > 0 {
			r.text.WriteString("\n\n")
		}
		r.textOpen = true
		r.text.WriteString(e.Content)
		return errors.Join(err, oerr)
	case syntax.Think:
		state, err := r.opaque(e)
		if ot, ok := r.u.(OpaqueText); ok && state != nil {
			return errors.Join(err, r.flush(), ot.TextOpaque(e.Type, e.Content, state))
		}
		if e.Content == "" { // only state, which is not written
			return errors.Join(err, r.flush())
		}
		return errors.Join(err, r.flush(), r.u.Text(e.Type, e.Content))
	case syntax.Call:
		_, oerr := r.opaque(e) // the form's own state the units read from the call
		err := errors.Join(oerr, r.flushText(), r.flushResults(), r.flag(e.Custom, "the custom flag of call "+e.Name+" (written as an ordinary call)"))
		if r.executed {
			r.batch, r.open, r.executed = r.batch[:0], 0, false
			clear(r.ids)
		}
		named := e.ID
		if r.IDs {
			if r.ids == nil {
				r.ids = map[string]bool{}
			}
			if e.ID != "" && r.ids[e.ID] {
				err = errors.Join(err, CannotCarry(r.name, "the id %q of call %s repeats an earlier call's of its batch: written as a made id", e.ID, e.Name))
				e.ID = ""
			}
			for e.ID == "" || r.ids[e.ID] {
				r.made++
				e.ID = "call_" + strconv.Itoa(r.made)
			}
			r.ids[e.ID] = true
			if named == "" {
				named = e.ID // results name a call that had no id by the id made for it
			}
		}
		r.calls = append(r.calls, e)
		r.batch = append(r.batch, batchCall{name: e.Name, id: e.ID, named: named})
		return err
	case syntax.Execute:
		r.executed = true
		return errors.Join(r.flush(), r.u.Execute())
	case syntax.Result:
		err := errors.Join(r.flushText(), r.flushCalls())
		r.results = append(r.results, r.answer(e))
		return err
	case syntax.HostedCall, syntax.HostedResult:
		if h, ok := r.u.(Hosted); ok {
			return errors.Join(r.flush(), h.Hosted(e))
		}
		what := "hosted call " + e.Name
		if e.Type == syntax.HostedResult {
			what = "hosted result of " + e.Tool
		}
		return CannotCarry(r.name, "a %s (run by the provider; %s has no form for it): not written", what, r.name)
	case syntax.Usage:
		return nil // the counts of a response: no part of the conversation, nothing the model needs back
	case syntax.End:
		err := r.flush()
		if m, ok := r.u.(EndMarker); ok {
			err = errors.Join(err, m.EndMarker())
		}
		return errors.Join(err, r.Close())
	case syntax.Error:
		raw := ""
		if e.Raw != "" {
			raw = fmt.Sprintf(", with the %d bytes of source text it holds", len(e.Raw))
		}
		return CannotCarry(r.name, "an error event (%s at %s: %s)%s: not written", e.Code, e.Pos, e.Message, raw)
	}
	return CannotCarry(r.name, "a %s event (a framework's, not the model's): not written", e.Type)
}

// answer gives a result the id of the call it answers, when it has none:
// the first call of its tool in the last batch that no result answered yet.
func (r *Renderer) answer(e syntax.Event) syntax.Event {
	for i := r.open; i < len(r.batch); i++ {
		c := &r.batch[i]
		if c.answered || (e.ID != "" && e.ID != c.named) || (e.ID == "" && c.name != e.Tool) {
			continue
		}
		c.answered = true
		if c.id != "" {
			e.ID = c.id // the id written for the call (made, where it had none or repeated another's)
		}
		break
	}
	for r.open < len(r.batch) && r.batch[r.open].answered {
		r.open++ // results in the order of their calls cost one step each
	}
	return e
}

// batchCall is what the renderer keeps of a call of the batch: enough to
// pair a result with it.
type batchCall struct {
	name, id string
	named    string // the id a result names the call by: as it came, or, where it had none, the one made for it
	answered bool
}

func (r *Renderer) flag(set bool, what string) error {
	if _, ok := r.u.(Flags); !set || ok {
		return nil
	}
	return CannotCarry(r.name, "%s", what)
}

// Close writes what is buffered and ends the output.
func (r *Renderer) Close() error {
	if r.ended {
		return nil
	}
	err := r.flush()
	r.ended = true
	return errors.Join(err, r.u.End())
}

// Flush writes what the units have buffered, if they can.
func (r *Renderer) Flush() error {
	if f, ok := r.u.(syntax.Flusher); ok {
		return f.Flush()
	}
	return nil
}

func (r *Renderer) flush() error {
	return errors.Join(r.flushText(), r.flushCalls(), r.flushResults())
}

func (r *Renderer) flushCalls() error {
	if len(r.calls) == 0 {
		return nil
	}
	calls := r.calls
	r.calls = nil
	return r.u.Calls(calls)
}

func (r *Renderer) flushText() error {
	if !r.textOpen {
		return nil
	}
	s := r.text.String()
	state := r.textState
	r.textOpen, r.textState = false, nil
	r.text.Reset()
	if ot, ok := r.u.(OpaqueText); ok && state != nil {
		return ot.TextOpaque(syntax.Respond, s, state)
	}
	return r.u.Text(syntax.Respond, s)
}

// opaque returns the member of e.Opaque of the renderer's Form, and an
// error for every other member, which the renderer does not write. State
// of the Form that the units have no way to write is reported too.
func (r *Renderer) opaque(e syntax.Event) (json.RawMessage, error) {
	if len(e.Opaque) == 0 {
		return nil, nil
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(e.Opaque, &members) != nil {
		return nil, CannotCarry(r.name, "the opaque state of a %s event, which is not a JSON object: not written", e.Type)
	}
	var errs []error
	var own json.RawMessage
	for _, form := range slices.Sorted(maps.Keys(members)) {
		_, writes := r.u.(OpaqueText)
		if form == r.Form && (writes || e.Type == syntax.Call || e.Type == syntax.HostedCall) {
			own = members[form]
			continue
		}
		errs = append(errs, CannotCarry(r.name, "the %s state of a %s event (what %s needs back, %s): not written", form, e.Type, form, keysOf(members[form])))
	}
	return own, errors.Join(errs...)
}

// keysOf lists the member names of a JSON object.
func keysOf(obj json.RawMessage) string {
	var m map[string]json.RawMessage
	json.Unmarshal(obj, &m)
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

func (r *Renderer) flushResults() error {
	if len(r.results) == 0 {
		return nil
	}
	rs := r.results
	r.results = nil
	return r.u.Results(rs)
}

// Normalize returns the events a round trip through any renderer is expected
// to give back: without errors, fragments, positions and what only the
// source knows (Strings), adjacent text events of one type (and refusal
// flag) joined by a blank line, and args compact.
func Normalize(evs []syntax.Event) []syntax.Event {
	var out []syntax.Event
	for _, e := range evs {
		if e.Partial || e.Type == syntax.Error || e.Type == syntax.Usage {
			continue
		}
		e.Span, e.Pos, e.Raw, e.Strings = syntax.Span{}, syntax.Pos{}, "", false
		if n := len(out); n > 0 && (e.Type == syntax.Think || e.Type == syntax.Respond) && out[n-1].Type == e.Type && out[n-1].Refusal == e.Refusal {
			out[n-1].Content += "\n\n" + e.Content
			continue
		}
		out = append(out, e)
	}
	return out
}

// NormalizePair normalizes the events given to a renderer and those parsed
// back from its output, for comparison: as [Normalize], an id that the
// renderer made for a call or result that had none (see Renderer.IDs) is
// removed from the events parsed back, and a result that a form wrote as
// text ([ResultText]) and that reads back as that text is taken as the one
// written.
func NormalizePair(sent, back []syntax.Event) ([]syntax.Event, []syntax.Event) {
	sent, back = Normalize(sent), Normalize(back)
	for i := range min(len(sent), len(back)) {
		if sent[i].ID == "" && sent[i].Type == back[i].Type {
			back[i].ID = ""
		}
		// A result written as text (ResultText) reads back as that text.
		if s, b := sent[i], back[i]; s.Type == syntax.Result && b.Type == syntax.Result && (s.Status == syntax.Failure || !isString(s.Value)) {
			asText := s
			if b.Status == s.Status { // the form carried the status: only the content is text
				asText.Status = syntax.Success
			}
			if text, ok := unquote(b.Value); ok && text == ResultText(asText) {
				back[i].Status, back[i].Value = s.Status, s.Value
			}
		}
	}
	return sent, back
}

// OpenThought is for the renderer of a syntax whose reasoning block the
// prompt may open (Options.ThinkOpen): the output it writes then starts
// inside that block, so a first thought is written without its opener, and
// output that starts with anything else starts with the block's closer. The
// zero value does nothing.
type OpenThought struct {
	Closer string // the reasoning block's closer, written before other output
	open   bool
}

// NewOpenThought returns an OpenThought for output read back with opts.
func NewOpenThought(opts syntax.Options, closer string) OpenThought {
	return OpenThought{Closer: closer, open: opts.ThinkOpen}
}

// Begin is called before each unit is written, thought says whether it is a
// thought. For the first unit of output that starts inside reasoning, it
// reports that a thought is to be written without its opener, or writes
// Closer and a line end to w before anything else; afterwards it does
// nothing and reports false.
func (o *OpenThought) Begin(w io.StringWriter, thought bool) (inside bool) {
	if !o.open {
		return false
	}
	o.open = false
	if !thought {
		w.WriteString(o.Closer + "\n")
	}
	return thought
}

// Tail is an io.Writer that passes what is written to W and remembers its
// last byte, for a renderer whose output must end with a line end whatever
// its last unit wrote.
type Tail struct {
	W    io.Writer
	n    int64
	last byte
}

func (t *Tail) Write(p []byte) (int, error) {
	n, err := t.W.Write(p)
	if n > 0 {
		t.n += int64(n)
		t.last = p[n-1]
	}
	return n, err
}

// NeedsLineEnd reports whether something was written and it did not end
// with a line end.
func (t *Tail) NeedsLineEnd() bool { return t.n > 0 && t.last != '\n' }

// FailurePrefix starts the text of a failed result in the forms whose
// results have no status (OpenAI Chat and Responses, Ollama, and the model
// formats whose results are text): the model reads the failure there. It is
// what package batch's results of a failed call and package prompt's
// examples of one say too.
const FailurePrefix = "Error: "

// ResultText is a result's content as text, for a form whose result is a
// string: a string as it is, any other value as its JSON text, a failure
// after [FailurePrefix]. Neither is a loss — each form's rules say so — and
// [NormalizePair] takes such a result as the one it was written from.
func ResultText(r syntax.Event) string {
	text, ok := unquote(r.ValueJSON())
	if !ok {
		text = string(r.ValueJSON())
	}
	if r.Status == syntax.Failure {
		text = FailurePrefix + text
	}
	return text
}

func isString(raw []byte) bool { _, ok := unquote(raw); return ok }

// unquote decodes a JSON string.
func unquote(raw []byte) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// AsText returns a result as a form whose results are text writes it: a
// success whose content is the string [ResultText] gives.
func AsText(r syntax.Event) syntax.Event {
	r.Value = syntax.AppendQuote(nil, ResultText(r))
	r.Status = syntax.Success
	return r
}
