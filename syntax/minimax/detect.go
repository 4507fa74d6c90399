package minimax

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes minimax's detector (see syntax.Detector). Its evidence is a
// section opener that opens a section: <minimax:tool_call> or
// <function_calls> followed, after white space, by an <invoke …> tag or
// the closer, or <function_results> followed by <result> or its closer.
// Olmo 3 writes <function_calls> with pythonic calls inside: what follows
// the opener tells them apart. An opener followed only by white space so
// far is pending, and evidence at the end of the input (minimax reads it
// as a truncated section). <think> is shared with other model formats: no evidence,
// and nothing inside an explicit <think> block is either, but prose ends
// there. With Options.ThinkOpen the stream starts in reasoning, which is
// not prose; a call opener that opens a section there is evidence (it ends
// the reasoning).
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{prose: -1, at: -1, tag: -1}
	if opts.ThinkOpen {
		d.state, d.prose, d.noThink = detOpenThink, 0, true
	}
	return d
}

type detectState uint8

const (
	detText      detectState = iota
	detOpenThink             // reasoning opened by the prompt: until </think> or a call section
	detThink                 // inside <think>, looking for </think>
	detTag                   // after an opener, in the white space after it
)

type detector struct {
	state   detectState
	noThink bool        // ThinkOpen: <think> is text once the reasoning is over
	from    detectState // detTag: where the opener stood
	pos     int         // every marker that starts before pos is decided
	prose   int         // where prose ended, once known; -1 before
	at      int         // the evidence, once found; -1 before
	tag     int         // detTag: where the opener starts
	open    string      // detTag: the opener
}

func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	pending := -1
	for d.at < 0 && d.pos < len(seen) && pending < 0 {
		switch d.state {
		case detThink:
			if k := bytes.Index(seen[d.pos:], []byte(closeThink)); k >= 0 {
				d.pos += k + len(closeThink)
				d.state = detText
				continue
			}
			d.pos = max(d.pos, len(seen)-len(closeThink)+1)
			return d.evidence(-1)
		case detTag:
			i := jsonscan.SkipSpace(seen, d.pos)
			d.pos = i
			if i == len(seen) {
				continue
			}
			yes, wait := opens(d.open, seen[i:], eof)
			switch {
			case yes:
				d.at = d.tag
				d.fix(d.tag)
			case wait:
				pending = d.tag
			default: // prose (or reasoning) that mentions the opener
				d.state = d.from
				d.pos = d.tag + 1
			}
			continue
		}
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		rest := seen[i:]
		markers := textMarkers[:]
		if d.state == detOpenThink {
			if full, partial := scan.MatchPrefix(rest, closeThink); full {
				d.pos = i + len(closeThink)
				d.state = detText
				continue
			} else if partial && !eof {
				return d.evidence(-1)
			}
			markers = callOpeners[:]
		}
		m, wait := markup.MatchAny(rest, eof, markers)
		switch {
		case m == openThink && d.noThink: // after the reasoning the prompt opened, <think> is text
			d.pos = i + 1
		case m == openThink:
			d.fix(i)
			d.state = detThink
			d.pos = i + len(openThink)
		case m != "":
			d.state, d.from, d.tag, d.open = detTag, d.state, i, m
			d.pos = i + len(m)
		case wait:
			if _, w := markup.MatchAny(rest, eof, []string{openMiniMax, openCalls, openResults}); w {
				pending = i
			}
			return d.evidence(pending)
		default:
			d.pos = i + 1
		}
	}
	if d.state == detTag && d.at < 0 && d.pos == len(seen) {
		if eof {
			if d.from == detText { // an opener at the end of the input: minimax's error, so its evidence
				d.at = d.tag
				d.fix(d.tag)
			}
		} else {
			pending = d.tag
		}
	}
	return d.evidence(pending)
}

// evidence reports what is known, pending being the place where more input
// is awaited (or -1).
func (d *detector) evidence(pending int) syntax.Evidence {
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if ev.At >= 0 {
		ev.Pending = -1
	}
	if ev.Prose < 0 {
		ev.Prose = d.pos // all before pos is decided text
		if d.state == detTag {
			ev.Prose = d.tag
		}
	}
	return ev
}
