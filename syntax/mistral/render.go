package mistral

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the form of the
// current Mistral tokenizers (v13+: Magistral, Devstral 2, Ministral 3):
//
//   - each call as [TOOL_CALLS]NAME[ARGS]{…}, or, when it has an id, in
//     the v11 form [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…};
//   - reasoning as [THINK]…[/THINK] (with Options.ThinkOpen the first
//     thought is written without its opener, as the prompt opened it);
//   - each result as [TOOL_RESULTS]ID[TOOL_CONTENT]CONTENT[/TOOL_RESULTS]
//     (without ID[TOOL_CONTENT] when it has no id), its content as text
//     when it is a string that reads back as itself, else as JSON;
//   - the execute as nothing: the message ends at the results, or at </s>
//     when text follows the calls' execute directly.
//
// It cannot carry failure results, results whose tool is not the call they
// answer, text or thoughts that hold the markers, names and ids with white
// space or brackets, an execute with no call, or calls no execute
// followed; each is reported.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("mistral", newUnits(w, &units{open: opts.ThinkOpen}))
}

// newRendererV3 returns a renderer that writes each batch of calls in the
// v3/v7 form (Mistral 7B v0.3, Mixtral, Nemo): one
// [TOOL_CALLS][{"name": …, "arguments": {…}, "id": …}, …] array; the rest
// as NewRenderer writes it.
func newRendererV3(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("mistral", newUnits(w, &units{open: opts.ThinkOpen, v3: true}))
}

type units struct {
	t      *wire.Tail
	w      *bufio.Writer
	v3     bool
	open   bool           // the prompt opened reasoning and nothing has been written yet
	eos    bool           // an execute ended the message: text or calls next need </s> before them
	calls  []syntax.Event // the calls since the last execute
	v3Out  int            // v3: how many of them are written
	batch  []syntax.Event // the calls of the last executed batch
	result int
}

func cannot(format string, args ...any) error { return wire.CannotCarry("mistral", format, args...) }

// begin writes what must come before assistant content: the closer of
// reasoning the prompt opened, </s> after an execute.
func (u *units) begin() {
	if u.open {
		u.w.WriteString(thinkClose)
		u.open = false
	}
	if u.eos {
		u.w.WriteString(eos)
		u.eos = false
	}
}

func (u *units) Text(t syntax.Type, s string) error {
	u.flushV3() // v3: the calls before the text, in their own array
	var err error
	if t == syntax.Think {
		bad := strings.Contains(s, thinkClose)
		if u.open {
			bad = bad || strings.Contains(s, tagClose) || strings.Contains(s, toolCalls)
			u.w.WriteString(s + thinkClose)
			u.open = false
		} else {
			u.begin()
			u.w.WriteString(thinkOpen + s + thinkClose)
		}
		if bad {
			err = cannot("a thought holding a marker that ends it: written as it is")
		}
		return err
	}
	u.begin()
	evs := syntax.Parse(Syntax, []byte(s), syntax.Options{})
	if len(evs) != 2 || evs[0].Type != syntax.Respond {
		err = cannot("respond text holding a marker: written as it is")
	}
	u.w.WriteString(s)
	return err
}

func (u *units) Calls(calls []syntax.Event) error {
	u.begin()
	var errs []error
	for _, c := range calls {
		if !nameOK(c.Name) || c.ID != "" && !nameOK(c.ID) {
			errs = append(errs, cannot("the call %q (id %q): a name or id that is empty or holds white space or brackets: written as it is", c.Name, c.ID))
		}
		if !u.v3 {
			u.w.WriteString(toolCalls + c.Name)
			if c.ID != "" {
				u.w.WriteString(callIDTok + c.ID)
			}
			u.w.WriteString(argsTok)
			u.w.Write(c.ArgsJSON())
		}
	}
	u.calls = append(u.calls, calls...)
	return errors.Join(errs...)
}

func nameOK(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// flushV3 writes the calls of the batch not yet written as one v3 array.
func (u *units) flushV3() {
	if !u.v3 || len(u.calls) == u.v3Out {
		return
	}
	b := []byte(toolCalls + "[")
	for i, c := range u.calls[u.v3Out:] {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"name": `...)
		b = syntax.AppendQuote(b, c.Name)
		b = append(b, `, "arguments": `...)
		b = append(b, c.ArgsJSON()...)
		if c.ID != "" {
			b = append(b, `, "id": `...)
			b = syntax.AppendQuote(b, c.ID)
		}
		b = append(b, '}')
	}
	u.w.Write(append(b, ']'))
	u.v3Out = len(u.calls)
}

func (u *units) Execute() error {
	if len(u.calls) == 0 {
		return cannot("an execute with no call before it: not written")
	}
	u.flushV3()
	u.batch, u.calls, u.result, u.v3Out = append(u.batch[:0], u.calls...), nil, 0, 0
	u.eos = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var errs []error
	if len(u.calls) > 0 {
		errs = append(errs, cannot("%d call(s) before results with no execute: the results end the message, which executes them", len(u.calls)))
		u.flushV3()
		u.batch, u.calls, u.result, u.v3Out = append(u.batch[:0], u.calls...), nil, 0, 0
	}
	if u.open {
		u.w.WriteString(thinkClose)
		u.open = false
	}
	u.eos = false
	for _, r := range rs {
		want := ""
		if r.ID != "" {
			for _, c := range u.batch {
				if c.ID == r.ID {
					want = c.Name
					break
				}
			}
		} else if u.result < len(u.batch) {
			want = u.batch[u.result].Name
		}
		u.result++
		if r.Tool != want {
			errs = append(errs, cannot("a result of %s where its call is %q: written in its place", r.Tool, want))
		}
		if r.Status == syntax.Failure {
			r = wire.AsText(r) // the failure in words the model reads
		}
		if r.ID != "" && !nameOK(r.ID) {
			errs = append(errs, cannot("the id %q of a result of %s: written as it is", r.ID, r.Tool))
		}
		content := contentText(r.ValueJSON())
		if strings.Contains(content, toolResultsE) || strings.Contains(content, toolContent) {
			errs = append(errs, cannot("a result of %s holding %s or %s: written as it is", r.Tool, toolResultsE, toolContent))
		}
		u.w.WriteString(toolResults)
		if r.ID != "" {
			u.w.WriteString(r.ID + toolContent)
		}
		u.w.WriteString(content + toolResultsE)
	}
	return errors.Join(errs...)
}

// contentText is a result's content as written: a string as its text when
// it reads back as itself (not JSON, no white space around it), else JSON.
func contentText(v []byte) string {
	if jsonscan.Kind(v) == '"' {
		s, _ := jsonscan.Unquote(v)
		if _, isJSON := jsonscan.Whole([]byte(s), 0); !isJSON && s != "" && string(jsonscan.TrimSpace([]byte(s))) == s {
			return s
		}
	}
	return string(v)
}

func (u *units) End() error {
	var err error
	if len(u.calls) > 0 {
		u.flushV3()
		err = cannot("%d call(s) no execute followed: written, and the parser executes them at the end of the message", len(u.calls))
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
