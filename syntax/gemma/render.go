package gemma

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events as Gemma 4 writes
// them: think as <|channel>thought\n…<channel|>, respond as plain text,
// each call as <|tool_call>call:NAME{…}<tool_call|> with its arguments in
// Gemma's object syntax (bare keys where they are plain, strings between
// <|"|>, or as JSON strings when they hold <|"|> or a closer), and each
// result as <|tool_response>response:TOOL{value:…}<tool_response|>. With
// ThinkOpen the output starts inside the reasoning.
//
// Gemma has no call ids, no failed results and no execute of its own (it is
// implied at the next result, or at the end), so it cannot carry ids, a
// failure status, text or calls between an execute and the results that
// follow it, an execute with no call before it, calls no execute followed,
// a name that is not one plain word, or text holding a marker. Each is
// reported; what can be written is written.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("gemma", &units{w: bufio.NewWriter(w), first: true, thinkOpen: opts.ThinkOpen, d: gemma4})
}

// newRendererFunctionGemma returns a renderer that writes events as
// FunctionGemma writes them: each call as
// <start_function_call>call:NAME{…}<end_function_call>, strings between
// <escape>, each result as
// <start_function_response>response:TOOL{value:…}<end_function_response>.
// FunctionGemma has no reasoning: a thought is reported, not written. It
// cannot carry what newRenderer cannot.
func newRendererFunctionGemma(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("gemma", &units{w: bufio.NewWriter(w), first: true, d: functionGemma})
}

type units struct {
	d         *dialect
	w         *bufio.Writer
	first     bool
	thinkOpen bool
	calls     int
	executed  bool
	wrote     bool // a call or result was written last: end the output with a line end
}

// holdsMarker returns the first marker the parser would read in respond
// text s (written followed by a newline), or "". After calls (before their
// results) a stray closer or a bare <|tool_response> is read as belonging
// to their execute; elsewhere it is text.
func holdsMarker(s string, afterCalls bool) string {
	for _, m := range textMarkers {
		word := ""
		d, result := opened(m)
		switch {
		case d != nil && result:
			word = "response:"
		case d != nil:
			word = "call:"
		case m == channelOpen:
		default:
			if afterCalls && strings.Contains(s, m) {
				return m
			}
			continue
		}
		for i := 0; ; {
			j := strings.Index(s[i:], m)
			if j < 0 {
				break
			}
			i += j + len(m)
			if word == "" || result && afterCalls {
				return m
			}
			if _, v := blockStart([]byte(s[i:]+"\n"), word, false); v != startText {
				return m
			}
		}
	}
	return ""
}

// begin closes the reasoning the prompt opened, before anything else.
func (u *units) begin(think bool) bool {
	if !u.first {
		return false
	}
	u.first = false
	if u.thinkOpen {
		if think {
			return true
		}
		u.w.WriteString(channelClose)
	}
	return false
}

func (u *units) afterExecute(what string) error {
	if !u.executed {
		return nil
	}
	return wire.CannotCarry("gemma", "%s after an execute with no result in between (gemma implies the execute at the next result): written in the same turn", what)
}

func (u *units) Text(t syntax.Type, s string) error {
	err := u.afterExecute(string(t) + " text")
	if t == syntax.Think {
		if u.d != gemma4 {
			return errors.Join(err, wire.CannotCarry("gemma", "a thought (FunctionGemma has no reasoning): not written"))
		}
		if strings.Contains(s, channelClose) || u.first && u.thinkOpen && strings.Contains(s, u.d.callOpen) {
			return errors.Join(err, wire.CannotCarry("gemma", "a thought holding %s: not written", channelClose))
		}
		u.wrote = true
		if u.begin(true) {
			u.w.WriteString(s + channelClose)
			return err
		}
		u.w.WriteString(channelOpen + thoughtName + s + channelClose)
		return err
	}
	if m := holdsMarker(s, u.calls > 0 || u.executed); m != "" {
		return errors.Join(err, wire.CannotCarry("gemma", "respond text holding the marker %s: not written", m))
	}
	u.begin(false)
	u.w.WriteString(s + "\n")
	u.wrote = false
	return err
}

// plainName reports whether s can stand as a call's name or a bare key.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isKeyByte(s[i]) || s[i] == '{' {
			return false
		}
	}
	return true
}

