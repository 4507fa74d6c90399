package llama3

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// builtins are the tools written in Meta's built-in form,
// <|python_tag|>NAME.call(KEY=VALUE, …), when their arguments are flat.
var builtins = map[string]bool{"brave_search": true, "wolfram_alpha": true, "code_interpreter": true}

// newRenderer returns a renderer that writes events as a Llama 3.x
// transcript, as the model writes it and Meta's chat template renders it:
//
//   - a batch of calls as JSON objects {"name": …, "parameters": {…}}
//     separated by "; ", opening the message (after text, behind
//     <|python_tag|>); brave_search, wolfram_alpha and code_interpreter
//     with flat arguments in the built-in form
//     <|python_tag|>brave_search.call(query="…");
//   - the execute as <|eom_id|> (the message ends, a tool result follows);
//   - each result as an ipython message,
//     <|start_header_id|>ipython<|end_header_id|>\n\nJSON<|eot_id|>, its
//     content as JSON (strings too, as the template's tojson does);
//   - respond text as it is, and the assistant header before text or calls
//     that follow a result or an execute.
//
// It cannot carry thoughts (Llama 3 has no reasoning), ids, failure
// results, results out of their calls' order, respond text that would read
// as something else (JSON call objects opening a message, special tokens),
// an execute with no call, or calls no execute followed; each is reported.
func newRenderer(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New("llama3", newUnits(w, &units{}))
}

// newRendererXLAM returns a renderer that writes as newRenderer does but
// each message's calls as xLAM writes them: one JSON array of {"name",
// "arguments"} objects opening the message. Calls after text, or a second
// run of calls in a message, cannot be carried (the array opens the
// message): they are reported and written in Llama 3's form.
func newRendererXLAM(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New("llama3", newUnits(w, &units{array: true}))
}

type units struct {
	t         *wire.Tail
	w         *bufio.Writer
	open      bool     // an assistant message has content and no stop token yet
	afterStop bool     // a stop token ended the last message: assistant content needs its header
	calls     int      // calls written since the last execute
	names     []string // the calls since the last execute
	batch     []string // the calls of the last executed batch
	resultIdx int
	array     bool // xLAM: a message's calls are one JSON array opening it
	textAfter bool // text came after the message's calls: the next call needs the tag
}

func cannot(format string, args ...any) error { return wire.CannotCarry("llama3", format, args...) }

// assistant starts assistant content: the header after a stop token.
func (u *units) assistant() {
	if u.afterStop {
		u.w.WriteString(startHeader + "assistant" + endHeader + "\n\n")
		u.afterStop = false
	}
}

func (u *units) Text(t syntax.Type, s string) error {
	if t == syntax.Think {
		return cannot("a thought (Llama 3 has no reasoning block): not written")
	}
	u.assistant()
	var err error
	switch {
	case u.calls > 0:
		u.textAfter = true
		// What follows the text is an execute's <|eom_id|>, or nothing.
		if call := `{"name":"x","parameters":{}}` + "\n" + s; !readsBack(call, 1, s) || !readsBack(call+eomID, 1, s) {
			err = cannot("respond text after calls that would not read back as text (it starts with '{' or ';', or holds a special token): written as it is")
		}
		u.w.WriteString("\n")
	case u.open:
		u.w.WriteString("\n\n")
	default:
		if !readsBack(s, 0, s) {
			err = cannot("respond text that would not read back as text (a JSON call object opening the message, or a special token): written as it is")
		}
	}
	u.w.WriteString(s)
	u.open = true
	return err
}

// readsBack reports whether text, parsed as llama3, gives its calls (the
// first calls events) then one respond event holding respond and nothing
// else but an execute: the respond text written after them is read as it
// is.
func readsBack(text string, calls int, respond string) bool {
	evs := syntax.Parse(Syntax, []byte(text), syntax.Options{})
	want := []syntax.Type{}
	for range calls {
		want = append(want, syntax.Call)
	}
	want = append(want, syntax.Respond)
	if calls > 0 {
		want = append(want, syntax.Execute)
	}
	want = append(want, syntax.End)
	if len(evs) != len(want) {
		return false
	}
	for i, e := range evs {
		if e.Type != want[i] || e.Type == syntax.Respond && e.Content != strings.TrimSpace(respond) {
			return false
		}
	}
	return true
}

func (u *units) Calls(calls []syntax.Event) error {
	u.assistant()
	var errs []error
	if u.array {
		if !u.open && u.calls == 0 {
			return u.arrayCalls(calls)
		}
		errs = append(errs, cannot("calls after text or other calls in a message (xLAM's call array opens the message): written in Llama 3's form"))
	}
	for _, c := range calls {
		tag := u.open && (u.calls == 0 || u.textAfter) // text came first: the tag says a call starts
		switch {
		case u.calls > 0 && !u.textAfter:
			u.w.WriteString("; ")
		case u.open:
			u.w.WriteString("\n")
		}
		u.textAfter = false
		if c.ID != "" {
			errs = append(errs, cannot("the id %q of call %s (Llama 3 calls have none): not written", c.ID, c.Name))
		}
		if b, ok := builtinForm(c); ok {
			u.w.WriteString(pythonTag + b)
		} else {
			if tag {
				u.w.WriteString(pythonTag)
			}
			b := append([]byte(`{"name": `), syntax.AppendQuote(nil, c.Name)...)
			b = append(b, `, "parameters": `...)
			b = append(b, c.ArgsJSON()...)
			u.w.Write(append(b, '}'))
		}
		u.calls++
		u.open = true
		u.names = append(u.names, c.Name)
	}
	return errors.Join(errs...)
}

