package stream

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/syntax"
)

// Text renders events for a person to read: one labelled paragraph per event,
// long values folded. With Color set it uses ANSI colors (the CLI sets it when
// standard output is a terminal and NO_COLOR is unset). In token mode,
// partial fragments are written as they come, and the whole-run event that
// follows them is not written again. It is a [syntax.Renderer] and a
// [syntax.Flusher].
type Text struct {
	w      *bufio.Writer
	Color  bool
	Fold   int // fold values longer than this many bytes; 0 means 400
	inRun  syntax.Type
	runOut bool
	// Token mode: calls whose arguments were shown as they streamed.
	streamed map[string]int // call name → calls of that name shown live and not yet completed
	inCall   bool
	shown    bool // some argument text of the streaming call was shown
	lastNL   bool // the last text written ended a line
}

// NewText returns a text renderer writing to w.
func NewText(w io.Writer) *Text { return &Text{w: bufio.NewWriter(w)} }

const (
	ansiReset  = "\x1b[0m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiBlue   = "\x1b[34m"
	ansiCyan   = "\x1b[36m"
)

func (t *Text) paint(code, s string) string {
	if !t.Color {
		return s
	}
	return code + s + ansiReset
}

func (t *Text) fold(s string) string {
	n := t.Fold
	if n <= 0 {
		n = 400
	}
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + t.paint(ansiDim, fmt.Sprintf(" … (%d more bytes)", len(s)-cut))
}

func label(ty syntax.Type) string { return fmt.Sprintf("%-8s", ty) }

// Event writes one event. What the model (or a tool) wrote is shown, not
// executed: control characters and escape sequences in it are written
// escaped (see visible).
func (t *Text) Event(e syntax.Event) error {
	for _, f := range []*string{&e.Content, &e.Name, &e.ID, &e.Tool, &e.Message, &e.Raw, &e.Delta, &e.Param} {
		*f = visible(*f)
	}
	// JSON escapes C0 controls only: C1 controls, line separators and
	// bidirectional overrides stand raw in arguments and results.
	if v := visible(string(e.Args)); v != string(e.Args) {
		e.Args = json.RawMessage(v)
	}
	if v := visible(string(e.Value)); v != string(e.Value) {
		e.Value = json.RawMessage(v)
	}
	if e.Partial && e.Type == syntax.Call {
		t.closeRun()
		switch {
		case e.Delta == "" && e.Param == "": // a call starts
			t.endCall()
			if t.streamed == nil {
				t.streamed = map[string]int{}
			}
			t.streamed[e.Name]++
			t.inCall, t.shown = true, false
			t.w.WriteString(t.paint(ansiBold+ansiYellow, label(e.Type)) + t.paint(ansiBold, e.Name) + t.paint(ansiDim, " (streaming)") + " ")
		case e.Delta == "": // a parameter's value starts
			t.w.WriteString("\n" + strings.Repeat(" ", 9) + t.paint(ansiCyan, e.Param+": "))
		default:
			t.w.WriteString(indent(e.Delta))
			t.shown = true
		}
		return nil
	}
	if e.Type == syntax.Call && t.streamed[e.Name] > 0 {
		// Its arguments were shown as they came: close the line, or show them
		// now if none streamed.
		t.streamed[e.Name]--
		if !t.shown {
			t.w.WriteString(indent(t.fold(string(e.Args))))
		}
		t.endCall()
		t.w.WriteString(strings.Repeat(" ", 9) + t.paint(ansiDim, "(complete)") + "\n")
		return nil
	}
	t.endCall()
	if e.Partial && (e.Type == syntax.Think || e.Type == syntax.Respond) {
		if t.inRun != e.Type {
			t.closeRun()
			t.inRun = e.Type
			t.w.WriteString(t.runLabel(e.Type))
		}
		t.w.WriteString(t.runColor(e.Type, e.Content))
		t.runOut = true
		t.lastNL = strings.HasSuffix(e.Content, "\n")
		return nil
	}
	if t.inRun != "" && t.inRun == e.Type && t.runOut {
		// The whole run after its fragments: already shown.
		t.closeRun()
		return nil
	}
	t.closeRun()
	switch e.Type {
	case syntax.Think, syntax.Respond:
		t.w.WriteString(t.runLabel(e.Type) + t.runColor(e.Type, indent(t.fold(e.Content))) + "\n")
	case syntax.Call:
		id := ""
		if e.ID != "" {
			id = t.paint(ansiDim, " #"+e.ID)
		}
		t.w.WriteString(t.paint(ansiBold+ansiYellow, label(e.Type)) + t.paint(ansiBold, e.Name) + id + " " + indent(t.fold(string(e.Args))) + "\n")
	case syntax.Execute:
		t.w.WriteString(t.paint(ansiYellow, label(e.Type)) + t.paint(ansiDim, "── run the batch ──") + "\n")
	case syntax.Result:
		status := t.paint(ansiGreen, string(e.Status))
		if e.Status == syntax.Failure {
			status = t.paint(ansiRed, string(e.Status))
		}
		t.w.WriteString(t.paint(ansiCyan, label(e.Type)) + e.Tool + " " + status + ": " + indent(t.fold(string(e.Value))) + "\n")
	case syntax.Error:
		t.w.WriteString(t.paint(ansiBold+ansiRed, label(e.Type)) + t.paint(ansiRed, e.Pos.String()+" "+e.Message) + "\n")
		if e.Raw != "" {
			t.w.WriteString(strings.Repeat(" ", 9) + t.paint(ansiDim, indent(t.fold(e.Raw))) + "\n")
		}
	case syntax.Usage:
		t.w.WriteString(t.paint(ansiDim, label(e.Type)+string(e.Value)) + "\n")
	case syntax.End:
		t.w.WriteString(t.paint(ansiDim, "end") + "\n")
	default:
		t.w.WriteString(label(e.Type) + "\n")
	}
	return nil
}

func (t *Text) runLabel(ty syntax.Type) string {
	if ty == syntax.Think {
		return t.paint(ansiDim+ansiBlue, label(ty))
	}
	return t.paint(ansiBold, label(ty))
}

func (t *Text) runColor(ty syntax.Type, s string) string {
	if ty == syntax.Think {
		return t.paint(ansiDim, s)
	}
	return s
}

func (t *Text) endCall() {
	if t.inCall {
		t.w.WriteString("\n")
		t.inCall = false
	}
}

func (t *Text) closeRun() {
	if t.inRun != "" && t.runOut && !t.lastNL {
		t.w.WriteString("\n")
	}
	t.inRun, t.runOut = "", false
}

// indent lays continuation lines under the first line's value column.
func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat(" ", 9)) }

// Flush writes buffered output.
func (t *Text) Flush() error { return t.w.Flush() }

// Close writes buffered output. The Text may still be used after it.
func (t *Text) Close() error { return t.w.Flush() }

// visible returns s with the characters a terminal would act on instead of
// showing — C0 controls but tab and line feed, DEL, C1 controls (among them
// ESC and CSI, which start escape sequences that move the cursor, rewrite
// the screen or set the window title) — written as Go escapes, so that
// model text is shown, never executed.
func visible(s string) string {
	clean := true
	for _, r := range s {
		if control(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if control(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func control(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\u2028' || r == '\u2029' ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 // line separators, and bidirectional overrides that reorder what is shown
}
