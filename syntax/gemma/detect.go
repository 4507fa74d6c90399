package gemma

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes gemma's detector (see syntax.Detector). Its evidence is a
// marker the parser reads as one where it stands, outside reasoning:
// <|channel>, <|tool_response> (FunctionGemma's <start_function_response>),
// or <|tool_call> (<start_function_call>) followed by call: (after white
// space and a stray ':'). No other syntax writes these tokens (harmony's
// <|channel|> has a second bar). A call opener followed by anything else
// is text; the stray closers (<tool_call|>, <turn|>, <tool_response|> and
// FunctionGemma's) are markers but no evidence. With ThinkOpen the output
// starts in reasoning: <channel|>, or a call, which ends it, is the
// evidence, and no byte is prose.
func detect(opts syntax.Options) syntax.Detector {
	return &detector{at: -1, think: opts.ThinkOpen, prose: -1}
}

type detector struct {
	think bool // in the reasoning the prompt opened
	pos   int
	at    int
	prose int // where prose ended, once known
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	if d.at >= 0 {
		return d.evidence(seen, -1)
	}
	for d.pos < len(seen) {
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		if d.think {
			full, partial := scan.MatchPrefix(seen[i:], channelClose)
			if full {
				d.at = i
				return d.evidence(seen, -1)
			}
			if partial && !eof {
				return d.evidence(seen, i)
			}
		}
		if m, partial := callOpener(seen[i:]); m != "" {
			_, v := blockStart(seen[i+len(m):], "call:", eof)
			switch v {
			case startUndecided:
				return d.evidence(seen, i)
			case startBlock:
				d.at = i
				return d.evidence(seen, -1)
			}
		} else if partial && !eof {
			return d.evidence(seen, i)
		}
		if !d.think {
			m, partial := match(seen[i:], textMarkers, eof)
			bd, result := opened(m)
			switch {
			case m == channelOpen || result:
				d.at = i
				d.fix(i)
				return d.evidence(seen, -1)
			case m == "":
				if partial {
					return d.evidence(seen, i)
				}
			case bd == nil: // a stray closer
				d.fix(i)
			}
		}
		d.pos = i + 1
	}
	return d.evidence(seen, -1)
}

func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

func (d *detector) evidence(seen []byte, pending int) syntax.Evidence {
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if ev.At >= 0 {
		ev.Pending = -1
	}
	if d.think {
		ev.Prose = 0
	} else if ev.Prose < 0 {
		ev.Prose = d.pos
		if ev.At >= 0 {
			ev.Prose = ev.At
		}
	}
	return ev
}
