package hermes

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the hermes form: a
// thought as <think>…</think>, respond text as plain lines, each call as
// its own <tool_call> block holding {"name": …, "arguments": {…}}, and each
// result as a <tool_response> block holding its content (a string as its
// text, when that reads back as the same string; any other value as JSON).
// An execute writes nothing: a hermes message's calls are executed where it
// ends, at a <tool_response> or at the end of the output. With
// Options.ThinkOpen the output starts inside reasoning: the first thought
// is written without its opener, and anything else first is preceded by
// </think>.
//
// It cannot carry, and reports: call ids and result ids, failure results, a
// result whose tool is not the call at its place in the last batch, text or
// calls between an execute and its results (they would read back before
// the execute, or in the same batch), calls no execute followed, an execute
// with no calls, respond text holding a marker the parser would read as one
// (<think>, <tool_response>, <tool_call> before '{' or at its end), a
// thought holding </think> (or, for reasoning opened by the prompt, a
// <tool_call> before '{', or a leading <think>), and result content holding
// </tool_response> (written with its '/' escaped, so a JSON value keeps its
// meaning but not its bytes).
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("hermes", &units{w: bufio.NewWriter(w), open: opts.ThinkOpen})
}

type units struct {
	w       *bufio.Writer
	open    bool // ThinkOpen: the output starts inside reasoning
	started bool // something was written

	unexecuted []string // the names of the calls written since the last execute
	executed   bool     // an execute came and no result yet
	batch      []string // the calls of the last executed batch
	answered   int      // results written for that batch
}

func cannot(format string, args ...any) error { return wire.CannotCarry("hermes", format, args...) }

// start ends the reasoning the prompt opened before a unit that is not the
// first thought.
func (u *units) start() {
	if u.open && !u.started {
		u.w.WriteString(closeThink + "\n")
	}
	u.started = true
}

// afterExecute reports a unit that comes between an execute and its results.
func (u *units) afterExecute(what string) error {
	if !u.executed {
		return nil
	}
	u.executed = false
	return cannot("%s after an execute and before any result: a hermes message ends only at a %s or at the end, so it reads back before the execute", what, openResp)
}

func (u *units) Text(t syntax.Type, s string) error {
	err := u.afterExecute(string(t) + " text")
	if t == syntax.Think {
		if u.open && !u.started {
			u.started = true
			switch {
			case strings.Contains(s, closeThink):
				return errors.Join(err, cannot("a thought holding %s: not written", closeThink))
			case opensCall(s, false):
				return errors.Join(err, cannot("reasoning opened by the prompt holding %s before '{': not written (it would end the reasoning)", openCall))
			case strings.HasPrefix(s, openThink):
				return errors.Join(err, cannot("reasoning opened by the prompt starting with %s: not written (it reads as the opener)", openThink))
			}
			u.w.WriteString(s + "\n" + closeThink + "\n")
			return err
		}
		u.start()
		if strings.Contains(s, closeThink) {
			return errors.Join(err, cannot("a thought holding %s: not written", closeThink))
		}
		u.w.WriteString(openThink + "\n" + s + "\n" + closeThink + "\n")
		return err
	}
	u.start()
	if m := opensMarker(s); m != "" {
		return errors.Join(err, cannot("respond text holding the marker %s: not written", m))
	}
	u.w.WriteString(s + "\n")
	return err
}

// opensMarker returns the first marker in respond text s that the parser
// would read as one, or "".
func opensMarker(s string) string {
	for _, m := range []string{openThink, openResp} {
		if strings.Contains(s, m) {
			return m
		}
	}
	if opensCall(s, true) {
		return openCall
	}
	return ""
}

// opensCall reports whether s holds a <tool_call> tag followed, after
// white space, by '{' (or, when atEnd, by the end of s).
func opensCall(s string, atEnd bool) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], openCall)
		if j < 0 {
			return false
		}
		i += j + len(openCall)
		rest := strings.TrimLeft(s[i:], " \t\r\n")
		if rest == "" && atEnd || rest != "" && rest[0] == '{' {
			return true
		}
	}
}

func (u *units) Calls(calls []syntax.Event) error {
	err := u.afterExecute("calls")
	u.start()
	var b []byte
	for _, c := range calls {
		if c.ID != "" {
			err = errors.Join(err, cannot("the id %q of call %s: not written (hermes calls have no id)", c.ID, c.Name))
		}
		b = append(b, openCall+"\n"+`{"name": `...)
		b = syntax.AppendQuote(b, c.Name)
		b = append(b, `, "arguments": `...)
		b = append(b, c.ArgsJSON()...)
		b = append(b, "}\n"+closeCall+"\n"...)
		u.unexecuted = append(u.unexecuted, c.Name)
	}
	u.w.Write(b)
	return err
}

func (u *units) Execute() error {
	if len(u.unexecuted) == 0 {
		return cannot("an execute with no call before it: not written (hermes executes only calls)")
	}
	u.batch, u.unexecuted = append(u.batch[:0], u.unexecuted...), u.unexecuted[:0]
	u.answered, u.executed = 0, true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	u.start()
	var err error
	if len(u.unexecuted) > 0 {
		err = cannot("%d call(s) with no execute before results: the %s executes them", len(u.unexecuted), openResp)
		u.batch, u.unexecuted, u.answered = append(u.batch[:0], u.unexecuted...), u.unexecuted[:0], 0
	}
	u.executed = false
	var b []byte
	for _, r := range rs {
		want := ""
		if u.answered < len(u.batch) {
			want = u.batch[u.answered]
		}
		u.answered++
		if r.Tool != want {
			err = errors.Join(err, cannot("a result of %q where the call at its place is %q: written, it reads back as %q's", r.Tool, want, want))
		}
		if r.Status == syntax.Failure {
			r = wire.AsText(r) // the failure in words the model reads
		}
		if r.ID != "" {
			err = errors.Join(err, cannot("the id %q of a result of %q: not written (hermes results have no id)", r.ID, r.Tool))
		}
		content, cerr := resultText(r.ValueJSON())
		err = errors.Join(err, cerr)
		b = append(b, openResp+"\n"...)
		b = append(b, content...)
		b = append(b, "\n"+closeResp+"\n"...)
	}
	u.w.Write(b)
	return err
}

// resultText is what a <tool_response> block holds for a result's content:
// a string as its own text when the parser reads that text back as the
// same string, any other value as its JSON.
func resultText(v []byte) ([]byte, error) {
	if jsonscan.Kind(v) == '"' {
		s, _ := jsonscan.Unquote(v)
		t := []byte(s)
		if len(t) > 0 && len(jsonscan.TrimSpace(t)) == len(t) && !isJSON(t) && !bytes.Contains(t, []byte(closeResp)) {
			return t, nil
		}
	}
	if bytes.Contains(v, []byte(closeResp)) {
		return bytes.ReplaceAll(v, []byte(closeResp), []byte(`<\/tool_response>`)),
			cannot("result content holding %s: written with its '/' escaped", closeResp)
	}
	return v, nil
}

func (u *units) End() error {
	var err error
	if len(u.unexecuted) > 0 {
		err = cannot("%d call(s) with no execute: written, they read back executed at the end", len(u.unexecuted))
	}
	return errors.Join(err, u.w.Flush())
}

func (u *units) Flush() error { return u.w.Flush() }

func isJSON(b []byte) bool {
	_, ok := jsonscan.Whole(b, 0)
	return ok
}
