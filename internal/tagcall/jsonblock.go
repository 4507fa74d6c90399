package tagcall

import (
	"strconv"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// The JSON form (Format.JSON): Scope.Open, white space, a JSON object (one
// call) or an array of call objects, white space, Scope.Close — or, with no
// Scope.Close, the value's end ends the block:
//
//	<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL>
//	<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]
//
// The block is one unit: a problem anywhere in it (JSON that does not
// parse, an element that is no call, text between the value and the
// closer) makes it one error with its text, and none of its calls is
// delivered.

// JSON block phases.
const (
	phaseJSON   = iota // scanning the JSON value
	phaseAfter         // the value is complete: white space, then Scope.Close
	phaseSearch        // a problem was found: the next Scope.Close ends the block
)

// jsonBlock is the state of an open JSON block.
type jsonBlock struct {
	js          jsonscan.JSON
	args        jsoncall.ArgStream // token mode: streams the calls' arguments
	phase       int
	valueAt     int // where the value starts in the parser's block
	valueEnd    int // where it ends, once complete
	problem     string
	problemAt   int // offset in the block of the first problem
	problemCode syntax.Code
	calls       []syntax.Event // the block's calls, read before any is handed on
	array       bool           // the block's value is an array (not JSON lines)
	opener      string         // the block's opener: Scope.Open or one of Openers
}

// jsonOpen reads what follows Scope.Open in the JSON form: white space,
// then '{' or '[' opens a block; Scope.Close right away is an empty block
// (an error); anything else makes the tag text.
func (p *parser) jsonOpen(data []byte, eof bool) int {
	if n, ok := p.holdSpace(data); ok {
		return n
	}
	if len(data) == 0 {
		return 0
	}
	if data[0] == '{' || data[0] == '[' && !p.f.Object {
		p.called(p.heldAt)
		p.openJSON()
		return scan.Again
	}
	if c := p.f.Scope.Close; c != "" && !p.f.Object {
		full, partial := scan.MatchPrefix(data, c)
		switch {
		case full:
			p.Undecided(-1)
			p.openJSON()
			p.Keep(&p.blk, data[:len(c)])
			p.jb.setProblem(syntax.CodeMalformed, p.jb.valueAt, "an empty block: it must hold a call object or an array of them")
			p.closeJSON(p.Offset()+int64(len(c)), true)
			return len(c)
		case partial && !eof:
			return 0
		}
	}
	p.unhold()
	return scan.Again
}

// openJSON starts the block whose opener and white space are held.
func (p *parser) openJSON() {
	p.EndRun()
	p.batch.Open()
	p.state = inJSON
	p.start = p.heldPos
	p.blk.Reset()
	p.Keep(&p.blk, p.held)
	jb := &p.jb
	jb.phase, jb.problem, jb.valueAt = phaseJSON, "", len(p.held)
	jb.js.Reset(p.Options().DepthLimit())
	jb.args.Reset()
	jb.args.SetIndex(p.batch.streamed) // a message's calls are numbered across its blocks
	p.held = p.held[:0]
	if p.f.Scope.Close == "" {
		// The block ends where its value ends or breaks: at any byte.
		p.WakeOn(nil)
	} // else every event of the block completes at its closer or at a next opener, both markers
}

func (jb *jsonBlock) setProblem(code syntax.Code, at int, msg string) {
	if jb.problem == "" {
		jb.problem, jb.problemAt, jb.problemCode = msg, at, code
	}
}

// jsonBody takes the bytes of the open block.
func (p *parser) jsonBody(data []byte, eof bool) int {
	jb, closer := &p.jb, p.f.Scope.Close
	token := p.Options().Mode == syntax.TokenMode
	used := 0
	for used < len(data) {
		rest := data[used:]
		switch jb.phase {
		case phaseJSON:
			if !jb.js.Started() && !p.blk.Over && len(p.blk.Bytes) == jb.valueAt {
				jb.args.Depth = 0 // an object is the call; an array holds calls
				jb.array = rest[0] == '['
				if jb.array {
					jb.args.Depth = 1
				}
			}
			n := jb.args.ScanBlock(&p.blk, p.Options().BlockLimit(), rest, p.Offset()+int64(used), token)
			used += n
			switch {
			case jb.js.Done():
				jb.valueEnd = len(p.blk.Bytes)
				if closer == "" {
					p.closeJSON(p.Offset()+int64(used), true)
					return used
				}
				jb.phase = phaseAfter
			case jb.js.Err() != nil:
				jb.setProblem(jb.js.Err().Code(), int(p.blk.Len), "invalid JSON: "+jb.js.Err().Msg())
				if closer == "" {
					// Nothing marks the block's end: it ends at the problem.
					p.closeJSON(p.Offset()+int64(used), true)
					return used
				}
				jb.phase = phaseSearch
			case n == 0:
				return used // the block is over the limit: more input decides
			}
		case phaseAfter:
			i := skipWS(rest)
			p.Keep(&p.blk, rest[:i])
			used += i
			if i == len(rest) {
				break
			}
			full, partial := scan.MatchPrefix(rest[i:], closer)
			if full {
				p.Keep(&p.blk, rest[i:i+len(closer)])
				used += len(closer)
				p.closeJSON(p.Offset()+int64(used), true)
				return used
			}
			if p.f.Lines && rest[i] == '{' && !jb.array {
				// The next of a block's JSON lines.
				jb.js.Reset(p.Options().DepthLimit())
				n := jb.args.Calls()
				jb.args.Reset()
				jb.args.SetIndex(n)
				jb.phase = phaseJSON
				continue
			}
			opener, partialOpener := scan.MatchAny(rest[i:], eof, p.openers)
			if (partial || partialOpener) && !eof {
				return used
			}
			if opener != "" || p.f.Object {
				// The closer was left out (before the next call's opener,
				// or, in a one-call block, before anything else): the
				// block ends before it, and what follows is read afresh.
				jb.setProblem(syntax.CodeMalformed, int(p.blk.Len), "the call's JSON is not followed by "+closer)
				p.closeJSON(p.Offset()+int64(used), true)
				if used == 0 {
					return scan.Again
				}
				return used
			}
			jb.setProblem(syntax.CodeMalformed, int(p.blk.Len), "text after the JSON value (only white space may come before "+closer+")")
			jb.phase = phaseSearch
		case phaseSearch:
			n, closed := Response(&p.Core, &p.blk, rest, eof, closer)
			used += n
			if closed {
				p.closeJSON(p.Offset()+int64(used), true)
			}
			return used
		}
	}
	return used
}

// closeJSON ends the open block at end: its calls, or its error. closed
// says the block ended as the format says (not cut off by the input's end).
func (p *parser) closeJSON(end int64, closed bool) {
	p.state = inText
	p.WakeOn(p.wake)
	jb := &p.jb
	p.batch.streamed = jb.args.Calls()
	span := syntax.Span{Start: p.start.Offset, End: end}
	var raw []byte
	if !p.blk.Over {
		raw = p.blk.Bytes
	}
	opener := jb.opener
	switch {
	case p.blk.Over:
		unterminated := ""
		if !closed {
			unterminated = " and unterminated"
		}
		p.Errorf(syntax.CodeOverLimit, p.start, span, nil, "%s block longer than the limit of %d bytes%s", opener, p.Options().BlockLimit(), unterminated)
		return
	case !closed:
		what := p.f.Scope.Close
		if what == "" {
			what = "its JSON value ended"
		}
		p.Errorf(syntax.CodeTruncated, p.start, span, raw, "unterminated %s: the stream ended before %s", opener, what)
		return
	case jb.problem != "":
		p.Errorf(jb.problemCode, p.start, span, raw, "%s block at %s: %s", opener, scan.Advance(p.start, raw[:jb.problemAt]), jb.problem)
		return
	}
	value := p.blk.Bytes[jb.valueAt:jb.valueEnd]
	base := p.start.Offset + int64(jb.valueAt)
	// The calls are read once, and handed on only when the whole value is
	// read without a problem (the block is otherwise one error).
	calls, msg, at := p.jsonCalls(value, base)
	if msg != "" {
		p.Errorf(syntax.CodeMalformed, p.start, span, raw, "%s block at %s: %s", opener, scan.Advance(p.start, raw[:jb.valueAt+at]), msg)
		return
	}
	pos, last := p.start, 0 // positions advance call by call: one pass over the block
	for _, e := range calls {
		k := int(e.Span.Start - p.start.Offset)
		pos, last = scan.Advance(pos, p.blk.Bytes[last:k]), k
		e.Pos = pos
		p.Emit(e)
		p.batch.Add(e.Name, p.start.Offset, e.Span.End) // the execute's span takes the block's opener
	}
	clear(calls)
	p.batch.Extend(end)
}

// jsonCalls reads the calls of a block's value (an object, or an array of
// objects). On a problem it returns a message and the offset within value
// it is about. The slice is the parser's, reused by the next block.
func (p *parser) jsonCalls(value []byte, base int64) (calls []syntax.Event, msg string, at int) {
	keys := *p.f.JSON
	calls = p.jb.calls[:0]
	defer func() { p.jb.calls = calls[:0] }()
	one := func(start int, what string) int {
		name, id, args, problem, end := jsoncall.ReadCallAt(value, start, keys)
		if problem != "" {
			msg, at = what+" "+problem, start
			return -1
		}
		calls = append(calls, syntax.Event{Type: syntax.Call, Name: p.names.Intern([]byte(name)), Args: args, ID: id,
			Span: syntax.Span{Start: base + int64(start), End: base + int64(end)}})
		return end
	}
	i := jsonscan.SkipSpace(value, 0)
	if value[i] == '{' {
		what := "the call"
		for n := 1; ; n++ {
			if p.f.Lines {
				what = "call " + strconv.Itoa(n)
			}
			end := one(i, what)
			if end < 0 {
				return calls, msg, at
			}
			if i = jsonscan.SkipSpace(value, end); i == len(value) {
				return calls, msg, at
			}
		}
	}
	n := 0
	jsonscan.EachElement(value, func(start int) int {
		n++
		return one(start, "element "+strconv.Itoa(n))
	})
	return calls, msg, at
}
