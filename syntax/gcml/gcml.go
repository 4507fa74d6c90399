package gcml

import (
	"bytes"
	"io"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
	"github.com/toolparse/toolparse/syntax/wire"
)

// Syntax describes the gcml syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "gcml",
	Aliases:     []string{"gigachat3.5", "gigachat35"},
	Description: `Sber GigaChat 3.5's GCML: <｜GCML｜tool_calls>, <｜GCML｜invoke name="N">, typed <｜GCML｜parameter name="K" string="true|false">; <think>`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	// Models: see registry.ForModel. No GigaChat 3.5 chat template is in
	// the set the tests read.
	Models: []string{"gigachat3.5*", "*/gigachat3.5*", "gigachat-3.5*", "*/gigachat-3.5*"},
}

const promptRules = `To call tools, write a <｜GCML｜tool_calls> block holding one invoke per call:
<｜GCML｜tool_calls><｜GCML｜invoke name="TOOL_NAME"><｜GCML｜parameter name="KEY" string="true">VALUE</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>
- A string value is written as it is with string="true"; any other value (number, boolean, array, object) as its JSON text with string="false".
- The invokes of one block run together; stop after it and wait for their results.
- Think inside <think>...</think> (optional). Text outside these tags is your answer to the user.`

// The markers. ｜ is U+FF5C, three bytes in UTF-8.
const (
	openThink  = "<think>"
	closeThink = "</think>"
	openCalls  = "<｜GCML｜tool_calls>"
	closeCalls = "</｜GCML｜tool_calls>"
)

var (
	textMarkers = []string{openThink, openCalls}
	callOpeners = []string{openCalls}
	tags        = invokexml.Tags{Syntax: "gcml", Invoke: "<｜GCML｜invoke", InvokeEnd: "</｜GCML｜invoke>", Param: "<｜GCML｜parameter", ParamEnd: "</｜GCML｜parameter>", SectionEnd: closeCalls, Typed: true}
	wakeSet     = scan.Bytes(">")
)

type state uint8

const (
	inText  state = iota
	inThink       // reasoning: explicit, or opened by the prompt
	inCalls       // a <｜GCML｜tool_calls> section (invokexml)
)

type parser struct {
	scan.Core
	state state
	think markup.Think
	calls invokexml.Reader
	batch markup.Batch
}

func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.calls.Init(&p.Core, tags)
	p.calls.OnCall = func(_ string, from int64) { p.batch.Add(from) }
	p.think = markup.Think{Open: openThink, Close: closeThink, Leads: "<"}
	if p.think.Init(&p.Core, opts) {
		p.state = inThink
	}
	p.WakeOn(wakeSet)
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	if p.state == inCalls && p.calls.Between() {
		p.WakeOn(nil) // between invokes, text ends the section at once
	} else {
		p.WakeOn(wakeSet)
	}
	return n
}

func (p *parser) stateStep(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		n, done := p.think.Step(&p.Core, data, eof, callOpeners, nil)
		if done {
			p.state = inText
		}
		return n
	case inCalls:
		n, done := p.calls.Step(data, eof)
		if done {
			p.state = inText
			if n == 0 {
				return scan.Again
			}
		}
		return n
	}
	m, n := p.think.Text(&p.Core, data, eof, textMarkers)
	switch m {
	case openThink:
		p.state = inThink
	case openCalls:
		p.EndRun()
		p.calls.Open(m, closeCalls, p.Pos())
		p.state = inCalls
	}
	return n
}

func (p *parser) finish(end int64) {
	switch p.state {
	case inThink:
		p.think.Finish(&p.Core, end)
	case inCalls:
		p.calls.Finish(end)
	}
	p.batch.Execute(&p.Core, end)
}

// detect makes the detector: every marker but <think> is GCML's own, and
// the section's opener is the evidence.
func detect(opts syntax.Options) syntax.Detector {
	return markup.OwnMarkers(callOpeners, opts.ThinkOpen)
}

// newRenderer returns a renderer that writes thoughts in <think> (with
// Options.ThinkOpen, the first without its opener), text as it is, and each
// batch of calls as one <｜GCML｜tool_calls> section of typed invokes, each
// parsed back before it is written. It cannot carry (and says so): ids,
// results (GigaChat's come in messages of their own), text or a thought
// holding a marker, and calls with no execute.
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("gcml", &units{Turn: markup.NewTurn("gcml", w, opts, closeThink), implicit: opts.ThinkOpen})
}

type units struct {
	markup.Turn
	implicit bool // Options.ThinkOpen
}

func cannot(format string, args ...any) error { return wire.CannotCarry("gcml", format, args...) }

func (u *units) Text(t syntax.Type, s string) error {
	err := u.TextAfter(t)
	if t == syntax.Think {
		implicit := u.Think.Begin(u.W, true)
		if u.implicit && !implicit {
			return cannot("a thought after the reasoning the prompt opened; not written")
		}
		if m := markup.WriteThought(u.W, s, implicit, openThink, closeThink, callOpeners); m != "" {
			return cannot("a thought holding %s; not written", m)
		}
		return err
	}
	u.Think.Begin(u.W, false)
	if m := markup.HoldsMarker(s, textMarkers); m != "" {
		return cannot("text holding %s; not written", m)
	}
	u.W.WriteString(s + "\n")
	return err
}

func (u *units) Calls(calls []syntax.Event) error {
	var first error
	note := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	note(u.AddCalls(len(calls)))
	u.Think.Begin(u.W, false)
	u.W.WriteString(openCalls)
	for _, c := range calls {
		if c.ID != "" {
			note(cannot("the id %q of call %s (GCML calls have no ids): not written", c.ID, c.Name))
		}
		var b bytes.Buffer
		tags.WriteTyped(&b, c)
		if !invokexml.RoundTrips(newParser, []byte(openCalls), b.Bytes(), []byte(closeCalls), c) {
			note(cannot("call %s: its name or values do not survive the GCML form", c.Name))
		}
		u.W.Write(b.Bytes())
	}
	u.W.WriteString(closeCalls + "\n")
	return first
}
