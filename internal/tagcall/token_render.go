package tagcall

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newTokenRenderer returns the token form's renderer: a thought as a Think
// block, respond text as plain lines, and each run of calls as one
// section, each call with its header (Token.WriteHeader's, from the
// call's id when the header can carry it) and its arguments byte for byte,
// or, as Token.Write picks, in the typed form or as invoke elements (each
// read back before it is written). An execute writes nothing: the calls of
// a message run when it ends (markup.Turn keeps that account). With
// Options.ThinkOpen the output starts inside reasoning: the first thought
// is written without its opener, and anything else first is preceded by
// Think.Close. With Token.Output each run of results is one Outputs
// section of outputs, each its content's text.
//
// It cannot carry, and reports: results (not model text in this form,
// unless Output is set: then a result whose tool is not the call's at its
// place in the last batch, an id, a content holding Output.Close), an id
// its header cannot carry (the header is written without it, or with a
// made one), text or calls between an execute and the results (they would
// read back before the execute, or in its batch), calls no execute
// followed, an execute with no calls, respond text holding a marker that
// opens something, a thought holding Think.Close or, where it ends
// reasoning, a call or section marker (or, for reasoning opened by the
// prompt, a leading Think.Open), and with Format.ThinkOnce a thought after
// the reasoning the prompt opened.
func newTokenRenderer(w io.Writer, opts syntax.Options, f *Format) syntax.Renderer {
	return wire.New(f.Name, &tokenUnits{Turn: markup.NewTurn(f.Name, w, opts, f.Think.Close), f: f, t: f.Token, d: f.derive().tok, implicit: opts.ThinkOpen})
}

type tokenUnits struct {
	markup.Turn // the output, the reasoning the prompt opened, calls and executes
	f           *Format
	t           *Token
	d           *tkDerived
	implicit    bool // Options.ThinkOpen
	made        int  // calls written, for the ids made

	// Outputs: the names of the calls written since the last execute, and
	// of those the last execute ran.
	batch, last []string
}

func (u *tokenUnits) cannot(format string, args ...any) error {
	return wire.CannotCarry(u.f.Name, format, args...)
}

func (u *tokenUnits) Text(t syntax.Type, s string) error {
	err := u.TextAfter(t)
	inside := u.Think.Begin(u.W, t == syntax.Think)
	if t == syntax.Think {
		if u.f.ThinkOnce && u.implicit && !inside {
			return errors.Join(err, u.cannot("a thought after the reasoning the prompt opened (with ThinkOpen, a later %s is text): not written", u.f.Think.Open))
		}
		markers := u.d.think
		if !inside && !u.f.ThinkCalls {
			markers = markers[:1] // Think.Close: nothing else is a marker in it
		}
		if m := markup.HoldsMarker(s, markers); m != "" {
			return errors.Join(err, u.cannot("a thought holding %s: not written", m))
		}
		if inside {
			if strings.HasPrefix(s, u.f.Think.Open) {
				return errors.Join(err, u.cannot("reasoning opened by the prompt starting with %s: not written (it reads as the opener)", u.f.Think.Open))
			}
			u.W.WriteString(s + "\n" + u.f.Think.Close + "\n")
			return err
		}
		u.W.WriteString(u.f.Think.Open + "\n" + s + "\n" + u.f.Think.Close + "\n")
		return err
	}
	if m := markup.HoldsMarker(s, u.d.text); m != "" {
		return errors.Join(err, u.cannot("respond text holding the marker %s: not written", m))
	}
	u.W.WriteString(s + "\n")
	return err
}

// reads reports whether header h, written, reads back as a call named
// name with the id id (any id when id is ""): Token.Header reads it so,
// and it holds no marker that ends a header and no white space at its
// ends (the parser trims them).
func (u *tokenUnits) reads(h, name, id string) bool {
	got, gotID, problem := u.t.Header(h)
	return problem == "" && got == name && (id == "" || gotID == id) && strings.TrimSpace(h) == h && markup.HoldsMarker(h, u.d.idStops) == ""
}