// arrayCalls writes calls as one JSON array opening the message.
func (u *units) arrayCalls(calls []syntax.Event) error {
	var errs []error
	b := []byte{'['}
	for i, c := range calls {
		if c.ID != "" {
			errs = append(errs, cannot("the id %q of call %s (xLAM calls have none): not written", c.ID, c.Name))
		}
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"name": `...)
		b = syntax.AppendQuote(b, c.Name)
		b = append(b, `, "arguments": `...)
		b = append(b, c.ArgsJSON()...)
		b = append(b, '}')
		u.names = append(u.names, c.Name)
	}
	u.w.Write(append(b, ']'))
	u.calls += len(calls)
	u.open = true
	return errors.Join(errs...)
}

// builtinForm writes a call to a built-in tool as NAME.call(K=V, …) when
// its arguments are flat (strings, numbers, booleans, null) and its keys
// are identifiers.
func builtinForm(c syntax.Event) (string, bool) {
	if !builtins[c.Name] {
		return "", false
	}
	var b strings.Builder
	b.WriteString(c.Name + callSuffix)
	ok, n := true, 0
	jsonscan.Members(c.ArgsJSON(), func(k string, v []byte) bool {
		for i := 0; i < len(k); i++ {
			if !isIdentByte(k[i], i == 0) {
				ok = false
				return false
			}
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		b.WriteString(k + "=")
		switch jsonscan.Kind(v) {
		case '"':
			s, _ := jsonscan.Unquote(v)
			b.WriteString(pyQuote(s))
		case 't':
			b.WriteString("True")
		case 'f':
			b.WriteString("False")
		case 'n':
			b.WriteString("None")
		case '{', '[':
			ok = false
			return false
		default:
			b.Write(v)
		}
		return true
	})
	b.WriteString(")")
	return b.String(), ok && n > 0
}

func (u *units) Execute() error {
	if u.calls == 0 {
		return cannot("an execute with no call before it (Llama 3 has no empty batch): not written")
	}
	u.assistant()
	u.w.WriteString(eomID)
	u.open, u.afterStop = false, true
	u.calls, u.textAfter = 0, false
	u.batch, u.names, u.resultIdx = append(u.batch[:0], u.names...), u.names[:0], 0
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var errs []error
	if u.open {
		u.w.WriteString(eotID)
		u.open, u.afterStop = false, true
	}
	if u.calls > 0 {
		errs = append(errs, cannot("%d call(s) before results with no execute: the message ends there, which executes them", u.calls))
		u.calls, u.textAfter = 0, false
		u.batch, u.names, u.resultIdx = append(u.batch[:0], u.names...), u.names[:0], 0
	}
	for _, r := range rs {
		if r.Status == syntax.Failure {
			r = wire.AsText(r) // the failure in words the model reads
		}
		if r.ID != "" {
			errs = append(errs, cannot("the id %q of a result of %s: not written", r.ID, r.Tool))
		}
		tool := ""
		if u.resultIdx < len(u.batch) {
			tool = u.batch[u.resultIdx]
		}
		u.resultIdx++
		if r.Tool != tool {
			errs = append(errs, cannot("a result of %s where the call in its place is %q (ipython results are matched to calls by order): written in its place", r.Tool, tool))
		}
		value := r.ValueJSON()
		if strings.Contains(string(value), eotID) || strings.Contains(string(value), eomID) || strings.Contains(string(value), startHeader) {
			errs = append(errs, cannot("a result of %s holding a special token: written as it is", r.Tool))
		}
		u.w.WriteString(startHeader + "ipython" + endHeader + "\n\n")
		u.w.Write(value)
		u.w.WriteString(eotID)
		u.afterStop = true
	}
	return errors.Join(errs...)
}

func (u *units) End() error {
	var err error
	if u.calls > 0 {
		err = cannot("%d call(s) no execute followed: written, and the parser executes them at the end of the message", u.calls)
	}
	if ferr := u.w.Flush(); ferr != nil {
		return errors.Join(err, ferr)
	}
	if u.t.NeedsLineEnd() {
		u.w.WriteString("\n") // the output ends with a line end, as the other syntaxes' do
	}
	return errors.Join(err, u.w.Flush())
}

// newUnits makes u write to w through a buffer.
func newUnits(w io.Writer, u *units) *units {
	u.t = &wire.Tail{W: w}
	u.w = bufio.NewWriter(u.t)
	return u
}

func (u *units) Flush() error { return u.w.Flush() }
