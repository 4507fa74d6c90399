package pythonic

import (
	"bufio"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the pythonic form:
// think as <think>…</think> (with ThinkOpen, the first thought without its
// opener, as the prompt opened it), respond as plain lines, and each run of
// calls as one bare list, [name(key=value, …)], on its own line. Values are
// written as Python literals that read back to the same JSON: strings
// single-quoted with backslash escapes, numbers as their JSON text (which
// Python reads as the same int or float), true/false/null as
// True/False/None, objects as dicts and arrays as lists.
//
// It cannot carry, and reports: results (the format has no result form in
// the model's text: they go back in an ipython or tool message), call ids,
// a name that is not a dotted Python name, an argument key that is not a
// Python identifier (the call is not written), respond text that would read
// as a marker or a call list, a thought holding </think>, an execute with no
// calls before it or calls with no execute after them (the execute is
// implicit, at the end of the message), and text or calls after an execute
// (a second message: read back, it joins the first).
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("pythonic", &units{w: bufio.NewWriter(w), thinkOpen: opts.ThinkOpen, opts: opts})
}

// newRendererOlmo3 returns a renderer that writes as newRenderer does but
// each run of calls as Olmo 3 does: <function_calls>, one call per line,
// </function_calls>.
func newRendererOlmo3(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("pythonic", &units{w: bufio.NewWriter(w), thinkOpen: opts.ThinkOpen, opts: opts, body: true})
}

// newRendererMiniCPM returns a renderer that writes as MiniCPM 3 and 4
// do: thoughts between <|thought_start|> and <|thought_end|>, each run of
// calls one per line in a ```python fence between <|tool_call_start|> and
// <|tool_call_end|>.
func newRendererMiniCPM(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("pythonic", &units{w: bufio.NewWriter(w), thinkOpen: opts.ThinkOpen, opts: opts, body: true, fence: true})
}

type units struct {
	w         *bufio.Writer
	opts      syntax.Options
	thinkOpen bool // the prompt opened reasoning: the output starts in it
	body      bool // calls go in a <function_calls> block, one per line (Olmo 3)
	fence     bool // with body: in a ```python fence after <|tool_call_start|> instead, thoughts in <|thought_start|> (MiniCPM)
	started   bool // something was written
	executed  bool // an execute came: the message is over
	calls     int  // calls written since the last execute
}

func cannot(format string, args ...any) error { return wire.CannotCarry("pythonic", format, args...) }

// begin is called before each unit; think says whether it is a thought.
func (u *units) begin(think bool) (first bool) {
	first = !u.started
	if first && u.thinkOpen && !think {
		u.w.WriteString(closeThink + "\n") // close the reasoning the prompt opened
	}
	u.started = true
	return first
}

func (u *units) late(what string) error {
	if !u.executed {
		return nil
	}
	return cannot("%s after the execute that ended the message: read back, it comes before the execute", what)
}

func (u *units) Text(t syntax.Type, s string) error {
	err := u.late(string(t) + " text")
	if t == syntax.Think && u.fence {
		if strings.Contains(s, thoughtClose) {
			return errors.Join(err, cannot("a thought holding %s: not written", thoughtClose))
		}
		u.begin(true)
		u.w.WriteString(thoughtOpen + "\n" + s + "\n" + thoughtClose + "\n")
		return err
	}
	if t == syntax.Think {
		if strings.Contains(s, closeThink) {
			return errors.Join(err, cannot("a thought holding %s: not written", closeThink))
		}
		if u.begin(true) && u.thinkOpen {
			if strings.Contains(s, pythonStart) || strings.Contains(s, toolCallOpen) || strings.Contains(s, funcCalls) {
				return errors.Join(err, cannot("a thought the prompt opened holding a call opener (it would end the thought): not written"))
			}
			u.w.WriteString(s + closeThink + "\n")
			return err
		}
		u.w.WriteString(openThink + s + closeThink + "\n")
		return err
	}
	u.begin(false)
	if !readsAsText(s, u.opts) {
		return errors.Join(err, cannot("respond text that would read as a marker or a call list: not written"))
	}
	u.w.WriteString(s + "\n")
	return err
}

