package deepseek

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// evidenceMarkers are DeepSeek's own openers: special tokens no other
// syntax writes, so each is evidence as soon as it is whole.
var evidenceMarkers = [...]string{callsBegin, callBegin, outputsBegin, outputBegin, dsmlCalls, dsmlToolCalls}

// detect makes deepseek's detector (see syntax.Detector). Its evidence is
// one of DeepSeek's openers (<｜tool▁calls▁begin｜>, <｜tool▁call▁begin｜>,
// <｜tool▁output(s)▁begin｜>, <｜DSML｜function_calls>, <｜DSML｜tool_calls>) where the parser reads
// it as a marker: not inside an explicit <think> block. <think> is shared
// with other model formats: no evidence, but prose ends there. With
// Options.ThinkOpen the stream starts in reasoning, which is not prose; a
// call opener there is evidence (it ends the reasoning).
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{prose: -1, at: -1}
	if opts.ThinkOpen {
		d.state, d.prose, d.noThink = detOpenThink, 0, true
	}
	return d
}

type detectState uint8

const (
	detText      detectState = iota
	detOpenThink             // reasoning opened by the prompt: until </think> or a call opener
	detThink                 // inside <think>, looking for </think>
)

type detector struct {
	state   detectState
	noThink bool // ThinkOpen: <think> is text once the reasoning is over
	pos     int  // every marker that starts before pos is decided
	prose   int  // where prose ended, once known; -1 before
	at      int  // the evidence, once found; -1 before
}

func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	pending := -1
	for d.at < 0 && d.pos < len(seen) && pending < 0 {
		if d.state == detThink {
			if k := bytes.Index(seen[d.pos:], []byte(closeThink)); k >= 0 {
				d.pos += k + len(closeThink)
				d.state = detText
				continue
			}
			d.pos = max(d.pos, len(seen)-len(closeThink)+1)
			break
		}
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		rest := seen[i:]
		if d.state == detOpenThink {
			if full, partial := scan.MatchPrefix(rest, closeThink); full {
				d.pos = i + len(closeThink)
				d.state = detText
				continue
			} else if partial && !eof {
				return d.evidence(seen, -1)
			}
			m, wait := markup.MatchAny(rest, eof, callOpeners[:])
			switch {
			case m != "":
				d.at = i
			case wait:
				pending = i
			default:
				d.pos = i + 1
			}
			continue
		}
		m, wait := markup.MatchAny(rest, eof, textMarkers[:])
		switch {
		case m == openThink && d.noThink: // after the reasoning the prompt opened, <think> is text
			d.pos = i + 1
		case m == openThink:
			d.fix(i)
			d.state = detThink
			d.pos = i + len(openThink)
		case m != "":
			d.at = i
			d.fix(i)
		case wait:
			if _, w := markup.MatchAny(rest, eof, evidenceMarkers[:]); w {
				pending = i // the end of seen may be the start of an opener
			}
			return d.evidence(seen, pending)
		default:
			d.pos = i + 1
		}
	}
	return d.evidence(seen, pending)
}

// evidence reports what is known, pending being the place where more input
// is awaited (or -1).
func (d *detector) evidence(seen []byte, pending int) syntax.Evidence {
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if ev.At >= 0 {
		ev.Pending = -1
	}
	if ev.Prose < 0 {
		ev.Prose = d.pos // all before pos is decided text
	}
	return ev
}
