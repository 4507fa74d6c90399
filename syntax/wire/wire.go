package wire

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolparse/toolparse/syntax"
)

// Units writes the units of one syntax's wire form, in stream order.
type Units interface {
	// Text writes a text run; t is Think or Respond.
	Text(t syntax.Type, content string) error
	// Calls writes consecutive calls. More calls, or an Execute, may follow;
	// a syntax that writes a batch as one block keeps them until Execute.
	Calls(calls []syntax.Event) error
	// Execute closes the batch of calls written since the last Execute.
	Execute() error
	// Results writes a run of results.
	Results(results []syntax.Event) error
	// End is called once, at the end; calls written since the last Execute
	// are calls no execute followed.
	End() error
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
// syntax.Renderer.
type Renderer struct {
	u        Units
	textType syntax.Type
	text     strings.Builder
	calls    []syntax.Event
	results  []syntax.Event
	ended    bool
}

// New returns a renderer writing through u.
func New(u Units) *Renderer { return &Renderer{u: u} }

// Event takes the next event.
func (r *Renderer) Event(e syntax.Event) error {
	if e.Partial || r.ended {
		return nil
	}
	switch e.Type {
	case syntax.Think, syntax.Respond:
		if r.textType == e.Type {
			r.text.WriteString("\n\n")
			r.text.WriteString(e.Content)
			return nil
		}
		err := errors.Join(r.flushText(), r.flushCalls(), r.flushResults())
		r.textType = e.Type
		r.text.WriteString(e.Content)
		return err
	case syntax.Call:
		err := errors.Join(r.flushText(), r.flushResults())
		r.calls = append(r.calls, e)
		return err
	case syntax.Execute:
		return errors.Join(r.flush(), r.u.Execute())
	case syntax.Result:
		err := errors.Join(r.flushText(), r.flushCalls())
		r.results = append(r.results, e)
		return err
	case syntax.End:
		return r.Close()
	}
	return nil // errors and unknown events are not written
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
	if r.textType == "" {
		return nil
	}
	t, s := r.textType, r.text.String()
	r.textType = ""
	r.text.Reset()
	return r.u.Text(t, s)
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
// to give back: without errors, fragments and positions, adjacent text
// events of one type joined by a blank line, and args compact.
func Normalize(evs []syntax.Event) []syntax.Event {
	var out []syntax.Event
	for _, e := range evs {
		if e.Partial || e.Type == syntax.Error {
			continue
		}
		e.Span, e.Pos, e.Raw, e.Strings = syntax.Span{}, syntax.Pos{}, "", false
		if n := len(out); n > 0 && (e.Type == syntax.Think || e.Type == syntax.Respond) && out[n-1].Type == e.Type {
			out[n-1].Content += "\n\n" + e.Content
			continue
		}
		out = append(out, e)
	}
	return out
}
