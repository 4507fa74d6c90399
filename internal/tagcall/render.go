// The renderer: thoughts in Think blocks, text as plain lines, each call as
// a Scope block with one Param per value (an array as the key repeated),
// results in Result blocks, and the batch bookkeeping that says what the
// form cannot carry.

package tagcall

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
	"github.com/toolparse/toolparse/syntax/wire"
)

func newRenderer(w io.Writer, opts syntax.Options, f *Format) syntax.Renderer {
	leads, _ := f.leadAndWake()
	return wire.New(f.Name, &units{f: f, w: bufio.NewWriter(w), open: wire.NewOpenThought(opts, f.Think.Close), leads: leads})
}

type units struct {
	f        *Format
	w        *bufio.Writer
	open     wire.OpenThought // ThinkOpen: the output starts in reasoning
	batch    []string         // the calls of the open batch, then of the last executed one
	executed bool             // batch was executed
	answered int              // results written since the execute
	results  bool             // results were written after the last execute
	// afterOpener: the last text written ends in a call opener (the JSON
	// form's Scope.Open): a text that starts with '[' or '{' may not follow.
	afterOpener bool
	leads       string // the bytes markers start with
}

func (u *units) cannot(format string, args ...any) error {
	return wire.CannotCarry(u.f.Name, format, args...)
}

func (u *units) Text(t syntax.Type, s string) error {
	f := u.f
	if t == syntax.Think {
		if f.Think.Close == "" {
			u.open.Begin(u.w, false)
			return u.cannot("a thought: the %s form has no reasoning; not written", f.Name)
		}
		if strings.Contains(s, f.Think.Close) {
			u.open.Begin(u.w, false)
			return u.cannot("a thought holding %s; not written", f.Think.Close)
		}
		if u.open.Begin(u.w, true) {
			if f.Think.Open != "" && strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), f.Think.Open) {
				// The parser passes over an opener before any reasoning text
				// (the model restating the prompt's).
				return u.cannot("reasoning opened by the prompt starting with %s: it reads back as the opener restated; not written", f.Think.Open)
			}
			if !containsAny(s, f.callOpeners()) {
				u.w.WriteString(s + "\n" + f.Think.Close + "\n\n")
				return nil
			}
			if f.Think.Open == "" {
				return u.cannot("a thought holding a call opener, which would end the reasoning the prompt opened (the form has no reasoning opener for a block of its own); not written")
			}
			// A call opener would end the reasoning the prompt opened:
			// close it empty, and write the thought in a block of its own.
			u.w.WriteString(f.Think.Close + "\n")
		}
		if f.Think.Open == "" {
			// Reasoning only the prompt opens (Apriel's): a later thought
			// has no block to go in.
			return u.cannot("a thought after the reasoning the prompt opened: the form has no reasoning opener; not written")
		}
		u.w.WriteString(f.Think.Open + "\n" + s + "\n" + f.Think.Close + "\n\n")
		return nil
	}
	u.open.Begin(u.w, false)
	after := u.afterOpener
	u.afterOpener = u.f.JSON != nil && strings.HasSuffix(strings.TrimRight(s, " \t\r\n"), u.f.Scope.Open)
	if t := strings.TrimLeft(s, " \t\r\n"); after && t != "" && (t[0] == '[' || t[0] == '{') {
		// The text before ended in the call opener: this one would make a
		// call block of it.
		return u.cannot("text starting with %q after text that ends in %s: read back as a call block; not written", t[:1], u.f.Scope.Open)
	}
	if !u.isPlainText(s) {
		return u.cannot("text holding a marker (%s); not written", strings.Join(f.markers(), ", "))
	}
	u.w.WriteString(s + "\n")
	return nil
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// isPlainText reports whether s, written on its own, reads back as one
// respond run with content s.
func (u *units) isPlainText(s string) bool {
	if scan.IndexLead([]byte(s), u.leads) < 0 { // bytes: a lead may begin a character (◁)
		return true
	}
	var got []syntax.Event
	p := u.f.New(func(e syntax.Event) { got = append(got, e) }, syntax.Options{})
	p.Write([]byte(s + "\n"))
	p.Close()
	return len(got) == 2 && got[0].Type == syntax.Respond && got[0].Content == s
}

