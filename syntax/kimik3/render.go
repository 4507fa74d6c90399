package kimik3

import (
	"io"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events as Kimi K3's template
// writes an assistant turn: thoughts in the think channel (with
// Options.ThinkOpen, the first thought without its opener, which the prompt
// holds), text in the response channel, each batch of calls as one tools
// channel, a call's arguments as argument tags typed as the template types
// them (a string as written, anything else as its JSON text), the call's
// index its place in the channel. Each call is parsed back before it is
// written.
//
// It cannot carry (and says so): ids, results (K3's come in messages of
// their own), text or a thought holding a marker, a value holding an
// argument's closer, and calls with no execute.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("kimik3", &units{Turn: markup.NewTurn("kimik3", w, opts, thinkEnd), implicit: opts.ThinkOpen})
}

type units struct {
	markup.Turn
	implicit bool // Options.ThinkOpen
}

func cannot(format string, args ...any) error { return wire.CannotCarry("kimik3", format, args...) }

// markers are what text and thoughts may not hold.
var markers = []string{open, closeTok, sep, endOfMsg}

func (u *units) Text(t syntax.Type, s string) error {
	err := u.TextAfter(t)
	if t == syntax.Think {
		implicit := u.Think.Begin(u.W, true)
		if u.implicit && !implicit {
			return cannot("a thought after the reasoning the prompt opened; not written")
		}
		b := s + thinkEnd
		if !implicit {
			b = thinkOpen + b
		}
		if !readsAs(b, syntax.Think, s, implicit) {
			return cannot("a thought holding %s; not written", markup.HoldsMarker(s, markers))
		}
		u.W.WriteString(b)
		return err
	}
	u.Think.Begin(u.W, false)
	b := openResponse + s + closeResponse
	if !readsAs(b, syntax.Respond, s, false) {
		return cannot("text holding %s; not written", markup.HoldsMarker(s, markers))
	}
	u.W.WriteString(b)
	return err
}

// readsAs reports whether b, parsed alone, is one text run of type t and
// content s: a marker in s that the parser reads as text is fine.
func readsAs(b string, t syntax.Type, s string, thinkOpen bool) bool {
	if markup.HoldsMarker(s, markers) == "" {
		return true
	}
	evs := syntax.Parse(Syntax, []byte(b), syntax.Options{ThinkOpen: thinkOpen})
	return len(evs) == 2 && evs[0].Type == t && evs[0].Content == strings.TrimSpace(s)
}

func (u *units) Calls(calls []syntax.Event) error {
	var first error
	note := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	note(u.AddCalls(len(calls)))
	u.Think.Begin(u.W, false)
	u.W.WriteString(openTools)
	for i, c := range calls {
		if c.ID != "" {
			note(cannot("the id %q of call %s (Kimi K3 calls have no ids): not written", c.ID, c.Name))
		}
		b, err := renderCall(c, i+1)
		note(err)
		u.W.WriteString(b)
	}
	u.W.WriteString(toolsEnd)
	return first
}

// renderCall writes one call as the template does.
func renderCall(c syntax.Event, index int) (string, error) {
	var b strings.Builder
	b.WriteString(callTag + ` tool="` + escape(c.Name) + `" index="` + strconv.Itoa(index) + `"` + sep)
	lossy := ""
	jsonscan.Members(c.ArgsJSON(), func(k string, v []byte) bool {
		typ := "string"
		text := ""
		switch jsonscan.Kind(v) {
		case '"':
			text, _ = jsonscan.Unquote(v)
		case '{':
			typ, text = "object", string(v)
		case '[':
			typ, text = "array", string(v)
		case 't', 'f':
			typ, text = "boolean", string(v)
		case 'n':
			typ, text = "null", string(v)
		default:
			typ, text = "number", string(v)
		}
		if strings.Contains(text, argEnd) {
			lossy = "a value holding " + argEnd
		}
		b.WriteString(argTag + ` key="` + escape(k) + `" type="` + typ + `"` + sep + text + argEnd)
		return true
	})
	b.WriteString(callEnd)
	if lossy != "" {
		return b.String(), cannot("call %s: %s", c.Name, lossy)
	}
	evs := syntax.Parse(Syntax, []byte(openTools+b.String()+toolsEnd), syntax.Options{})
	if len(evs) != 3 || evs[0].Type != syntax.Call || evs[0].Name != c.Name || !jsonscan.Equal(evs[0].Args, c.ArgsJSON()) {
		return b.String(), cannot("call %s: its name or arguments do not survive the tags", c.Name)
	}
	return b.String(), nil
}

// escape escapes an attribute value as the template does.
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "&", "&amp;"), `"`, "&quot;")
}
