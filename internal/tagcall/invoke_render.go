package tagcall

import (
	"bytes"
	"io"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newInvokeRenderer returns a renderer that writes events in the invoke
// form: thoughts as Think blocks (with Options.ThinkOpen, the first thought
// without its opener, which the prompt holds, and always Think.Close before
// anything else), text as it is (between Answer's tags, when the format
// has an answer channel), each batch of calls as one section (the first of
// Sections) of invoke elements, and each run of results as a results block
// of WriteResult's elements; thoughts, text, a section's tags and its
// invokes each end a line unless Packed. With Tags.Typed each value is
// written with its type (a string as string="true" and its text, any other
// value as string="false" and its JSON text); otherwise each value is a
// parameter of its own (an array of strings as the parameter repeated).
// Each call is parsed back before it is written.
//
// It cannot carry (and says so): ids, untyped values that are not strings
// (written as their JSON text; a tool schema converts them back), an array
// of fewer than two items, values holding a parameter closer that would
// end them, results when the format has no results block and those
// WriteResult cannot write, text or a thought holding the tags, text or
// calls between an execute and the results, and calls with no execute.
func newInvokeRenderer(w io.Writer, opts syntax.Options, f *Format) syntax.Renderer {
	u := &ivUnits{Turn: markup.NewTurn(f.Name, w, opts, f.Think.Close), f: f, implicit: opts.ThinkOpen}
	u.section = f.Invoke.Sections[0]
	u.markers = f.Invoke.textMarkers(f)
	if u.nl = "\n"; f.Invoke.Packed {
		u.nl = ""
	}
	return wire.New(f.Name, u)
}

type ivUnits struct {
	markup.Turn
	f        *Format
	implicit bool     // Options.ThinkOpen
	section  Tags     // the section written
	markers  []string // what ends a text run
	nl       string   // what ends each part of the turn: a line end, or nothing (Packed)
	open     bool     // a section is open
	k        int      // invokes written in the open section
}

func (u *ivUnits) cannot(format string, args ...any) error {
	return wire.CannotCarry(u.f.Name, format, args...)
}

func (u *ivUnits) closeSection() {
	if u.open {
		u.W.WriteString(u.section.Close + u.nl)
		u.open = false
	}
}

func (u *ivUnits) Text(t syntax.Type, s string) error {
	err := u.TextAfter(t)
	u.closeSection()
	f := u.f
	if t == syntax.Think {
		implicit := u.Think.Begin(u.W, true)
		if u.implicit && !implicit {
			return u.cannot("a thought after the reasoning the prompt opened (with ThinkOpen, a later %s is text); not written", f.Think.Open)
		}
		if m := markup.WriteThought(u.W, s, implicit, f.Think.Open, f.Think.Close, u.nl, f.Invoke.enders()); m != "" {
			return u.cannot("a thought holding %s; not written", m)
		}
		return err
	}
	u.Think.Begin(u.W, false)
	if m := u.foreign(s); m != "" {
		return u.cannot("text holding %s; not written", m)
	}
	a := f.Invoke.Answer
	u.W.WriteString(a.Open + s + a.Close + u.nl)
	return err
}

// foreign returns the marker in s that makes it more than one run of text
// when parsed alone, or "": a section opener that opens no block (prose
// that names <minimax:tool_call>) is fine.
func (u *ivUnits) foreign(s string) string {
	m := markup.HoldsMarker(s, u.markers)
	if m == "" {
		return ""
	}
	var evs []syntax.Event
	p := u.f.New(func(e syntax.Event) { evs = append(evs, e) }, syntax.Options{})
	p.Write([]byte(s))
	p.Close()
	if len(evs) == 2 && evs[0].Type == syntax.Respond && evs[0].Content == s {
		return ""
	}
	return m
}

func (u *ivUnits) Calls(calls []syntax.Event) error {
	var first error
	note := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	note(u.AddCalls(len(calls)))
	u.Think.Begin(u.W, false)
	if !u.open {
		u.W.WriteString(u.section.Open)
		if !u.f.Invoke.Tight {
			u.W.WriteString(u.nl)
		}
		u.open, u.k = true, 0
	}
	for _, c := range calls {
		if c.ID != "" {
			note(u.cannot("the id %q of call %s (the %s form has none): not written", c.ID, c.Name, u.f.Name))
		}
		b, err := u.invoke(c)
		note(err)
		u.W.Write(b)
		u.k++
	}
	return first
}

// invoke writes one call as an invoke element.
func (u *ivUnits) invoke(c syntax.Event) ([]byte, error) {
	var b bytes.Buffer
	tags := u.f.Invoke.Tags
	lossy := ""
	switch {
	case u.f.Invoke.WriteInvoke != nil:
		var el []byte
		el, lossy = u.f.Invoke.WriteInvoke(c, u.k)
		if el == nil {
			return nil, u.cannot("call %q: %s; not written", c.Name, lossy)
		}
		b.Write(el)
	case tags.Typed:
		tags.WriteTyped(&b, c)
	default:
		b.WriteString(tags.Tag(c.Name) + "\n")
		param := func(k, v string) {
			b.WriteString(tags.Param + ` name="` + k + `">` + invokexml.Pad(v) + tags.ParamEnd + "\n")
		}
		jsonscan.Members(c.ArgsJSON(), func(k string, v []byte) bool {
			switch jsonscan.Kind(v) {
			case '"':
				s, _ := jsonscan.Unquote(v)
				param(k, s)
			case '[':
				n, strs := 0, true
				jsonscan.Elements(v, func(e []byte, _ int) bool {
					n++
					strs = strs && jsonscan.Kind(e) == '"'
					return true
				})
				if n < 2 || !strs {
					param(k, string(v))
					lossy = "values that are not strings, written as their JSON text"
					break
				}
				jsonscan.Elements(v, func(e []byte, _ int) bool {
					s, _ := jsonscan.Unquote(e)
					param(k, s)
					return true
				})
			default:
				param(k, string(v))
				lossy = "values that are not strings, written as their JSON text"
			}
			return true
		})
		b.WriteString(tags.InvokeEnd + "\n")
	}
	if lossy != "" {
		return b.Bytes(), u.cannot("call %s: %s", c.Name, lossy)
	}
	if !markup.RoundTrips(u.f.New, []byte(u.section.Open+"\n"), b.Bytes(), []byte(u.section.Close), c) {
		return b.Bytes(), u.cannot("call %s: its name or values do not survive the invoke form", c.Name)
	}
	return b.Bytes(), nil
}

func (u *ivUnits) Execute() error {
	u.closeSection()
	return u.Turn.Execute()
}

func (u *ivUnits) Results(rs []syntax.Event) error {
	u.closeSection()
	v := u.f.Invoke
	if v.Results.Open == "" {
		return u.Turn.Results(rs)
	}
	u.Think.Begin(u.W, false)
	first := u.Answered()
	note := func(err error) {
		if first == nil {
			first = err
		}
	}
	u.W.WriteString(v.Results.Open + "\n")
	for _, r := range rs {
		if r.ID != "" {
			note(u.cannot("the id %q of a result: not written", r.ID))
		}
		el, problem := v.WriteResult(r)
		if problem != "" {
			note(u.cannot("%s", problem))
		}
		u.W.WriteString(el)
	}
	u.W.WriteString(v.Results.Close + "\n")
	return first
}

func (u *ivUnits) End() error {
	u.closeSection()
	return u.Turn.End()
}