func (u *units) Calls(calls []syntax.Event) error {
	u.open.Begin(u.w, false)
	u.afterOpener = false
	var first error
	if u.executed {
		if !u.results && len(u.batch) > 0 {
			first = u.cannot("a batch of calls right after another with no results between: read back as one batch")
		}
		u.batch, u.executed, u.answered, u.results = u.batch[:0], false, 0, false
	}
	if !u.f.hasCalls() {
		for _, c := range calls {
			u.batch = append(u.batch, c.Name) // their execute is no second loss
		}
		if first == nil {
			first = u.cannot("calls %s: the %s form has no calls; not written", names(calls), u.f.Name)
		}
		return first
	}
	if u.f.JSON != nil {
		b, err := u.renderJSON(calls)
		if err != nil && first == nil {
			first = err
		}
		u.w.Write(b)
		for _, c := range calls {
			u.batch = append(u.batch, c.Name)
		}
		return first
	}
	for _, c := range calls {
		b, err := u.renderCall(c)
		if err != nil && first == nil {
			first = err
		}
		u.w.Write(b)
		u.batch = append(u.batch, c.Name)
	}
	return first
}

func (u *units) Execute() error {
	if len(u.batch) == 0 || u.executed {
		return u.cannot("an execute with no call: a message's calls are executed at its end")
	}
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	u.open.Begin(u.w, false)
	u.afterOpener = false
	f := u.f
	var first error
	note := func(format string, args ...any) {
		if first == nil {
			first = u.cannot(format, args...)
		}
	}
	if !u.executed && len(u.batch) > 0 {
		note("results before their calls' execute: the calls are executed where the results start")
		u.executed = true
	}
	for _, r := range rs {
		want := ""
		if u.executed && u.answered < len(u.batch) {
			want = u.batch[u.answered]
		}
		u.answered++
		if r.Tool != want {
			note("a result of %q where the call at its position is %q: results are paired with calls by position", r.Tool, want)
		}
		if r.ID != "" && (f.JSON == nil || f.JSON.ID == "") {
			note("the id %q of a result of %q, not written (the %s form has none)", r.ID, r.Tool, f.Name)
		}
		if f.Result.Open == "" {
			note("a result: the form has no result block (results go back in messages of their own)")
			continue
		}
		var content string
		if f.ResultJSON {
			if r.Status == syntax.Failure {
				r = wire.AsText(r) // the failure in words the model reads
			}
			content = f.resultJSON(r.ValueJSON())
			if esc := f.escapedCloser(); strings.Contains(content, f.Result.Close) && esc != "" {
				// JSON text: the closer's '/' escaped reads as the same value.
				content = strings.ReplaceAll(content, f.Result.Close, esc)
				note("result content holding %s: written with its '/' escaped", f.Result.Close)
			}
		} else {
			content = wire.ResultText(wire.AsText(r)) // a failure in words the model reads, any value as its JSON text
		}
		if strings.Contains(content, f.Result.Close) {
			note("result content holding %s; not written", f.Result.Close)
			continue
		}
		u.w.WriteString(f.Result.Open + "\n" + content + "\n" + f.Result.Close + "\n")
	}
	u.results = true
	return first
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	u.w.Flush()
	if len(u.batch) > 0 && !u.executed {
		return u.cannot("calls with no execute: a message's calls are always executed at its end")
	}
	return nil
}

func (u *units) renderCall(c syntax.Event) ([]byte, error) {
	f := u.f
	var b bytes.Buffer
	f.openCall(&b, c.Name)
	lossy := params.Strings(c.Args, func(k, v string) { f.Param.write(&b, k, v) })
	f.closeCall(&b)
	if lossy != "" {
		return b.Bytes(), u.cannot("call %s: %s", c.Name, lossy)
	}
	if !markup.RoundTrips(f.New, nil, b.Bytes(), nil, c) {
		return b.Bytes(), u.cannot("call %s: its name or values do not survive the %s form", c.Name, f.Name)
	}
	return b.Bytes(), nil
}

// markers are the markers plain text may not hold, in the order the
// message lists them.
func (f *Format) markers() []string {
	return nonEmpty(append(append([]string{f.Think.Open}, f.callOpeners()...), f.Result.Open))
}

