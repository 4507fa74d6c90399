package native

import (
	"github.com/toolparse/toolparse/syntax"
)

// With Options.Content set, the text of the model's messages (content, not
// reasoning or refusals) is given to a parser of that syntax, and its events
// are native's: calls written as text beside the provider's own tool calls.
//
//   - A message's text is read by one parser up to a provider's call, which
//     closes it (the text before the call is read to its end there), and by
//     a new one after it; reasoning the prompt opened opens only the
//     message's first output.
//   - Each of its events spans the documents its text came in (a fragment
//     of token mode, its own document), and an error has the position of
//     the first.
//   - Its events wait for a provider's call that came before them and is
//     not complete yet (a call completes at its block's or its message's
//     end), so that the events keep the stream's order — up to MaxBlock:
//     events that would take what waits over it go out at once, before the
//     call (out of order, nothing lost, memory bounded).
//   - Its execute and end are the message's: native writes one execute for
//     the message's calls, its own and the text's.

// contentText is the reading of a message's text in the content syntax.
type contentText struct {
	p         syntax.Parser // the parser of the text since the message's start or its last provider call
	calls     int           // the calls the message's text gave
	started   bool          // the message had output: reasoning the prompt opened is over
	held      []heldEvent   // events that wait for a provider's call before them
	heldBytes int           // what they cost, against MaxBlock
	open      bool          // text came since the last event
	from      int64         // where the next event starts
	fromPos   syntax.Pos
	last      syntax.Span // the document that gave text last
	lastPos   syntax.Pos  // where it starts
}

// heldEvent is an event of the text that waits for the provider's calls
// before it: the first after of the message's calls.
type heldEvent struct {
	e     syntax.Event
	after int
}

// TextDecoded takes a piece of text of the model's: respond text goes to
// the content syntax's parser when there is one.
func (p *parser) TextDecoded(t syntax.Type, content []byte, span syntax.Span) {
	p.msg.textLast = p.msg.textLast || len(content) > 0
	cs := p.Options().Content
	if t != syntax.Respond || cs == nil {
		p.ct.started = p.ct.started || cs != nil
		p.Core.TextDecoded(t, content, span)
		return
	}
	p.Core.EndRun() // a thought before it ends
	ct := &p.ct
	if ct.p == nil {
		opts := p.Options()
		opts.Content = nil
		opts.ThinkOpen = opts.ThinkOpen && !ct.started && p.msg.emitted == 0
		ct.p, ct.started = cs.New(p.contentEvent, opts), true
	}
	if !ct.open {
		ct.open, ct.from, ct.fromPos = true, span.Start, p.docStart
	}
	ct.last, ct.lastPos = span, p.docStart
	ct.p.Write(content)
}

// contentEvent takes an event of the content syntax's parser.
func (p *parser) contentEvent(e syntax.Event) {
	ct := &p.ct
	switch e.Type {
	case syntax.End, syntax.Execute:
		return // the message's, which native writes
	case syntax.Call:
		if e.Partial {
			e.Index += 1 << 16 // apart from the provider's calls streaming at once
		} else {
			ct.calls++
		}
	}
	if e.Partial {
		e.Span, e.Pos = ct.last, ct.lastPos
	} else {
		e.Span, e.Pos = syntax.Span{Start: ct.from, End: ct.last.End}, ct.fromPos
		ct.from, ct.fromPos = ct.last.Start, ct.lastPos
	}
	if len(ct.held) > 0 || p.firstOpen() < p.msg.seen {
		cost := heldCost(e)
		if ct.heldBytes+cost <= p.Options().BlockLimit() {
			ct.held = append(ct.held, heldEvent{e, p.msg.seen})
			ct.heldBytes += cost
			return
		}
		p.releaseAll() // over the limit: out of order, not kept
	}
	p.Emit(e)
}

// heldCost is what a held event costs against MaxBlock: its text and 64
// bytes for its record.
func heldCost(e syntax.Event) int {
	return 64 + len(e.Content) + len(e.Name) + len(e.Args) + len(e.ID) + len(e.Delta) + len(e.Value) + len(e.Message)
}

// firstOpen is the index of the message's first call not complete yet, or
// the number of its calls when every one is.
func (p *parser) firstOpen() int {
	first := p.msg.seen
	if p.msg.open() > 0 {
		for _, c := range p.msg.calls {
			if !c.done {
				first = min(first, c.index)
			}
		}
	}
	return first
}

// endContent closes the content syntax's parser, if there is one: what it
// holds is flushed, what it left open reported.
func (p *parser) endContent(span syntax.Span) {
	ct := &p.ct
	if ct.p == nil {
		return
	}
	ct.last = syntax.Span{Start: min(ct.last.Start, span.Start), End: max(ct.last.End, span.End)}
	ct.p.Close()
	ct.p, ct.open = nil, false
}

// releaseHeld emits, in order, the events whose provider calls before them
// are complete.
func (p *parser) releaseHeld() {
	first := p.firstOpen()
	n := 0
	for n < len(p.ct.held) && p.ct.held[n].after <= first {
		n++
	}
	p.emitHeld(n)
}

// releaseAll emits every held event, in order, whatever calls are open.
func (p *parser) releaseAll() { p.emitHeld(len(p.ct.held)) }

// emitHeld emits the first n held events.
func (p *parser) emitHeld(n int) {
	held := p.ct.held[:n]
	p.ct.held = p.ct.held[n:]
	for _, h := range held {
		p.ct.heldBytes -= heldCost(h.e)
		p.Emit(h.e)
	}
	if len(p.ct.held) == 0 {
		p.ct.held, p.ct.heldBytes = nil, 0
	}
}

// contentDone ends the message's text, once its provider calls are
// complete: the events that waited for them are emitted, and it returns
// the calls the text gave.
func (p *parser) contentDone() int {
	p.releaseHeld()
	calls := p.ct.calls
	p.ct = contentText{}
	return calls
}
