package delimiter

import (
	"bufio"
	"io"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the delimiter form:
// "§think: …" and "§respond: …" lines, one "§call: {…}" line per call (name,
// args and id), "§execute" after a batch, and one "[SYSTEM: …]" line per
// result. A result carries its content only: the delimiter form has no tool
// name (the parser takes it from the call at the same position) and no
// status, so a failure, or content that is not a string, is written as text
// and reported as not carried. The end event writes §end.
func newRenderer(w io.Writer, _ syntax.Options) syntax.Renderer {
	return wire.New("delimiter", &units{w: bufio.NewWriter(w)})
}

type units struct{ w *bufio.Writer }

// holdsDelimiter reports whether s holds something the parser would read as
// a delimiter or a result line.
func holdsDelimiter(s string) bool {
	for i := strings.Index(s, "§"); i >= 0; {
		rest := s[i+len("§"):]
		for _, kw := range keywords {
			if len(rest) >= len(kw) && strings.EqualFold(rest[:len(kw)], kw) &&
				(kw[len(kw)-1] == ':' || len(rest) == len(kw) || !isWordByte(rest[len(kw)])) {
				return true
			}
		}
		j := strings.Index(rest, "§")
		if j < 0 {
			break
		}
		i += len("§") + j
	}
	// A line starting with "[SYSTEM:" is a result if a "]" ends a line later
	// (the text is written followed by a newline). The first line is written
	// after the delimiter, so it is not at a line start.
	first := strings.IndexByte(s, '\n')
	if first < 0 {
		return false
	}
	for off := first + 1; off < len(s); {
		if strings.HasPrefix(s[off:], systemPrefix) {
			rest := s[off:] + "\n"
			if strings.Contains(rest, "]\n") || strings.Contains(rest, "]\r\n") {
				return true
			}
		}
		j := strings.IndexByte(s[off:], '\n')
		if j < 0 {
			break
		}
		off += j + 1
	}
	return false
}

func (u *units) Text(t syntax.Type, s string) error {
	if holdsDelimiter(s) {
		return wire.CannotCarry("delimiter", "%s text holding a delimiter or a [SYSTEM: line: not written", t)
	}
	kw := "§respond: "
	if t == syntax.Think {
		kw = "§think: "
	}
	u.w.WriteString(kw + s + "\n")
	return nil
}

func (u *units) Calls(calls []syntax.Event) error {
	for _, c := range calls {
		b := syntax.AppendCallObject([]byte("§call: "), c)
		b = append(b, '\n')
		u.w.Write(b)
	}
	return nil
}

// Execute writes §execute. Calls that no execute followed stay without one:
// the parser reads them back as calls, with its "call without §execute" error.
func (u *units) Execute() error {
	u.w.WriteString("§execute\n")
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	var lost []string
	for _, r := range rs {
		text := strings.TrimSpace(wire.ResultText(r)) // a failure in words the model reads, any value as its JSON text
		if strings.Contains(text, "]\n") || strings.HasSuffix(text, "]") {
			lost = append(lost, `content with a "]" that ends a line`)
		}
		u.w.WriteString(systemPrefix + " " + text + "]\n")
	}
	if lost != nil {
		return wire.CannotCarry("delimiter", "results carry text only; written as text: %s", strings.Join(lost, ", "))
	}
	return nil
}

// EndMarker writes §end.
func (u *units) EndMarker() error {
	u.w.WriteString("§end\n")
	return nil
}

func (u *units) End() error { return u.w.Flush() }

func (u *units) Flush() error { return u.w.Flush() }
