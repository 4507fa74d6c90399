package hermes

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes hermes's detector (see syntax.Detector). Its evidence is a
// <tool_call> tag that opens a call: the first byte after it that is not
// white space is '{' (Qwen3-Coder writes <function= there, GLM a name). A
// tag followed only by white space so far is pending. <think> and
// <tool_response> are shared with other model formats, so they are no
// evidence; nothing inside an explicit <think> block or a <tool_response>
// block is either, but prose ends at them. With Options.ThinkOpen the
// stream starts in reasoning, which is not prose, and a <tool_call> that
// opens a call there is evidence too (it ends the reasoning).
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{prose: -1, at: -1, tag: -1}
	if opts.ThinkOpen {
		d.state, d.lead, d.prose = detOpenThink, true, 0
	}
	return d
}

type detectState uint8

const (
	detText      detectState = iota
	detOpenThink             // reasoning opened by the prompt: until </think> or a call
	detThink                 // inside <think>, looking for </think>
	detResp                  // inside <tool_response>, looking for </tool_response>
	detTag                   // after a <tool_call> tag, in the white space after it
)

type detector struct {
	state detectState
	from  detectState // detTag: where the tag stood
	lead  bool        // detOpenThink: only white space so far
	pos   int         // every marker that starts before pos is decided
	prose int         // where prose ended, once known; -1 before
	at    int         // the evidence, once found; -1 before
	tag   int         // detTag: where the tag starts
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
		case detThink, detResp:
			closeTag := closeThink
			if d.state == detResp {
				closeTag = closeResp
			}
			if k := bytes.Index(seen[d.pos:], []byte(closeTag)); k >= 0 {
				d.pos += k + len(closeTag)
				d.state = detText
			} else {
				d.pos = max(d.pos, len(seen)-len(closeTag)+1)
				return d.evidence(-1)
			}
		case detTag:
			i := jsonscan.SkipSpace(seen, d.pos)
			d.pos = i
			if i == len(seen) {
				break
			}
			if seen[i] == '{' {
				d.at = d.tag
				d.fix(d.tag)
			} else { // prose (or reasoning) that mentions the tag
				d.state = d.from
			}
		case detOpenThink:
			if d.lead {
				i := jsonscan.SkipSpace(seen, d.pos)
				d.pos = i
				if i == len(seen) {
					break
				}
				full, partial := scan.MatchPrefix(seen[i:], openThink)
				if partial && !eof {
					return d.evidence(-1)
				}
				d.lead = false
				if full {
					d.pos += len(openThink)
					break
				}
			}
			j := bytes.IndexByte(seen[d.pos:], '<')
			if j < 0 {
				d.pos = len(seen)
				break
			}
			i := d.pos + j
			d.pos = i
			if full, partial := scan.MatchPrefix(seen[i:], closeThink); full {
				d.pos = i + len(closeThink)
				d.state = detText
				break
			} else if partial && !eof {
				return d.evidence(-1)
			}
			if full, partial := scan.MatchPrefix(seen[i:], openCall); full {
				d.state, d.from, d.tag, d.pos = detTag, detOpenThink, i, i+len(openCall)
				break
			} else if partial && !eof {
				pending = i
				break
			}
			d.pos = i + 1
		default:
			j := bytes.IndexByte(seen[d.pos:], '<')
			if j < 0 {
				d.pos = len(seen)
				break
			}
			i := d.pos + j
			d.pos = i
			wait, matched := false, ""
			for _, m := range textMarkers {
				full, partial := scan.MatchPrefix(seen[i:], m)
				if full {
					matched = m
					break
				}
				if partial && !eof {
					wait = true
					if m == openCall {
						pending = i
					}
				}
			}
			switch matched {
			case openThink:
				d.fix(i)
				d.state, d.pos = detThink, i+len(openThink)
			case openResp:
				d.fix(i)
				d.state, d.pos = detResp, i+len(openResp)
			case openCall:
				d.state, d.from, d.tag, d.pos = detTag, detText, i, i+len(openCall)
			default:
				if wait {
					return d.evidence(pending)
				}
				d.pos = i + 1
			}
		}
	}
	if d.state == detTag && d.at < 0 && d.pos == len(seen) {
		if eof {
			d.fix(d.tag) // a truncated call in hermes: an error, not prose
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
