package deepseek

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in DeepSeek V3.1's form:
// thoughts as <think>…</think> (with Options.ThinkOpen, the first thought
// without its opener, which the prompt holds, and always a </think> before
// anything else), text as it is, each batch of calls as one
// <｜tool▁calls▁begin｜> section of
// <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>, and each run
// of results as one <｜tool▁outputs▁begin｜> section of
// <｜tool▁output▁begin｜>…<｜tool▁output▁end｜>, each holding its content.
//
// It cannot carry (and says so): ids, a failure status, a result content
// that is not a string (written as its JSON text), a result whose tool is not
// the call at its place in the last batch, text or a thought holding one of
// the markers, text or calls between an execute and the results (the parser
// executes a batch at the end of the message, or at its first output), and
// calls with no execute.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("deepseek", &units{w: bufio.NewWriter(w), implicit: opts.ThinkOpen, think: wire.NewOpenThought(opts, closeThink)})
}

// The forms calls are written in.
const (
	formV31 = iota
	formV3
	formDSML
	formV4
)

// newRendererV3 is [newRenderer] writing calls in the V3 / R1 form:
// <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME, then the arguments in a
// ```json fence. A name holding a line end or a marker cannot be carried.
func newRendererV3(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("deepseek", &units{w: bufio.NewWriter(w), implicit: opts.ThinkOpen, think: wire.NewOpenThought(opts, closeThink), form: formV3})
}

// newRendererDSML is [newRenderer] writing calls in V3.2's DSML form: one
// <｜DSML｜function_calls> section per batch, an invoke per call, a
// parameter per argument: a string as string="true" and its text, any
// other value as string="false" and its JSON text. Each call is parsed back
// before it is written.
func newRendererDSML(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("deepseek", &units{w: bufio.NewWriter(w), implicit: opts.ThinkOpen, think: wire.NewOpenThought(opts, closeThink), form: formDSML})
}

// newRendererV4 is [newRendererDSML] in DeepSeek V4's section,
// <｜DSML｜tool_calls>.
func newRendererV4(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("deepseek", &units{w: bufio.NewWriter(w), implicit: opts.ThinkOpen, think: wire.NewOpenThought(opts, closeThink), form: formV4})
}

type units struct {
	w        *bufio.Writer
	form     int
	implicit bool // the prompt opened the reasoning: the output starts in it
	think    wire.OpenThought
	section  bool // a calls section is open
	pending  int  // calls written since the last execute
	executed bool // an execute came, and no result since
	batch    []string
	last     []string
	results  int
}

func cannot(format string, args ...any) error { return wire.CannotCarry("deepseek", format, args...) }

func (u *units) closeSection() {
	if u.section {
		switch u.form {
		case formDSML:
			u.w.WriteString(dsmlCallsEnd + "\n")
		case formV4:
			u.w.WriteString(dsmlToolEnd + "\n")
		default:
			u.w.WriteString(callsEnd + "\n")
		}
		u.section = false
	}
}

func (u *units) Text(t syntax.Type, s string) error {
	var err error
	if u.executed {
		err = cannot("%s text after an execute: the parser executes a batch at the end of the message, so it reads back before the execute", t)
	}
	u.closeSection()
	if t == syntax.Think {
		implicit := u.think.Begin(u.w, true)
		if u.implicit && !implicit {
			return cannot("a thought after the reasoning the prompt opened (with ThinkOpen, a later <think> is text); not written")
		}
		if m := markup.WriteThought(u.w, s, implicit, openThink, closeThink, "\n", callOpeners[:]); m != "" {
			return cannot("a thought holding %s; not written", m)
		}
		return err
	}
	u.think.Begin(u.w, false)
	if m := markup.HoldsMarker(s, textMarkers[:]); m != "" {
		return cannot("text holding %s; not written", m)
	}
	u.w.WriteString(s + "\n")
	return err
}

