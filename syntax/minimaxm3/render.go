package minimaxm3

import (
	"bytes"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events as MiniMax M3's
// template does: thoughts as <mm:think>…</mm:think> (with
// Options.ThinkOpen, the first thought without its opener, which the
// prompt holds), text as it is, each batch of calls as one ns<tool_call>
// block of invokes, each parameter a tag of its own name, an object's
// members as tags inside it, an array's elements as <item> tags. Each call
// is parsed back before it is written.
//
// It cannot carry (and says so): ids, results (M3's come in messages of
// their own), values that are not strings (written as their text: a tool
// schema types them back), nulls (left out, as the template does), empty
// objects and arrays, keys that are no tag name, values holding ns, text or
// a thought holding a marker, and calls with no execute.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("minimaxm3", &units{Turn: markup.NewTurn("minimaxm3", w, opts, closeThink), implicit: opts.ThinkOpen})
}

type units struct {
	markup.Turn
	implicit bool // Options.ThinkOpen
}

func cannot(format string, args ...any) error { return wire.CannotCarry("minimaxm3", format, args...) }

func (u *units) Text(t syntax.Type, s string) error {
	err := u.TextAfter(t)
	if t == syntax.Think {
		implicit := u.Think.Begin(u.W, true)
		if u.implicit && !implicit {
			return cannot("a thought after the reasoning the prompt opened (with ThinkOpen, a later <mm:think> is text); not written")
		}
		if m := markup.WriteThought(u.W, s, implicit, openThink, closeThink, callOpeners); m != "" {
			return cannot("a thought holding %s; not written", m)
		}
		return err
	}
	u.Think.Begin(u.W, false)
	if m := markup.HoldsMarker(s, textMarkers); m != "" {
		return cannot("text holding %s; not written", m)
	}
	u.W.WriteString(s + "\n")
	return err
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
	u.W.WriteString(openBlock + "\n")
	for _, c := range calls {
		if c.ID != "" {
			note(cannot("the id %q of call %s (MiniMax calls have no ids): not written", c.ID, c.Name))
		}
		b, err := renderInvoke(c)
		note(err)
		u.W.Write(b)
	}
	u.W.WriteString(closeBlock + "\n")
	return first
}

// renderInvoke writes one call; what the form cannot carry is reported.
func renderInvoke(c syntax.Event) ([]byte, error) {
	var b bytes.Buffer
	if c.Name == "" || strings.ContainsAny(c.Name, `"'<>`) || strings.Contains(c.Name, ns) {
		return nil, cannot("call %q: a name the invoke tag cannot hold; not written", c.Name)
	}
	b.WriteString(invokeTag + ` name="` + c.Name + `">`)
	lossy := ""
	var write func(v []byte)
	write = func(v []byte) {
		switch jsonscan.Kind(v) {
		case '"':
			s, _ := jsonscan.Unquote(v)
			if strings.Contains(s, ns) {
				lossy = "a value holding " + ns
			}
			b.WriteString(s)
		case '{':
			n := 0
			jsonscan.Members(v, func(k string, e []byte) bool {
				n++
				if !isKey(k) {
					lossy = "a key that is no tag name"
				}
				if jsonscan.Kind(e) == 'n' {
					lossy = "a null (left out, as the template does)"
					return true
				}
				b.WriteString(ns + "<" + k + ">")
				write(e)
				b.WriteString(ns + "</" + k + ">")
				return true
			})
			if n == 0 {
				lossy = "an empty object, which reads back as an empty string"
			}
		case '[':
			n := 0
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				n++
				b.WriteString(ns + "<" + itemTag + ">")
				write(e)
				b.WriteString(ns + "</" + itemTag + ">")
				return true
			})
			if n == 0 {
				lossy = "an empty array, which reads back as an empty string"
			}
		default:
			b.Write(v)
			lossy = "values that are not strings, written as their text (a tool schema types them back)"
		}
	}
	if len(c.ArgsJSON()) > 2 {
		write(c.ArgsJSON())
	}
	b.WriteString(invokeEnd + "\n")
	if lossy != "" {
		return b.Bytes(), cannot("call %s: %s", c.Name, lossy)
	}
	evs := syntax.Parse(Syntax, append(append([]byte(openBlock+"\n"), b.Bytes()...), closeBlock...), syntax.Options{})
	if len(evs) != 3 || evs[0].Type != syntax.Call || evs[0].Name != c.Name || !jsonscan.Equal(evs[0].Args, c.ArgsJSON()) {
		return b.Bytes(), cannot("call %s: its values do not survive the tags (a member named item, a repeated value, a value holding a tag)", c.Name)
	}
	return b.Bytes(), nil
}

// isKey reports whether k can be a tag's name.
func isKey(k string) bool {
	return k != "" && !strings.ContainsAny(k, "<>/ \t\r\n")
}
