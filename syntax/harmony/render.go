package harmony

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events as gpt-oss writes them:
// think as an analysis message, respond as a final message, each call as a
// commentary message to functions.NAME with its arguments as compact JSON
// and <|call|>, and each result as a message from the tool to the
// assistant. The first message starts at <|channel|> (the prompt ended with
// <|start|>assistant), the others at <|start|>assistant; the last final
// message ends with <|return|>, the others with <|end|>. Calls named
// browser.*, container.* or python are written to that recipient, as
// gpt-oss addresses its built-in tools; a custom call (free-text input)
// is written to its name with the text as the body. With ThinkOpen the
// output starts inside an analysis message.
//
// Harmony has no call ids, no failed results and no execute of its own: the
// execute is implied at the next message from a tool, or at the end. So it
// cannot carry ids, a failure status, text, thought or calls between an
// execute and the results that follow it (or the end), an execute with no
// call before it, calls no execute followed, or text holding a marker that
// would end its message (<|end|>, <|call|>, <|return|>, <|start|>,
// <|channel|>). Each is reported; what can be written is written.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("harmony", &units{w: bufio.NewWriter(w), first: true, thinkOpen: opts.ThinkOpen})
}

type units struct {
	w         *bufio.Writer
	first     bool // nothing written yet
	thinkOpen bool // the output starts inside an analysis message
	final     *string
	calls     int  // calls written since the last execute
	executed  bool // an execute came, and no result since
}

// open writes a message header: the rest of it for the first message.
func (u *units) open(rest string) {
	if u.first {
		u.first = false
		if u.thinkOpen {
			u.w.WriteString(endTag) // the open analysis message is empty
		}
		u.w.WriteString(rest)
		return
	}
	u.w.WriteString(startTag + "assistant" + rest)
}

// flushFinal writes the pending final message, ended by term.
func (u *units) flushFinal(term string) {
	if u.final == nil {
		return
	}
	u.open(channelTag + "final" + messageTag)
	u.w.WriteString(*u.final + term)
	u.final = nil
}

func (u *units) afterExecute(what string) error {
	if !u.executed {
		return nil
	}
	return wire.CannotCarry("harmony", "%s after an execute with no result in between (harmony implies the execute at the next tool message): written in the same turn", what)
}

