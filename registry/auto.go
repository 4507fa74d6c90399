package registry

import (
	"sort"

	"github.com/toolparse/toolparse/syntax"
)

// AutoName is the name under which Lookup answers with auto-detection.
const AutoName = "auto"

// Auto returns a syntax that decides, from the stream itself, which of the
// registry's syntaxes it is written in, and then parses it with that one.
//
// The rule: each syntax with a detector reports the offset of its earliest
// marker that only it has (xmljson's <think> or <execute>, caret's ^^^NAME
// line, delimiter's §call:, xmltag's <tool:NAME>, native's leading JSON or
// SSE "data:" line); the syntax whose evidence comes first wins. Markers may
// come after any amount of prose, so until there is evidence the input is
// held back, neither lost nor reordered, and then replayed to the chosen
// parser: the events are exactly those of that syntax. Input with no
// evidence at all is prose to every syntax; it is parsed as xmljson (the
// default, which gives the same events). Evidence is looked for in at most
// Options.BlockLimit bytes: a longer stretch with none is parsed as xmljson
// from there on.
//
// Where it can be wrong: prose that quotes another syntax's marker before
// the real ones (a delimiter transcript whose preamble writes "<execute>")
// picks the quoted syntax; a transcript whose first non-blank byte is "{"
// is taken for provider JSON.
func (r *Registry) Auto() syntax.Syntax {
	return syntax.Syntax{
		Name:        AutoName,
		Description: "detect the syntax from the stream (the earliest marker only one syntax has)",
		New: func(h syntax.Handler, opts syntax.Options) syntax.Parser {
			if h == nil {
				panic("toolparse: a parser was made with a nil Handler")
			}
			var cands []syntax.Syntax
			for _, s := range r.List() {
				if s.Detect != nil {
					cands = append(cands, s)
				}
			}
			return &autoParser{h: h, opts: opts, cands: cands, fallback: r.fallback()}
		},
	}
}

func (r *Registry) fallback() syntax.Syntax {
	if s, err := r.Lookup("xmljson"); err == nil {
		return s
	}
	return r.List()[0]
}

// Detect returns the syntax the registry's detectors find in input, and
// false when there is no evidence.
func (r *Registry) Detect(input []byte) (syntax.Syntax, bool) {
	cands := r.List()
	s, at := detect(cands, input, 0, true)
	return s, at >= 0
}

func detect(cands []syntax.Syntax, seen []byte, from int, eof bool) (syntax.Syntax, int) {
	type hit struct {
		s  syntax.Syntax
		at int
	}
	var hits []hit
	for _, s := range cands {
		if s.Detect == nil {
			continue
		}
		if at := s.Detect(seen, from, eof); at >= 0 {
			hits = append(hits, hit{s, at})
		}
	}
	if len(hits) == 0 {
		return syntax.Syntax{}, -1
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].at < hits[j].at })
	return hits[0].s, hits[0].at
}

type autoParser struct {
	h        syntax.Handler
	opts     syntax.Options
	cands    []syntax.Syntax
	fallback syntax.Syntax
	held     []byte
	p        syntax.Parser
	closed   bool
}

func (a *autoParser) Write(b []byte) (int, error) {
	if a.closed {
		return 0, syntax.ErrClosed
	}
	if a.p != nil {
		return a.p.Write(b)
	}
	from := len(a.held)
	a.held = append(a.held, b...)
	if s, at := detect(a.cands, a.held, from, false); at >= 0 {
		a.decide(s)
	} else if len(a.held) > a.opts.BlockLimit() {
		a.decide(a.fallback)
	}
	return len(b), nil
}

func (a *autoParser) decide(s syntax.Syntax) {
	a.p = s.New(a.h, a.opts)
	held := a.held
	a.held = nil
	a.p.Write(held)
}

func (a *autoParser) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	if a.p == nil {
		s, at := detect(a.cands, a.held, 0, true)
		if at < 0 {
			s = a.fallback
		}
		a.decide(s)
	}
	return a.p.Close()
}