func (u *tokenUnits) Calls(calls []syntax.Event) error {
	err := u.AddCalls(len(calls))
	u.Think.Begin(u.W, false)
	if u.t.Write != 0 {
		b, werr := u.written(calls)
		u.W.Write(b)
		return errors.Join(err, werr)
	}
	var b []byte
	b = append(b, u.t.Open[0]...)
	for _, c := range calls {
		h := u.t.WriteHeader(c.Name, c.ID, u.made)
		if !u.reads(h, c.Name, c.ID) {
			h = u.t.WriteHeader(c.Name, "", u.made)
			ok := u.reads(h, c.Name, "")
			if c.ID != "" {
				as := "as a made id"
				if _, made, _ := u.t.Header(h); ok && made == "" {
					as = "without it"
				}
				err = errors.Join(err, u.cannot("the id %q of call %s, which %s: written %s", c.ID, c.Name, u.t.IDRule, as))
			}
			if !ok {
				err = errors.Join(err, u.cannot("call %s, whose name cannot stand in its header: not written", c.Name))
				continue
			}
		}
		u.wrote(c.Name)
		b = append(b, u.t.Call.Open...)
		b = append(b, h...)
		b = append(b, u.t.Sep...)
		b = append(b, c.ArgsJSON()...)
		b = append(b, u.t.Call.Close...)
	}
	b = append(b, u.t.Close[0]+"\n"...)
	u.W.Write(b)
	return err
}

// wrote notes a call named name written.
func (u *tokenUnits) wrote(name string) {
	u.made++
	u.batch = append(u.batch, name)
}

func (u *tokenUnits) Execute() error {
	u.last, u.batch = u.batch, u.last[:0]
	return u.Turn.Execute()
}

func (u *tokenUnits) Results(rs []syntax.Event) error {
	if u.t.Output.Open == "" {
		return u.Turn.Results(rs)
	}
	u.Think.Begin(u.W, false)
	if len(u.batch) > 0 { // calls with no execute: the outputs execute them
		u.last, u.batch = u.batch, u.last[:0]
	}
	err := u.Answered()
	u.W.WriteString(u.t.Outputs.Open)
	for k, r := range rs {
		want := ""
		if k < len(u.last) {
			want = u.last[k]
		}
		if r.Tool != want {
			err = errors.Join(err, u.cannot("the result of %q at the place of %q in the batch: a result reads back as the call's at its place", r.Tool, want))
		}
		if r.ID != "" {
			err = errors.Join(err, u.cannot("the id %q of a result: not written", r.ID))
		}
		text := wire.ResultText(r) // a failure in words the model reads, any value as its JSON text
		if strings.Contains(text, u.t.Output.Close) {
			err = errors.Join(err, u.cannot("a result of %q holding %s: written cut there", r.Tool, u.t.Output.Close))
		}
		u.W.WriteString(u.t.Output.Open + text + u.t.Output.Close)
	}
	u.W.WriteString(u.t.Outputs.Close + "\n")
	u.last = u.last[:0] // a later run of results answers nothing
	return err
}

// written writes calls in the form Token.Write picks, a section of them,
// each read back before it is written.
func (u *tokenUnits) written(calls []syntax.Event) ([]byte, error) {
	open, closer := u.t.Open[0], u.t.Close[0]
	if u.t.Write >= WriteInvoke {
		s := u.t.Invoke.Sections[u.t.Write-WriteInvoke]
		open, closer = s.Open+"\n", s.Close
	}
	var err error
	b := bytes.NewBufferString(open)
	for _, c := range calls {
		if c.ID != "" {
			err = errors.Join(err, u.cannot("the id %q of call %s (%s calls have no ids): not written", c.ID, c.Name, u.f.Name))
		}
		var el bytes.Buffer
		if u.t.Write >= WriteInvoke {
			u.t.Invoke.Tags.WriteTyped(&el, c)
		} else {
			el.WriteString(u.t.Call.Open + u.t.Typed + u.t.Sep + c.Name + "\n" + fence + "json\n")
			el.Write(c.ArgsJSON())
			el.WriteString("\n" + fence + u.t.Call.Close)
		}
		if !markup.RoundTrips(u.f.New, []byte(open), el.Bytes(), []byte(closer), c) {
			err = errors.Join(err, u.cannot("call %s: its name or values do not survive the form written", c.Name))
		}
		b.Write(el.Bytes())
		u.wrote(c.Name)
	}
	b.WriteString(closer + "\n")
	return b.Bytes(), err
}
