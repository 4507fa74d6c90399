package llama3

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// detect makes llama3's detector (see syntax.Detector). Its evidence is
// the first of:
//
//   - a JSON object opening the input (after white space) that the parser
//     takes for a call attempt: one with the keys "name" and "parameters"
//     (or "arguments"), decided as soon as both have come, or a broken or
//     cut-off object in which one of those keys came;
//   - a JSON array opening the input that the parser takes for calls
//     (arrayHead: '[', '{' and "name" as the first key, xLAM's), decided by
//     its first element as an object opening the input is;
//   - one of Llama 3's special tokens that the parser reads, where it reads
//     them (in text, not inside a JSON object it takes for text):
//     <|python_tag|>, <|eom_id|>, <|eot_id|>, <|start_header_id|>. No other
//     syntax has them;
//   - a function tag that opens a call, <function=NAME>{ (funcTag: the
//     parser's own code), where the parser reads it. Qwen3-Coder's bare
//     <function=NAME> is followed by a parameter tag instead.
//
// A JSON object without the keys of a call is text to llama3 and no
// evidence; it is looked past for the tokens. Bare JSON calls after the
// start (after prose, or in a later message) are not looked for: the
// tokens around them are found first.
//
// Native also claims a JSON object at the start of the input; at the same
// place the name that sorts first wins, so a Llama 3 call object is llama3,
// and any other object waits until llama3's detector has ruled it out (at
// the object's end).
func detect(opts syntax.Options) syntax.Detector {
	return &detector{at: -1, start: -1, depth: opts.DepthLimit()}
}

type detState uint8

const (
	detStart detState = iota // white space at the start
	detJSON                  // in the JSON object that opens the input
	detText                  // text: looking for the tokens
)

type detector struct {
	state   detState
	pos     int // the bytes before pos are decided
	start   int // the first byte that is not white space, once seen
	cs      callScan
	at      int
	depth   int
	pending int
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	d.pending = -1
	for d.at < 0 && d.pending < 0 && d.pos < len(seen) {
		switch d.state {
		case detStart:
			d.pos = jsonscan.SkipSpace(seen, d.pos)
			if d.pos == len(seen) {
				break
			}
			d.start = d.pos
			switch seen[d.pos] {
			case '{':
				d.state = detJSON
				d.cs.reset(d.depth, 0)
			case '[':
				switch arrayHead(seen[d.pos:], eof) {
				case headYes:
					// Its first element decides, as an object opening the
					// input does (the parser's beginArray).
					d.pos = jsonscan.SkipSpace(seen, d.pos+1)
					d.state = detJSON
					d.cs.reset(d.depth, 0)
				case headWait:
					d.pending = d.start
				default:
					d.state = detText
				}
			default:
				d.state = detText
			}
		case detJSON:
			d.pos += d.cs.scan(seen[d.pos:], int64(d.pos))
			switch {
			case d.cs.as.Shaped() || d.cs.js.Err() != nil && d.cs.as.Keyed():
				d.at = d.start
			case d.cs.js.Done() || d.cs.js.Err() != nil:
				d.state = detText // JSON that is not a call: text from here
			case d.pos == len(seen) && !eof:
				d.pending = d.start
			}
		default:
			i := bytes.IndexByte(seen[d.pos:], '<')
			if i < 0 {
				d.pos = len(seen)
				break
			}
			d.pos += i
			m, wait := marker(seen[d.pos:], eof)
			k, _ := funcTag(seen[d.pos:], eof)
			switch {
			case m != "" || k > 0:
				d.at = d.pos
			case wait || k < 0:
				d.pending = d.pos
			default:
				d.pos++
			}
		}
	}
	if eof && d.state == detJSON && d.at < 0 && d.cs.as.Keyed() {
		d.at = d.start // a call cut off: an error in llama3
	}
	return d.evidence(seen, eof)
}

func (d *detector) evidence(seen []byte, eof bool) syntax.Evidence {
	ev := syntax.Evidence{At: d.at, Pending: d.pending, Prose: d.pos}
	switch {
	case d.at >= 0:
		ev.Pending, ev.Prose = -1, min(d.pos, d.at)
	case eof:
		ev.Pending = -1
	}
	if d.state == detJSON && ev.Prose > d.start {
		ev.Prose = d.start
	}
	return ev
}