func holdsEnder(s string) string {
	for _, m := range enders {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}

func (u *units) Text(t syntax.Type, s string) error {
	err := u.afterExecute(string(t) + " text")
	if m := holdsEnder(s); m != "" {
		return errors.Join(err, wire.CannotCarry("harmony", "%s text holding the marker %s: not written", t, m))
	}
	if t == syntax.Respond {
		u.flushFinal(endTag)
		u.final = &s
		return err
	}
	u.flushFinal(endTag)
	if u.first && u.thinkOpen {
		u.first = false
		u.w.WriteString(s + endTag)
		return err
	}
	u.open(channelTag + "analysis" + messageTag)
	u.w.WriteString(s + endTag)
	return err
}

// builtin reports whether name is one of gpt-oss's built-in tools, which it
// addresses without the functions. namespace.
func builtin(name string) bool {
	return name == "python" || strings.HasPrefix(name, "browser.") || strings.HasPrefix(name, "container.")
}

func (u *units) Calls(calls []syntax.Event) error {
	err := u.afterExecute("a call")
	u.flushFinal(endTag)
	for _, c := range calls {
		if c.Name == "" || strings.ContainsAny(c.Name, " \t\r\n") || holdsEnder(c.Name) != "" || strings.Contains(c.Name, "<|") {
			err = errors.Join(err, wire.CannotCarry("harmony", "a call named %q (a recipient is one word): not written", c.Name))
			continue
		}
		if c.ID != "" {
			err = errors.Join(err, wire.CannotCarry("harmony", "the id %q of call %s (harmony has no call ids): written without it", c.ID, c.Name))
		}
		if c.Custom {
			input, ok := customInput(c.ArgsJSON())
			switch {
			case !ok:
				err = errors.Join(err, wire.CannotCarry("harmony", "custom call %s whose args are not {\"input\": text}: written as an ordinary call", c.Name))
			case !strings.HasPrefix(c.Name, "functions."):
				if why := rawProblem(input); why != "" {
					err = errors.Join(err, wire.CannotCarry("harmony", "custom call %s whose input %s: not written", c.Name, why))
					continue
				}
				u.open(channelTag + "analysis to=" + c.Name + " code" + messageTag)
				u.w.WriteString(input + callTag)
				u.calls++
				continue
			default:
				err = errors.Join(err, wire.CannotCarry("harmony", "custom call %s (its name reads as a function): written as an ordinary call", c.Name))
			}
		}
		if builtin(c.Name) {
			u.open(channelTag + "commentary to=" + c.Name + " " + constrainTag + "json" + messageTag)
		} else {
			u.open(channelTag + "commentary to=functions." + c.Name + " " + constrainTag + "json" + messageTag)
		}
		u.w.Write(c.ArgsJSON())
		u.w.WriteString(callTag)
		u.calls++
	}
	return err
}

// customInput returns the text of args {"input": text}.
func customInput(args []byte) (string, bool) {
	var input string
	n, ok := 0, false
	jsonscan.Members(args, func(k string, v []byte) bool {
		n++
		if k == "input" {
			input, ok = jsonscan.Unquote(v)
		}
		return true
	})
	return input, ok && n == 1
}

// rawProblem says why text cannot be a free-text body that reads back as
// itself, or "".
func rawProblem(s string) string {
	t := strings.TrimLeft(s, " \t\r\n")
	switch {
	case t == "":
		return "is empty (an empty body is {})"
	case t[0] == '{':
		return "starts with '{' (it would read as JSON arguments)"
	case holdsEnder(s) != "":
		return "holds the marker " + holdsEnder(s)
	}
	return ""
}

func (u *units) Execute() error {
	u.flushFinal(endTag)
	if u.calls == 0 {
		return wire.CannotCarry("harmony", "an execute with no call before it: not written")
	}
	u.calls = 0
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var err error
	u.flushFinal(endTag)
	if u.calls > 0 {
		err = wire.CannotCarry("harmony", "%d call(s) followed by results with no execute (harmony implies one there)", u.calls)
		u.calls = 0
	}
	u.executed = false
	for _, r := range rs {
		role := "functions." + r.Tool
		if builtin(r.Tool) {
			role = r.Tool
		}
		if r.Tool == "" || strings.ContainsAny(r.Tool, " \t\r\n") || strings.Contains(r.Tool, "<|") {
			err = errors.Join(err, wire.CannotCarry("harmony", "a result of tool %q (a role is one word): not written", r.Tool))
			continue
		}
		if r.Status == syntax.Failure {
			r = wire.AsText(r) // the failure in words the model reads
		}
		if r.ID != "" {
			err = errors.Join(err, wire.CannotCarry("harmony", "the id %q of a result of %s (harmony has no call ids): written without it", r.ID, r.Tool))
		}
		u.w.WriteString(startTag + role + " to=assistant" + channelTag + "commentary" + messageTag)
		u.w.Write(r.ValueJSON())
		u.w.WriteString(endTag)
		u.first = false
	}
	return err
}

func (u *units) End() error {
	var err error
	if u.calls > 0 {
		err = wire.CannotCarry("harmony", "%d call(s) with no execute (harmony implies one at the end): written", u.calls)
	}
	u.flushFinal(returnTag)
	if u.first && u.thinkOpen {
		u.w.WriteString(endTag)
	}
	if !u.first || u.thinkOpen {
		u.w.WriteString("\n") // output ends with a line end, as text does
	}
	return errors.Join(err, u.w.Flush())
}

func (u *units) Flush() error { return u.w.Flush() }

// Refusal writes refused text as a final message: harmony has no refusal
// flag. (Having this method tells package wire that the units carry the
// custom flag of calls, which they do.)
func (u *units) Refusal(s string) error {
	return errors.Join(wire.CannotCarry("harmony", "the refusal flag of respond text (written as plain text)"), u.Text(syntax.Respond, s))
}