// appendValue writes the JSON value v in Gemma's syntax, strings in d's.
func appendValue(d *dialect, b []byte, v []byte) []byte {
	switch jsonscan.Kind(v) {
	case '{':
		b = append(b, '{')
		n := 0
		jsonscan.Members(v, func(k string, val []byte) bool {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			if plainName(k) && k != "true" && k != "false" && k != "null" {
				b = append(b, k...)
			} else {
				b = appendString(d, b, k)
			}
			b = append(b, ':')
			b = appendValue(d, b, val)
			return true
		})
		return append(b, '}')
	case '[':
		b = append(b, '[')
		n := 0
		jsonscan.Elements(v, func(e []byte, _ int) bool {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = appendValue(d, b, e)
			return true
		})
		return append(b, ']')
	case '"':
		s, _ := jsonscan.Unquote(jsonscan.TrimSpace(v))
		return appendString(d, b, s)
	}
	return append(b, jsonscan.TrimSpace(v)...)
}

// appendString writes s between d's string tags (<|"|>), or as a JSON
// string when it holds the tag or a marker that would end the block.
func appendString(d *dialect, b []byte, s string) []byte {
	if strings.Contains(s, d.str) || strings.Contains(s, d.callClose) || strings.Contains(s, d.turnEnd) || strings.Contains(s, d.respClose) || !validRaw(s) {
		return syntax.AppendQuote(b, s)
	}
	return append(append(append(b, d.str...), s...), d.str...)
}

// validRaw reports whether s reads back as itself between <|"|>: valid
// UTF-8 (a string ending in '<' could run into the closing tag, so that
// one is written as JSON too).
func validRaw(s string) bool {
	return !strings.HasSuffix(s, "<") && strings.ToValidUTF8(s, "\uFFFD") == s
}

func (u *units) Calls(calls []syntax.Event) error {
	err := u.afterExecute("a call")
	u.begin(false)
	for _, c := range calls {
		if !plainName(c.Name) {
			err = errors.Join(err, wire.CannotCarry("gemma", "a call named %q (a name is one plain word): not written", c.Name))
			continue
		}
		if c.ID != "" {
			err = errors.Join(err, wire.CannotCarry("gemma", "the id %q of call %s (gemma has no call ids): written without it", c.ID, c.Name))
		}
		b := append([]byte(u.d.callOpen+"call:"), c.Name...)
		b = appendValue(u.d, b, c.ArgsJSON())
		b = append(b, u.d.callClose...)
		u.w.Write(b)
		u.calls++
		u.wrote = true
	}
	return err
}

func (u *units) Execute() error {
	if u.calls == 0 {
		return wire.CannotCarry("gemma", "an execute with no call before it: not written")
	}
	u.calls = 0
	u.executed = true
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var err error
	u.begin(false)
	if u.calls > 0 {
		err = wire.CannotCarry("gemma", "%d call(s) followed by results with no execute (gemma implies one there)", u.calls)
		u.calls = 0
	}
	u.executed = false
	for _, r := range rs {
		if !plainName(r.Tool) {
			err = errors.Join(err, wire.CannotCarry("gemma", "a result of tool %q (a name is one plain word): not written", r.Tool))
			continue
		}
		if r.Status == syntax.Failure {
			r = wire.AsText(r) // the failure in words the model reads
		}
		if r.ID != "" {
			err = errors.Join(err, wire.CannotCarry("gemma", "the id %q of a result of %s (gemma has no call ids): written without it", r.ID, r.Tool))
		}
		b := append([]byte(u.d.respOpen+"response:"), r.Tool...)
		b = append(b, "{value:"...)
		b = appendValue(u.d, b, r.ValueJSON())
		b = append(b, '}')
		b = append(b, u.d.respClose...)
		u.w.Write(b)
		u.wrote = true
	}
	return err
}

func (u *units) End() error {
	var err error
	if u.calls > 0 {
		err = wire.CannotCarry("gemma", "%d call(s) with no execute (gemma implies one at the end): written", u.calls)
	}
	if u.first && u.thinkOpen {
		u.w.WriteString(channelClose)
	}
	if u.wrote {
		u.w.WriteString("\n") // output ends with a line end, as text does
	}
	return errors.Join(err, u.w.Flush())
}

func (u *units) Flush() error { return u.w.Flush() }