// readsAsText reports whether s, written on lines of its own, reads back
// as one respond event holding s.
func readsAsText(s string, opts syntax.Options) bool {
	if !strings.ContainsAny(s, "<[") {
		return true
	}
	opts.ThinkOpen = false
	opts.Mode = syntax.EventMode
	evs := syntax.Parse(Syntax, []byte(s+"\n"), opts)
	return len(evs) == 2 && evs[0].Type == syntax.Respond && evs[0].Content == s
}

var (
	callName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	keyword  = regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_]*$`)
)

func (u *units) Calls(calls []syntax.Event) error {
	u.begin(false)
	errs := []error{u.late("calls")}
	open, sep, end := "[", ", ", "]\n"
	if u.body {
		open, sep, end = funcCalls, "\n", funcCallsEnd+"\n"
	}
	if u.fence {
		open, end = toolCallOpen+"\n"+fenceOpen+"\n", "\n"+fenceEnd+"\n"+toolCallEnd+"\n"
	}
	b := []byte(open)
	n := 0
	for _, c := range calls {
		if c.ID != "" {
			errs = append(errs, cannot("the id %q of call %s (the format has no ids): not written", c.ID, c.Name))
		}
		if !callName.MatchString(c.Name) {
			errs = append(errs, cannot("call %q: the name is not a Python name: the call is not written", c.Name))
			continue
		}
		call, err := appendCall(nil, c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if n > 0 {
			b = append(b, sep...)
		}
		b = append(b, call...)
		n++
	}
	if n > 0 {
		u.w.Write(append(b, end...))
		u.calls += n
	}
	return errors.Join(errs...)
}

// appendCall appends name(key=value, …).
func appendCall(b []byte, c syntax.Event) ([]byte, error) {
	b = append(b, c.Name...)
	b = append(b, '(')
	var err error
	first := true
	args := c.Args
	if len(jsonscan.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	if jsonscan.Kind(args) != '{' {
		return nil, cannot("call %s: arguments that are not an object: the call is not written", c.Name)
	}
	jsonscan.Members(args, func(k string, v []byte) bool {
		if !keyword.MatchString(k) {
			err = cannot("call %s: the argument %q is not a Python identifier: the call is not written", c.Name, k)
			return false
		}
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = append(b, k...)
		b = append(b, '=')
		b = appendLiteral(b, v)
		return true
	})
	if err != nil {
		return nil, err
	}
	return append(b, ')'), nil
}

// appendLiteral appends the JSON value v as a Python literal.
func appendLiteral(b []byte, v []byte) []byte {
	v = jsonscan.TrimSpace(v)
	switch jsonscan.Kind(v) {
	case '"':
		s, _ := jsonscan.Unquote(v)
		return appendPyString(b, s)
	case '{':
		b = append(b, '{')
		first := true
		jsonscan.Members(v, func(k string, val []byte) bool {
			if !first {
				b = append(b, ", "...)
			}
			first = false
			b = appendPyString(b, k)
			b = append(b, ": "...)
			b = appendLiteral(b, val)
			return true
		})
		return append(b, '}')
	case '[':
		b = append(b, '[')
		first := true
		jsonscan.Elements(v, func(e []byte, _ int) bool {
			if !first {
				b = append(b, ", "...)
			}
			first = false
			b = appendLiteral(b, e)
			return true
		})
		return append(b, ']')
	case 't':
		return append(b, "True"...)
	case 'f':
		return append(b, "False"...)
	case 'n':
		return append(b, "None"...)
	}
	return append(b, v...) // a number: JSON's text is a Python literal of the same value
}

// appendPyString appends s as a single-quoted Python string.
func appendPyString(b []byte, s string) []byte {
	b = append(b, '\'')
	for _, r := range s {
		switch {
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\'':
			b = append(b, `\'`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, `\x`...)
			if r < 0x10 {
				b = append(b, '0')
			}
			b = strconv.AppendInt(b, int64(r), 16)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '\'')
}

func (u *units) Execute() error {
	if u.calls == 0 {
		u.executed = true
		return cannot("an execute with no calls before it (the execute is implicit, after a message's calls): not written")
	}
	u.calls = 0
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	return cannot("%d result(s): the format has no result form in the model's text (results go back in an ipython or tool message): not written", len(rs))
}

func (u *units) End() error {
	var err error
	if u.calls > 0 {
		err = cannot("%d call(s) with no execute after them: read back, the message's calls are executed", u.calls)
	}
	return errors.Join(err, u.w.Flush())
}

func (u *units) Flush() error { return u.w.Flush() }
