package qwen3coder

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Detect makes qwen3coder's detector (see syntax.Detector). Its evidence is
// a call opener as the parser reads it: <tool_call>, white space, then
// <function= (Hermes writes '{' there, GLM a name); or a bare
// <function=NAME> followed, after white space, by <parameter= or
// </function> (Llama 3.1 writes '{' there). <think>, <tool_call> and
// <tool_response> are shared with other model formats, so they end prose
// but are no evidence by themselves; nothing inside <think> or
// <tool_response> is evidence. With Options.ThinkOpen the input starts in
// reasoning, which a call opener ends as </think> does.
func Detect(opts syntax.Options) syntax.Detector {
	d := &detector{at: -1, prose: -1, wsFor: -1}
	if opts.ThinkOpen {
		d.state, d.prose = detOpenThink, 0
	}
	return d
}

type detectState uint8

const (
	detText      detectState = iota
	detThink                 // inside <think>: looking for </think>
	detOpenThink             // reasoning opened by the prompt
	detResponse              // inside <tool_response>
)

type detector struct {
	state detectState
	pos   int // every marker that starts before pos is decided
	prose int // where prose ended, once known; -1 before
	at    int // the evidence, once found; -1 before
	wsFor int // the pending opener whose white space was read up to ws (relative to it)
	ws    int
}

func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	pending := -1
	for d.at < 0 && pending < 0 && d.pos < len(seen) {
		switch d.state {
		case detThink, detResponse:
			closer := closeThink
			if d.state == detResponse {
				closer = closeResponse
			}
			if k := bytes.Index(seen[d.pos:], []byte(closer)); k >= 0 {
				d.pos += k + len(closer)
				d.state = detText
				continue
			}
			d.pos = max(d.pos, len(seen)-len(closer)+1)
			return d.evidence(seen, -1)
		}
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		rest := seen[i:]
		wait := false // a marker that is no evidence may start here
		if d.state == detOpenThink {
			full, partial := scan.MatchPrefix(rest, closeThink)
			if full {
				d.state = detText
				d.pos = i + len(closeThink)
				continue
			}
			wait = partial && !eof
		} else {
			opened := false
			for _, m := range [...]string{openThink, openResponse} {
				full, partial := scan.MatchPrefix(rest, m)
				if full {
					d.fix(i)
					d.state = detThink
					if m == openResponse {
						d.state = detResponse
					}
					d.pos = i + len(m)
					opened = true
					break
				}
				wait = wait || partial && !eof
			}
			if opened {
				continue
			}
		}
		ws := 0
		if d.wsFor == i {
			ws = d.ws
		}
		c, ws := callAt(rest, eof, ws)
		d.wsFor, d.ws = i, ws
		switch c {
		case 1:
			d.fix(i)
			d.at = i
		case -1:
			if d.state == detText && (bytes.HasPrefix(rest, []byte(openToolCall)) || bytes.HasPrefix(rest, []byte(openFunction))) {
				d.fix(i)
			}
			pending = i
		default:
			if wait {
				return d.evidence(seen, -1)
			}
			if d.state == detText && (bytes.HasPrefix(rest, []byte(openToolCall)) || bytes.HasPrefix(rest, []byte(openFunction))) {
				d.fix(i) // a shared marker: prose ends here whatever it turns out to be
			}
			d.pos = i + 1
		}
	}
	return d.evidence(seen, pending)
}

// callAt reports whether b, which starts with '<', starts a call as the
// parser reads it: 1 yes, 0 no, -1 when more input is needed.
// ws is where, in b, white space after the tag was read up to by an
// earlier call that needed more input (0 when none), and callAt returns
// where it read it up to this time, so that a long run of white space is
// read once.
func callAt(b []byte, eof bool, ws int) (int, int) {
	if full, partial := scan.MatchPrefix(b, openToolCall); full {
		i := max(ws, len(openToolCall))
		i += skipSpace(b[i:])
		full, partial := scan.MatchPrefix(b[i:], openFunction)
		switch {
		case full:
			return 1, i
		case (partial || i == len(b)) && !eof:
			return -1, i
		}
		return 0, i
	} else if partial && !eof {
		return -1, 0
	}
	n, _ := functionTag(b, eof)
	switch {
	case n < 0:
		return -1, 0
	case n == 0:
		return 0, 0
	}
	i := max(ws, n)
	i += skipSpace(b[i:])
	full1, partial1 := scan.MatchPrefix(b[i:], openParam)
	full2, partial2 := scan.MatchPrefix(b[i:], closeFunction)
	switch {
	case full1 || full2:
		return 1, i
	case (partial1 || partial2 || i == len(b)) && !eof:
		return -1, i
	}
	return 0, i
}

func (d *detector) evidence(seen []byte, pending int) syntax.Evidence {
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if ev.At >= 0 {
		ev.Pending = -1
	}
	if ev.Prose < 0 {
		ev.Prose = d.pos
		if pending >= 0 {
			ev.Prose = min(ev.Prose, pending)
		}
	}
	return ev
}
