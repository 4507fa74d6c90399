package xmljson

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes xmljson's detector (see syntax.Detector). Its evidence is
// <end>, or an <execute> or <results> tag that opens a block: the first byte
// after it that is not white space is '[' or '{', or starts its close tag. A
// tag followed by anything else is prose that mentions it; one followed only
// by white space so far is pending. <think> is shared with most model
// formats, so it is no evidence, and neither is anything inside a <think>
// block (thought, in every syntax that has one); but prose ends there.
//
// With Options.ThinkOpen the stream starts inside <think>: nothing before
// its </think> is evidence, and there is no prose before it.
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{prose: -1, at: -1, tag: -1}
	if opts.ThinkOpen {
		d.state, d.prose = detThink, 0
	}
	return d
}

type detectState uint8

const (
	detText  detectState = iota
	detThink             // inside <think>, looking for </think>
	detTag               // after an <execute> or <results> tag, in the white space after it
)

type detector struct {
	state detectState
	pos   int    // every marker that starts before pos is decided
	prose int    // where prose ended, once known; -1 before
	at    int    // the evidence, once found; -1 before
	tag   int    // detTag: where the tag starts
	close string // detTag: its close tag
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
			} else {
				d.pos = max(d.pos, len(seen)-len(closeThink)+1)
				return d.evidence(seen, -1)
			}
		case detTag:
			i := jsonscan.SkipSpace(seen, d.pos)
			d.pos = i
			if i == len(seen) {
				break
			}
			full, partial := scan.MatchPrefix(seen[i:], d.close)
			switch {
			case seen[i] == '[' || seen[i] == '{' || full:
				d.at = d.tag
				d.fix(d.tag)
			case partial && !eof:
				pending = d.tag
			default: // prose that mentions the tag
				d.state = detText
			}
		default:
			j := bytes.IndexByte(seen[d.pos:], '<')
			if j < 0 {
				d.pos = len(seen)
				break
			}
			i := d.pos + j
			d.pos = i
			wait := false
			matched := ""
			for _, m := range textMarkers {
				full, partial := scan.MatchPrefix(seen[i:], m)
				if full {
					matched = m
					break
				}
				if partial && !eof {
					wait = true
					if m != openThink {
						pending = i
					}
				}
			}
			switch matched {
			case openThink:
				d.fix(i)
				d.state = detThink
				d.pos = i + len(openThink)
			case endTag:
				d.at = i
				d.fix(i)
			case openExecute, openResults:
				d.state, d.tag, d.close = detTag, i, closeExecute
				if matched == openResults {
					d.close = closeResults
				}
				d.pos = i + len(matched)
			default:
				if wait {
					return d.evidence(seen, pending)
				}
				d.pos = i + 1
			}
		}
	}
	if d.state == detTag && d.at < 0 && d.pos == len(seen) {
		if eof {
			d.fix(d.tag) // an unterminated tag: an error in xmljson
		} else {
			pending = d.tag
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
		if d.state == detTag {
			ev.Prose = d.tag
		}
	}
	return ev
}
