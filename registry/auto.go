package registry

import (
	"strings"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// AutoName is the name under which Lookup answers with auto-detection.
const AutoName = "auto"

// Auto returns a syntax that decides, from the stream itself, which of the
// registry's syntaxes with a detector it is written in, and then parses it
// with that one. See the package documentation for the rule, what it
// guarantees, and where it can be wrong.
func (r *Registry) Auto() syntax.Syntax {
	return syntax.Syntax{
		Name:        AutoName,
		Description: "detect the syntax from the stream (the earliest evidence that only one syntax has)",
		New: func(h syntax.Handler, opts syntax.Options) syntax.Parser {
			if h == nil {
				panic("toolparse: a parser was made with a nil Handler")
			}
			a := &autoParser{h: h, opts: opts, window: opts.BlockLimit()}
			a.cands, a.fallback, a.fallbackAt = r.candidates(opts)
			return a
		},
		// Cut off where it ends, the input is read by the syntax chosen
		// for it, and complete where that one says it is.
		CompleteAt: func(input []byte) bool {
			// Only a syntax that says the input is complete can make it
			// so: when none does, no detection is needed.
			complete := false
			for _, s := range r.List() {
				if s.CompleteAt != nil && s.CompleteAt(input) {
					complete = true
					break
				}
			}
			if !complete {
				return false
			}
			s, ok := r.Detect(input)
			if !ok {
				_, s, _ = r.candidates(syntax.Options{})
			}
			return s.CompleteAt != nil && s.CompleteAt(input)
		},
	}
}

// candidate is a syntax with its detector and what it last reported.
type candidate struct {
	s  syntax.Syntax
	d  syntax.Detector
	ev syntax.Evidence
}

// candidates makes a detector for each syntax that has one, in the order
// of List (by name: the order that breaks ties), and returns them with the
// fallback syntax and its index among them (-1 when it has no detector).
func (r *Registry) candidates(opts syntax.Options) ([]candidate, syntax.Syntax, int) {
	list := r.List()
	r.mu.RLock()
	fallback, ok := r.byName[strings.ToLower(r.fallback)]
	r.mu.RUnlock()
	if !ok {
		panic("registry: auto-detection in a registry that holds no syntax")
	}
	var cands []candidate
	at := -1
	for _, s := range list {
		if s.Detect == nil {
			continue
		}
		if s.Name == fallback.Name {
			at = len(cands)
		}
		cands = append(cands, candidate{s: s, d: s.Detect(opts)})
	}
	return cands, fallback, at
}

// Detect returns the syntax that auto-detection chooses for the whole input
// (with the default block limit), and false when there is no evidence of any
// syntax in it.
func (r *Registry) Detect(input []byte) (syntax.Syntax, bool) {
	cands, _, _ := r.candidates(syntax.Options{})
	window := syntax.Options{}.BlockLimit()
	full := len(input) >= window
	look(cands, input[:min(len(input), window)], !full)
	i, ok := choose(cands, true)
	if !ok {
		return syntax.Syntax{}, false
	}
	return cands[i].s, true
}

// look gives every detector the input seen so far.
func look(cands []candidate, seen []byte, eof bool) {
	for i := range cands {
		cands[i].ev = cands[i].d.Look(seen, eof)
	}
}

// choose applies the rule to what the detectors last reported: the syntax
// whose confirmed evidence comes first, provided that no syntax has evidence
// pending before it, nor at the same place and earlier in the order. final
// says no more input will be looked at (the end of the input, or of the
// window): pending evidence then counts for nothing.
func choose(cands []candidate, final bool) (int, bool) {
	best, bestAt := -1, -1
	for i, c := range cands {
		at := c.ev.At
		if !final && c.ev.Pending >= 0 && (at < 0 || c.ev.Pending < at) {
			at = c.ev.Pending
		}
		if at >= 0 && (best < 0 || at < bestAt) {
			best, bestAt = i, at
		}
	}
	if best < 0 || cands[best].ev.At != bestAt {
		return -1, false // no evidence, or the earliest is still pending
	}
	return best, true
}

type autoParser struct {
	h          syntax.Handler
	opts       syntax.Options
	window     int // evidence is looked for in this many bytes at the start
	cands      []candidate
	fallback   syntax.Syntax
	fallbackAt int // the fallback's index in cands, or -1

	held   []byte        // the input so far, while undecided
	p      syntax.Parser // the chosen syntax's parser, once decided
	closed bool
	busy   bool // inside Write or Close: a call from the handler is refused

	// Token mode, while undecided: the prose that went out as respond
	// fragments.
	looked int  // bytes before looked were considered for streaming
	lead   bool // a byte that is not white space was streamed
	sent   int  // the fragments cover the input up to sent (0: none went out)
}

func (a *autoParser) Write(b []byte) (int, error) {
	if a.busy {
		return 0, syntax.ErrReentrant
	}
	if a.closed {
		return 0, syntax.ErrClosed
	}
	a.busy = true
	defer func() { a.busy = false }()
	if a.p != nil {
		return a.p.Write(b)
	}
	a.held = append(a.held, b...)
	a.step(false)
	return len(b), nil
}

func (a *autoParser) Close() error {
	if a.busy {
		return syntax.ErrReentrant
	}
	if a.closed {
		return nil
	}
	a.closed = true
	a.busy = true
	defer func() { a.busy = false }()
	if a.p == nil {
		a.step(true)
	}
	return a.p.Close()
}

// step looks at the input held so far, and decides if it can; if not, it
// streams, in token mode, the prose that every syntax reads as prose.
func (a *autoParser) step(eof bool) {
	full := len(a.held) >= a.window
	look(a.cands, a.held[:min(len(a.held), a.window)], eof && !full)
	final := eof || full
	if i, ok := choose(a.cands, final); ok {
		a.decide(a.cands[i].s)
	} else if final {
		a.decide(a.fallback)
	} else if a.opts.Mode == syntax.TokenMode {
		a.stream()
	}
}

// prose returns how many bytes at the start of the input every syntax that
// may still be chosen reads as prose.
func (a *autoParser) prose() int {
	if a.fallbackAt < 0 {
		return 0 // the fallback's reading of prose is not known
	}
	n := len(a.held)
	for i, c := range a.cands {
		if !c.ev.Never || i == a.fallbackAt {
			n = min(n, c.ev.Prose)
		}
	}
	// A run longer than the block limit is cut near it: stay clear of the
	// cut, so that the fragments streamed here belong to the first run.
	return min(n, a.window-utf8.UTFMax)
}

// stream sends the prose not sent yet as a respond fragment, from its first
// byte that is not white space, never cutting a UTF-8 character.
func (a *autoParser) stream() {
	end := a.prose()
	if end <= a.looked {
		return
	}
	start := a.looked
	if !a.lead {
		start = jsonscan.SkipSpace(a.held[:end], start)
		if start == end {
			a.looked = end
			return
		}
	}
	stop := start + scan.CompleteUTF8(a.held[start:end])
	if stop == start {
		return
	}
	a.lead, a.looked, a.sent = true, stop, stop
	a.h(syntax.Event{Type: syntax.Respond, Content: string(a.held[start:stop]), Partial: true,
		Span: syntax.Span{Start: int64(start), End: int64(stop)}})
}

// decide makes the parser of s and gives it the input held so far.
func (a *autoParser) decide(s syntax.Syntax) {
	h := a.h
	if a.sent > 0 {
		h = a.skipSent
	}
	a.p = s.New(h, a.opts)
	a.cands = nil // the detectors (parsers, each holding what it read) are done
	held := a.held
	a.held = nil
	a.p.Write(held)
}

// skipSent hands the chosen parser's events on, except its respond
// fragments for the text that went out already: its first run's fragments
// up to a.sent are dropped (one that straddles it is cut there). Its first
// event that is not such a fragment ends the filtering.
func (a *autoParser) skipSent(e syntax.Event) {
	if a.sent > 0 && e.Partial && e.Type == syntax.Respond && e.Span.Start < int64(a.sent) {
		if e.Span.End <= int64(a.sent) {
			return
		}
		k := int64(a.sent) - e.Span.Start
		if e.Span.Len() == int64(len(e.Content)) { // text copied from the input, byte for byte
			e.Content = e.Content[k:]
			e.Span.Start = int64(a.sent)
		}
	}
	a.sent = 0
	a.h(e)
}