// openCall writes a call's opener for name.
func (f *Format) openCall(b *bytes.Buffer, name string) {
	if f.named() {
		if f.Scope.Open != "" {
			b.WriteString(f.Scope.Open + "\n")
		}
		b.WriteString(f.Function.Open + name + f.nameEnd() + "\n")
		return
	}
	b.WriteString(f.Scope.Open + name + f.NameClose + "\n")
}

// closeCall writes a call's closer.
func (f *Format) closeCall(b *bytes.Buffer) {
	if f.named() {
		b.WriteString(f.Function.Close + "\n")
	}
	if f.Scope.Close != "" {
		b.WriteString(f.Scope.Close + "\n")
	}
}

// renderJSON writes a batch's calls as one block of the JSON form: an array
// of call objects (the id under its key, when the format has one and the
// call an id). The block is parsed back before it is written.
func (u *units) renderJSON(calls []syntax.Event) ([]byte, error) {
	f, keys := u.f, *u.f.JSON
	var b bytes.Buffer
	object := func(c syntax.Event) {
		if keys.NameKey {
			b.Write(syntax.AppendQuote([]byte(`{`), c.Name))
			b.WriteString(": ")
			b.Write(c.ArgsJSON())
			b.WriteString("}")
			return
		}
		b.Write(syntax.AppendQuote([]byte(`{"`+keys.Name+`": `), c.Name))
		if keys.ID != "" && c.ID != "" {
			b.Write(syntax.AppendQuote([]byte(`, "`+keys.ID+`": `), c.ID))
		}
		b.WriteString(`, "` + keys.Args + `": `)
		b.Write(c.ArgsJSON())
		b.WriteString("}")
	}
	if f.Object {
		for _, c := range calls {
			b.WriteString(f.Scope.Open + "\n")
			object(c)
			b.WriteString("\n" + f.Scope.Close + "\n")
		}
	} else {
		b.WriteString(f.Scope.Open + "[")
		for i, c := range calls {
			if i > 0 {
				b.WriteString(", ")
			}
			object(c)
		}
		b.WriteString("]" + f.Scope.Close + "\n")
	}
	var got []syntax.Event
	p := f.New(func(e syntax.Event) {
		if e.Type == syntax.Call {
			got = append(got, e)
		}
	}, syntax.Options{})
	p.Write(b.Bytes())
	p.Close()
	ok := len(got) == len(calls)
	for i := 0; ok && i < len(got); i++ {
		ok = got[i].Name == calls[i].Name && jsonscan.Equal(got[i].Args, calls[i].ArgsJSON()) && (keys.ID == "" || got[i].ID == calls[i].ID)
	}
	if !ok {
		return b.Bytes(), u.cannot("calls %s: their names or arguments do not survive the %s form", names(calls), f.Name)
	}
	if keys.ID == "" {
		for _, c := range calls {
			if c.ID != "" {
				return b.Bytes(), u.cannot("call %s: its id %q, not written (the %s form has none)", c.Name, c.ID, f.Name)
			}
		}
	}
	return b.Bytes(), nil
}

func names(calls []syntax.Event) string {
	var s []string
	for _, c := range calls {
		s = append(s, c.Name)
	}
	return strings.Join(s, ", ")
}

// resultJSON is how a result's value v is written under ResultJSON: a
// string as its text when that reads back as the same string (no white
// space around it, not itself JSON, no Result.Close in it), anything else
// as its JSON text.
func (f *Format) resultJSON(v []byte) string {
	if jsonscan.Kind(v) == '"' {
		s, _ := jsonscan.Unquote(v)
		t := []byte(s)
		if _, isJSON := jsonscan.Whole(t, 0); len(t) > 0 && len(jsonscan.TrimSpace(t)) == len(t) && !isJSON && !strings.Contains(s, f.Result.Close) {
			return s
		}
	}
	return string(v)
}

// escapedCloser is Result.Close with its '/' escaped as JSON may ("<\/…"),
// or "" when it does not start with "</".
func (f *Format) escapedCloser() string {
	if c, ok := strings.CutPrefix(f.Result.Close, "</"); ok {
		return `<\/` + c
	}
	return ""
}
