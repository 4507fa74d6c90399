package kimi

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes kimi's detector (see syntax.Detector). Its evidence is a
// tool-call section opener, <|tool_calls_section_begin|> or the singular
// <|tool_call_section_begin|>, or a <|tool_call_begin|>: special tokens no
// other syntax writes. Each is a marker wherever it stands before any
// section, reasoning included (it ends reasoning), so the first one is the
// evidence. <think> is shared
// with other formats: no evidence, but prose ends there, as it does at a
// section closer outside a section (passed over by the parser). With
// Options.ThinkOpen the stream starts in reasoning, which is not prose.
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{prose: -1, at: -1}
	if opts.ThinkOpen {
		d.prose = 0
	}
	return d
}

type detector struct {
	pos   int // every marker that starts before pos is decided
	prose int // where prose ended, once known; -1 before
	at    int // the evidence, once found; -1 before
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	pending := -1
	for d.at < 0 && d.pos < len(seen) {
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		wait := false
		for _, m := range textMarkers {
			full, partial := scan.MatchPrefix(seen[i:], m)
			evidence := m == sectionBegin || m == sectionBegin1 || m == callBegin
			switch {
			case full:
				if d.prose < 0 {
					d.prose = i
				}
				if evidence {
					d.at = i
				}
			case partial && !eof:
				wait = true
				if evidence {
					pending = i
				}
			}
		}
		if d.at >= 0 {
			break
		}
		if wait {
			return d.evidence(pending)
		}
		d.pos = i + 1
	}
	return d.evidence(pending)
}

func (d *detector) evidence(pending int) syntax.Evidence {
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if ev.At >= 0 {
		ev.Pending = -1
	}
	if ev.Prose < 0 {
		ev.Prose = d.pos
	}
	return ev
}
