package mistral

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
)

// detect makes mistral's detector (see syntax.Detector). Its evidence is
// the first of Mistral's control tokens that the parser reads where it
// stands: [TOOL_CALLS], [THINK] or [TOOL_RESULTS] in text, and, when the
// prompt opened the reasoning (Options.ThinkOpen), [/THINK] or
// [TOOL_CALLS] ending it. No other syntax has them. <think> is shared with
// most model formats: it is no evidence, and nothing inside a <think>
// block is (it is thought); </s> is no evidence either. Both end prose.
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{at: -1, prose: -1}
	if opts.ThinkOpen {
		d.state = detOpen
	}
	return d
}

type detState uint8

const (
	detText  detState = iota
	detThink          // inside <think>, looking for </think>
	detOpen           // inside reasoning the prompt opened
)

type detector struct {
	state detState
	pos   int
	at    int
	prose int // where prose ended, once known; -1 before
}

var (
	evidenceText = []string{toolCalls, thinkOpen, toolResults}
	otherText    = []string{tagOpen, eos}
	evidenceOpen = []string{thinkClose, toolCalls}
)

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	pending, cut := -1, -1 // evidence that may start at pending; a shared marker cut off at cut
	if d.state == detOpen {
		d.fix(0) // reasoning, not prose
	}
	for d.at < 0 && pending < 0 && cut < 0 && d.pos < len(seen) {
		if d.state == detThink {
			k := bytes.Index(seen[d.pos:], []byte(tagClose))
			if k < 0 {
				d.pos = max(d.pos, len(seen)-len(tagClose)+1)
				break
			}
			d.pos += k + len(tagClose)
			d.state = detText
			continue
		}
		i := bytes.IndexAny(seen[d.pos:], "[<")
		if i < 0 {
			d.pos = len(seen)
			break
		}
		d.pos += i
		rest := seen[d.pos:]
		ev, other := evidenceText, otherText
		if d.state == detOpen {
			ev, other = evidenceOpen, []string{tagClose}
		}
		m, wait := marker(rest, eof, ev)
		m2, wait2 := marker(rest, eof, other)
		switch {
		case m != "":
			d.at = d.pos
			d.fix(d.pos)
		case m2 == tagOpen:
			d.fix(d.pos)
			d.state = detThink
			d.pos += len(tagOpen)
		case m2 == tagClose: // the reasoning the prompt opened ends; text from here
			d.state = detText
			d.pos += len(tagClose)
		case m2 == eos:
			d.fix(d.pos)
			d.pos += len(eos)
		case wait:
			pending = d.pos
		case wait2:
			cut = d.pos
		default:
			d.pos++
		}
	}
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if d.at >= 0 {
		ev.Pending = -1
	}
	if d.prose < 0 {
		ev.Prose = d.pos
		for _, o := range []int{pending, cut} {
			if o >= 0 {
				ev.Prose = min(ev.Prose, o)
			}
		}
	}
	return ev
}

// fix notes where prose ends: the first marker of any kind.
func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}
