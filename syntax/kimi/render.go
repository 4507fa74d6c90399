package kimi

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the Kimi K2 form: a
// thought as <think>…</think>, respond text as plain lines, and each run of
// calls as one tool-call section, each call with its id (functions.NAME:K
// for a call that has none, K counting the calls written from 0) and its
// arguments byte for byte. An execute writes nothing: the calls of a
// message run when it ends. With Options.ThinkOpen the output starts inside
// reasoning: the first thought is written without its opener, and anything
// else first is preceded by </think>.
//
// It cannot carry, and reports: results (Kimi's are tool-role messages, not
// model text: not written), an id that does not name its call's function
// as functions.NAME:IDX or NAME:IDX (a made id is written), text, thoughts
// or calls between an execute and the end (they would read back before the
// execute, or in its batch), calls no execute followed, an execute with no
// calls, respond text holding <think>, a section opener or closer or a
// <|tool_call_begin|>, and a thought holding </think> or any of those (or,
// for reasoning opened by the prompt, a leading <think>).
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("kimi", &units{w: bufio.NewWriter(w), open: opts.ThinkOpen})
}

type units struct {
	w          *bufio.Writer
	open       bool // ThinkOpen: the output starts inside reasoning
	started    bool // something was written
	made       int  // calls written, for the ids made
	unexecuted int  // calls written since the last execute
	executed   bool // an execute came
}

func cannot(format string, args ...any) error { return wire.CannotCarry("kimi", format, args...) }

func (u *units) start() {
	if u.open && !u.started {
		u.w.WriteString(closeThink + "\n")
	}
	u.started = true
}

// afterExecute reports a unit that comes after an execute.
func (u *units) afterExecute(what string) error {
	if !u.executed {
		return nil
	}
	u.executed = false
	return cannot("%s after an execute: a Kimi message's calls run only at its end, so it reads back before the execute or in its batch", what)
}

// holds returns the first of markers that s holds, or "".
func holds(s string, markers ...string) string {
	for _, m := range markers {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}

func (u *units) Text(t syntax.Type, s string) error {
	err := u.afterExecute(string(t) + " text")
	if t == syntax.Think {
		if m := holds(s, closeThink, sectionBegin, sectionBegin1, sectionEnd, sectionEnd1, callBegin); m != "" {
			u.started = true
			return errors.Join(err, cannot("a thought holding %s: not written", m))
		}
		if u.open && !u.started {
			u.started = true
			if strings.HasPrefix(s, openThink) {
				return errors.Join(err, cannot("reasoning opened by the prompt starting with %s: not written (it reads as the opener)", openThink))
			}
			u.w.WriteString(s + "\n" + closeThink + "\n")
			return err
		}
		u.start()
		u.w.WriteString(openThink + "\n" + s + "\n" + closeThink + "\n")
		return err
	}
	u.start()
	if m := holds(s, openThink, sectionBegin, sectionBegin1, sectionEnd, sectionEnd1, callBegin); m != "" {
		return errors.Join(err, cannot("respond text holding the marker %s: not written", m))
	}
	u.w.WriteString(s + "\n")
	return err
}

func (u *units) Calls(calls []syntax.Event) error {
	err := u.afterExecute("calls")
	u.start()
	var b []byte
	b = append(b, sectionBegin...)
	for _, c := range calls {
		id := c.ID
		if name, problem := parseID(id); id == "" || problem != "" || name != c.Name || strings.Contains(id, "<|") || strings.TrimSpace(id) != id {
			if id != "" {
				err = errors.Join(err, cannot("the id %q of call %s, which does not name it as functions.NAME:IDX: written as a made id", id, c.Name))
			}
			id = "functions." + c.Name + ":" + strconv.Itoa(u.made)
			if name, problem := parseID(id); problem != "" || name != c.Name || strings.Contains(id, "<|") {
				err = errors.Join(err, cannot("call %s, whose name cannot stand in an id: not written", c.Name))
				continue
			}
		}
		u.made++
		u.unexecuted++
		b = append(b, callBegin...)
		b = append(b, id...)
		b = append(b, argBegin...)
		b = append(b, c.ArgsJSON()...)
		b = append(b, callEnd...)
	}
	b = append(b, sectionEnd+"\n"...)
	u.w.Write(b)
	return err
}

func (u *units) Execute() error {
	if u.unexecuted == 0 {
		return cannot("an execute with no call before it: not written (Kimi executes only calls)")
	}
	u.unexecuted, u.executed = 0, true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	return cannot("%d result(s): Kimi's results are tool-role messages, not model text: not written", len(rs))
}

func (u *units) End() error {
	var err error
	if u.unexecuted > 0 {
		err = cannot("%d call(s) with no execute: written, they read back executed at the end", u.unexecuted)
	}
	return errors.Join(err, u.w.Flush())
}

func (u *units) Flush() error { return u.w.Flush() }