func (u *units) Calls(calls []syntax.Event) error {
	var first error
	note := func(err error) {
		if first == nil {
			first = err
		}
	}
	if u.executed {
		note(cannot("calls after an execute with no result between: they read back as one batch with the calls before"))
	}
	u.think.Begin(u.w, false)
	if !u.section {
		switch u.form {
		case formDSML:
			u.w.WriteString(dsmlCalls + "\n")
		case formV4:
			u.w.WriteString(dsmlToolCalls + "\n")
		default:
			u.w.WriteString(callsBegin)
		}
		u.section = true
	}
	for _, c := range calls {
		if c.ID != "" {
			note(cannot("the id %q of call %s (DeepSeek calls have no ids): not written", c.ID, c.Name))
		}
		switch u.form {
		case formDSML, formV4:
			b, err := renderInvoke(c)
			note(err)
			u.w.Write(b)
		default:
			name := strings.TrimSpace(c.Name)
			bad := name != c.Name || name == "" || strings.Contains(name, "<｜")
			if u.form == formV3 {
				bad = bad || strings.ContainsAny(name, "\n`<") || name[0] == '{'
				u.w.WriteString(callBegin + callTypeV3 + toolSep + c.Name + "\n```json\n")
				u.w.Write(c.ArgsJSON())
				u.w.WriteString("\n```" + callEnd)
			} else {
				u.w.WriteString(callBegin + c.Name + toolSep)
				u.w.Write(c.ArgsJSON())
				u.w.WriteString(callEnd)
			}
			if bad {
				note(cannot("call name %q: empty, padded with white space or holding a marker", c.Name))
			}
		}
		u.batch = append(u.batch, c.Name)
		u.pending++
	}
	return first
}

// renderInvoke writes a call as a DSML invoke and parses it back.
func renderInvoke(c syntax.Event) ([]byte, error) {
	var b bytes.Buffer
	dsmlTags.WriteTyped(&b, c)
	if !invokexml.RoundTrips(newParser, []byte(dsmlCalls+"\n"), b.Bytes(), []byte(dsmlCallsEnd), c) {
		return b.Bytes(), cannot("call %s: its name or values do not survive the DSML form", c.Name)
	}
	return b.Bytes(), nil
}

func (u *units) Execute() error {
	u.closeSection()
	if u.pending == 0 {
		return cannot("an execute with no call: a batch is executed only when it holds a call")
	}
	u.pending = 0
	u.executed = true
	u.last, u.batch = u.batch, u.last[:0]
	u.results = 0
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var first error
	note := func(err error) {
		if first == nil {
			first = err
		}
	}
	u.think.Begin(u.w, false)
	if u.pending > 0 {
		note(cannot("results after calls with no execute: the parser executes the calls at their first output"))
		u.closeSection()
		u.pending = 0
		u.last, u.batch = u.batch, u.last[:0]
		u.results = 0
	}
	u.executed = false
	u.w.WriteString(outputsBegin)
	for _, r := range rs {
		want := ""
		if u.results < len(u.last) {
			want = u.last[u.results]
		}
		u.results++
		if r.Tool != want {
			note(cannot("the result of %q at the place of %q in the batch: a result reads back as the call's at its place", r.Tool, want))
		}
		if r.ID != "" {
			note(cannot("the id %q of a result: not written", r.ID))
		}
		text := wire.ResultText(r) // a failure in words the model reads, any value as its JSON text
		if strings.Contains(text, outputEnd) {
			note(cannot("a result of %q holding %s: written cut there", r.Tool, outputEnd))
		}
		u.w.WriteString(outputBegin + text + outputEnd)
	}
	u.w.WriteString(outputsEnd + "\n")
	return first
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	u.closeSection()
	u.think.Begin(u.w, false)
	var err error
	if u.pending > 0 {
		err = cannot("calls with no execute: the parser executes a batch at the end of the message")
	}
	if ferr := u.w.Flush(); ferr != nil {
		return ferr
	}
	return err
}
