package native

import (
	"github.com/toolparse/toolparse/syntax"
)

// With Options.Content set, the text of the model's messages (content, not
// reasoning or refusals) is given to a parser of that syntax, one per
// message, and its events are native's: calls written as text beside the
// provider's own tool calls. Each of its events spans the documents its text
// came in. The text before a provider's call is read to
// its end when the call starts (what follows is a new text), so that events
// keep the stream's order. Each event the content parser gives has the
// span of the document whose text completed it (and an error its
// position); its execute is the message's one, which native writes when
// the message ends (its calls counted with the message's), and its end is
// the message's.

// TextDecoded takes a piece of text of the model's: respond text goes to
// the content syntax's parser when there is one.
func (p *parser) TextDecoded(t syntax.Type, content []byte, span syntax.Span) {
	cs := p.Options().Content
	if t != syntax.Respond || cs == nil {
		p.subStarted = p.subStarted || cs != nil // the message has output: reasoning the prompt opened is over
		p.Core.TextDecoded(t, content, span)
		return
	}
	p.Core.EndRun() // a thought before it ends
	if p.sub == nil {
		opts := p.Options()
		opts.Content = nil
		// Reasoning the prompt opened opens the message's first output
		// only (not text after a provider's reasoning or call).
		opts.ThinkOpen = opts.ThinkOpen && !p.subStarted && p.msg.emitted == 0
		p.sub, p.subStarted = cs.New(p.subEvent, opts), true
	}
	if !p.subOpen { // the first text since the last event: where the next event starts
		p.subOpen, p.subFrom, p.subFromPos = true, span.Start, p.docStart
	}
	p.subSpan, p.subPos = span, p.docStart
	p.sub.Write(content)
}

// subEvent takes an event of the content syntax's parser.
func (p *parser) subEvent(e syntax.Event) {
	switch e.Type {
	case syntax.End, syntax.Execute:
		return // the message's, which native writes
	case syntax.Call:
		if !e.Partial {
			p.subCalls++
		}
	}
	// From the document of the first text it came from to the one that
	// completed it; the next event starts at this one's last document.
	// (A fragment of token mode has its document's.)
	if e.Partial {
		e.Span, e.Pos = p.subSpan, p.subPos
	} else {
		e.Span, e.Pos = syntax.Span{Start: p.subFrom, End: p.subSpan.End}, p.subFromPos
		p.subFrom, p.subFromPos = p.subSpan.Start, p.subPos
	}
	if e.Type == syntax.Call && e.Partial {
		e.Index += 1 << 16 // apart from the provider's calls streaming at once
	}
	if p.msg.open() > 0 || len(p.subHeld) > 0 {
		// A provider's call before this text is not complete yet: this
		// waits for it, so that events keep the stream's order.
		p.subHeld = append(p.subHeld, e)
		return
	}
	p.Emit(e)
}

// releaseContent emits the content parser's events that waited for the
// provider's calls before them (see subEvent), once none is open.
func (p *parser) releaseContent() {
	if len(p.subHeld) == 0 || p.msg.open() > 0 {
		return
	}
	held := p.subHeld
	p.subHeld = nil
	for _, e := range held {
		p.Emit(e)
	}
}

// endContent closes the message's content parser, if it has one: what it
// holds is flushed, what it left open reported.
func (p *parser) endContent(span syntax.Span) {
	if p.sub == nil {
		return
	}
	p.subSpan = syntax.Span{Start: min(p.subSpan.Start, span.Start), End: max(p.subSpan.End, span.End)}
	p.sub.Close()
	p.sub, p.subOpen = nil, false
}
