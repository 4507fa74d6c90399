package tagcall

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// newInvokeDetector makes the invoke form's detector (see
// syntax.Detector). Its evidence is an opener that opens a section (a
// section opener followed, after white space, by an invoke tag or its
// closer) or a results block (its opener followed by ResultTag or its
// closer), decided by the parser's own code (Invoke.opens). Olmo 3 writes
// <function_calls> with pythonic calls inside: what follows the opener
// tells them apart. An opener followed only by white space so far is
// pending, and evidence at the end of the input (the parser reads it as a
// truncated section). Think.Open is shared with other model formats: no
// evidence, and nothing inside an explicit reasoning block is either, but
// prose ends there. With Options.ThinkOpen the stream starts in
// reasoning, which is not prose; an opener that opens a section there is
// evidence (it ends the reasoning). With Invoke.Own each section opener is
// evidence by itself.
func newInvokeDetector(f *Format, opts syntax.Options) syntax.Detector {
	v := f.Invoke
	if v.Own {
		return markup.OwnMarkers(v.openers(), opts.ThinkOpen)
	}
	d := &ivDetector{f: f, prose: -1, at: -1, tag: -1, openers: v.openers(), markers: v.textMarkers(f)}
	d.blocks = nonEmpty(append(v.openers(), v.Results.Open))
	if opts.ThinkOpen {
		d.state, d.prose, d.noThink = detOpenThink, 0, true
	}
	return d
}

// detTag: after an opener, in the white space after it.
const detTag = detResponse + 1

type ivDetector struct {
	f                *Format
	markers, openers []string
	blocks           []string // the section and results openers
	state            detectState
	noThink          bool        // ThinkOpen: Think.Open is text once the reasoning is over
	from             detectState // detTag: where the opener stood
	pos              int         // every marker that starts before pos is decided
	prose            int         // where prose ended, once known; -1 before
	at               int         // the evidence, once found; -1 before
	tag              int         // detTag: where the opener starts
	open             string      // detTag: the opener
}

func (d *ivDetector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

func (d *ivDetector) Look(seen []byte, eof bool) syntax.Evidence {
	f := d.f
	pending := -1
	for d.at < 0 && d.pos < len(seen) && pending < 0 {
		switch d.state {
		case detThink:
			if k := bytes.Index(seen[d.pos:], []byte(f.Think.Close)); k >= 0 {
				d.pos += k + len(f.Think.Close)
				d.state = detText
				continue
			}
			d.pos = max(d.pos, len(seen)-len(f.Think.Close)+1)
			return d.evidence(-1)
		case detTag:
			i := jsonscan.SkipSpace(seen, d.pos)
			d.pos = i
			if i == len(seen) {
				continue
			}
			yes, wait := f.Invoke.opens(d.open, seen[i:], eof)
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
		markers := d.markers
		if d.state == detOpenThink {
			if full, partial := scan.MatchPrefix(rest, f.Think.Close); full {
				d.pos = i + len(f.Think.Close)
				d.state = detText
				continue
			} else if partial && !eof {
				return d.evidence(-1)
			}
			markers = d.openers
		}
		m, wait := markup.MatchAny(rest, eof, markers)
		switch {
		case m != "" && m == f.Think.Open && d.noThink: // after the reasoning the prompt opened, Think.Open is text
			d.pos = i + 1
		case m != "" && m == f.Think.Open:
			d.fix(i)
			d.state = detThink
			d.pos = i + len(f.Think.Open)
		case m != "":
			d.state, d.from, d.tag, d.open = detTag, d.state, i, m
			d.pos = i + len(m)
		case wait:
			if _, w := markup.MatchAny(rest, eof, d.blocks); w {
				pending = i
			}
			return d.evidence(pending)
		default:
			d.pos = i + 1
		}
	}
	if d.state == detTag && d.at < 0 && d.pos == len(seen) {
		if eof {
			if d.from == detText { // an opener at the end of the input: the parser's error, so its evidence
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
func (d *ivDetector) evidence(pending int) syntax.Evidence {
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
