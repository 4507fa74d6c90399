package pythonic

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes pythonic's detector (see syntax.Detector). Its evidence is
// a call opener, <|python_start|> or <|tool_call_start|>, which no other
// syntax writes, <function_calls> followed by a call or its closer (minimax
// writes <invoke …> there), or a '[' that the parser reads as the start of a call
// list: '[', white space, a dotted name and '(', not after a letter, digit,
// '_', ')' or ']'. <think> is shared with most model formats, so it is no
// evidence, and nothing inside a <think> block is; but prose ends there.
// With ThinkOpen the stream starts in reasoning, where only a call opener
// is evidence (it ends the reasoning), and no byte is prose.
func detect(opts syntax.Options) syntax.Detector {
	d := &detector{prose: -1, at: -1, mark: 0}
	if opts.ThinkOpen {
		d.state, d.prose = detOpened, 0
	}
	return d
}

type detectState uint8

const (
	detText   detectState = iota
	detThink              // inside <think>, looking for </think>
	detOpened             // in reasoning the prompt opened
)

type detector struct {
	state detectState
	pos   int // every marker that starts before pos is decided
	mark  int // the end of the last marker: a '[' there follows no text
	prose int // where prose ended, once known; -1 before
	at    int // the evidence, once found; -1 before
}

func (d *detector) fix(at int) {
	if d.prose < 0 {
		d.prose = at
	}
}

// prevByte is the byte of text before offset i, 0 after a marker.
func (d *detector) prevByte(seen []byte, i int) byte {
	if i == d.mark || i == 0 {
		return 0
	}
	return seen[i-1]
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	pending, hold := -1, -1
loop:
	for d.at < 0 && d.pos < len(seen) {
		switch d.state {
		case detThink:
			k := bytes.Index(seen[d.pos:], []byte(closeThink))
			if k < 0 {
				d.pos = max(d.pos, len(seen)-len(closeThink)+1)
				break loop
			}
			d.pos += k + len(closeThink)
			d.mark = d.pos
			d.state = detText
		case detOpened:
			j := bytes.IndexByte(seen[d.pos:], '<')
			if j < 0 {
				d.pos = len(seen)
				break loop
			}
			i := d.pos + j
			d.pos = i
			wait := false
			for _, m := range [...]string{closeThink, pythonStart, toolCallOpen, funcCalls} {
				full, partial := scan.MatchPrefix(seen[i:], m)
				if full && m == funcCalls {
					switch bodyHead(seen[i:], eof) {
					case headWait:
						pending = i
						break loop
					case headNo:
						continue
					}
				}
				if full && m == closeThink {
					d.pos = i + len(m)
					d.mark = d.pos
					d.state = detText
					continue loop
				}
				if full {
					d.at = i
					break loop
				}
				if partial && !eof {
					wait = true
					if m != closeThink {
						pending = i
					}
				}
			}
			if wait {
				break loop
			}
			d.pos = i + 1
		default:
			j := bytes.IndexAny(seen[d.pos:], "<[")
			if j < 0 {
				d.pos = len(seen)
				break loop
			}
			i := d.pos + j
			d.pos = i
			if seen[i] == '[' {
				if blocksList(d.prevByte(seen, i)) {
					d.pos = i + 1
					continue
				}
				switch listHead(seen[i:], eof) {
				case headYes:
					d.at = i
					d.fix(i)
				case headWait:
					pending, hold = i, i
					break loop
				default:
					d.pos = i + 1
				}
				continue
			}
			wait := false
			for _, m := range textMarkers {
				full, partial := scan.MatchPrefix(seen[i:], m)
				if full && m == funcCalls {
					switch bodyHead(seen[i:], eof) {
					case headWait:
						pending, hold = i, i
						break loop
					case headNo:
						continue
					}
				}
				if full {
					d.fix(i)
					if m == openThink {
						d.state = detThink
						d.pos = i + len(m)
					} else {
						d.at = i
					}
					continue loop
				}
				if partial && !eof {
					wait = true
					if m != openThink {
						pending = i
					}
				}
			}
			if wait {
				hold = i
				break loop
			}
			d.pos = i + 1
		}
	}
	ev := syntax.Evidence{At: d.at, Pending: pending, Prose: d.prose}
	if ev.At >= 0 {
		ev.Pending = -1
	}
	if ev.Prose < 0 {
		ev.Prose = min(d.pos, len(seen))
		if hold >= 0 {
			ev.Prose = min(ev.Prose, hold)
		}
	}
	return ev
}
