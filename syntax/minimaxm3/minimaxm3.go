package minimaxm3

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/invokexml"
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the minimaxm3 syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "minimaxm3",
	Aliases:     []string{"minimax-m3"},
	Description: `MiniMax M3: ]<]minimax[>[<tool_call>, <invoke name="N">, each parameter a tag of its own name, nested values as child tags and <item>s; <mm:think>`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"minimax-m3*", "*/minimax-m3*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"]<]minimax[>["}},
	},
}

const promptRules = `To call tools, wrap all invocations in one ]<]minimax[>[<tool_call> block; every tag is preceded by ]<]minimax[>[ and each parameter is a tag named after it:
]<]minimax[>[<tool_call>
]<]minimax[>[<invoke name="TOOL_NAME">]<]minimax[>[<PARAMETER>value]<]minimax[>[</PARAMETER>]<]minimax[>[</invoke>
]<]minimax[>[</tool_call>
- Values are written as they are, with no quotes or escapes. An object's members are tags of their own names inside the parameter; an array's elements are ]<]minimax[>[<item> tags.
- Several invokes in one block run together; stop after the block and wait for their results.
- Think inside <mm:think>...</mm:think> (optional). Text outside these tags is your answer to the user.`

// The markers. ns precedes every tag of a call.
const (
	ns         = "]<]minimax[>["
	openThink  = "<mm:think>"
	closeThink = "</mm:think>"
	openBlock  = ns + "<tool_call>"
	closeBlock = ns + "</tool_call>"
	invokeTag  = ns + "<invoke"
	invokeEnd  = ns + "</invoke>"
	leads      = "<]" // the bytes markers start with
)

var (
	invokeTags  = invokexml.Tags{Invoke: invokeTag} // the invoke's tag, as the invoke reader reads it
	textMarkers = []string{openThink, openBlock}
	callOpeners = []string{openBlock}
	wakeSet     = scan.Bytes(">[")
)

type state uint8

const (
	inText   state = iota
	inThink        // reasoning: explicit (<mm:think>) or opened by the prompt
	inBlock        // a block, between invokes
	inInvoke       // an invoke's bytes, up to its closer
)

type parser struct {
	scan.Core
	state state
	think markup.Think
	batch markup.Batch

	blockAt syntax.Pos // the open block's opener
	invokes int        // in the open block

	// The open invoke.
	start    syntax.Pos
	spanFrom int64 // where its error's span, or its batch's, starts: the block's opener for a block's first invoke
	name     string
	tagLen   int // the invoke tag's length, at the start of blk
	blk      scan.Block
	index    int         // token mode: the invoke's place among the message's invokes
	held     markup.Held // the last invoke's error, until the block's end
}

func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.think = markup.Think{Open: openThink, Close: closeThink, Leads: leads, Own: true}
	if p.think.Init(&p.Core, opts) {
		p.state = inThink
	}
	p.WakeOn(wakeSet)
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	if p.state == inBlock {
		p.WakeOn(nil) // between invokes, text ends the block at once
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
	case inBlock:
		return p.between(data, eof)
	case inInvoke:
		return p.invoke(data, eof)
	}
	m, n := p.think.Text(&p.Core, data, eof, textMarkers)
	if m != "" {
		p.Evident(p.Offset()) // every marker is the format's own token
	}
	switch m {
	case openThink:
		p.state = inThink
	case openBlock:
		p.EndRun()
		p.blockAt = p.Pos()
		p.invokes = 0
		p.state = inBlock
	}
	return n
}

// between reads a block between its invokes: white space, an invoke tag,
// the block's closer; anything else ends the block (its closer left out),
// an error when no invoke came.
func (p *parser) between(data []byte, eof bool) int {
	if i := markup.Spaces(data); i > 0 {
		return i
	}
	full, partial := scan.MatchPrefix(data, closeBlock)
	if full {
		p.held.Flush(&p.Core, p.Offset()+int64(len(closeBlock)))
		p.state = inText
		return len(closeBlock)
	}
	n, name := invokeTags.InvokeTag(data, eof)
	switch {
	case n > 0:
		p.openInvoke(name, data[:n])
		return n
	case (n < 0 || partial) && !eof:
		return 0
	}
	p.held.Flush(&p.Core, -1)
	p.state = inText
	if p.invokes == 0 {
		p.Errorf(syntax.CodeMalformed, p.blockAt, syntax.Span{Start: p.blockAt.Offset, End: p.Offset()}, []byte(openBlock),
			"%s is followed by text, not %s name=…>", openBlock, invokeTag)
	}
	return scan.Again
}

func (p *parser) openInvoke(name string, tag []byte) {
	p.held.Flush(&p.Core, -1)
	p.invokes++
	p.state = inInvoke
	p.start = p.Pos()
	p.spanFrom = p.start.Offset
	if p.invokes == 1 {
		p.spanFrom = p.blockAt.Offset
	}
	p.name = name
	p.tagLen = len(tag)
	p.blk.Reset()
	p.Keep(&p.blk, tag)
	if p.Options().Mode == syntax.TokenMode {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: p.index,
			Span: syntax.Span{Start: p.start.Offset, End: p.start.Offset + int64(len(tag))}})
	}
}

// invoke keeps an invoke's bytes up to its closer, then reads them.
func (p *parser) invoke(data []byte, eof bool) int {
	n, closed := markup.KeepUntil(&p.blk, p.Options().BlockLimit(), data, eof, invokeEnd)
	if closed {
		p.closeInvoke()
	}
	return n
}

// closeInvoke reads the whole invoke kept in blk: its call, or its error.
func (p *parser) closeInvoke() {
	p.state = inBlock
	p.index++
	span := syntax.Span{Start: p.start.Offset, End: p.start.Offset + p.blk.Len}
	errSpan := syntax.Span{Start: p.spanFrom, End: span.End}
	if p.blk.Over {
		p.held.Hold(&p.Core, p.start, syntax.CodeOverLimit, errSpan, nil, "%s name=%q> longer than the limit of %d bytes", invokeTag, p.name, p.Options().BlockLimit())
		return
	}
	raw := p.blk.Bytes
	body := raw[p.tagLen : len(raw)-len(invokeEnd)]
	args, at, problem := readArgs(body, p.Options().DepthLimit())
	if problem != "" {
		p.held.Hold(&p.Core, p.start, syntax.CodeMalformed, errSpan, raw, "%s name=%q> at %s: %s", invokeTag, p.name, scan.Advance(p.start, raw[:p.tagLen+at]), problem)
		return
	}
	p.batch.Add(p.spanFrom)
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, Args: args, Strings: !bytes.Equal(args, []byte("{}")), Pos: p.start, Span: span})
}

func (p *parser) finish(end int64) {
	p.held.Flush(&p.Core, -1)
	switch p.state {
	case inThink:
		p.think.Finish(&p.Core, end)
	case inBlock:
		if p.invokes == 0 {
			p.Errorf(syntax.CodeTruncated, p.blockAt, syntax.Span{Start: p.blockAt.Offset, End: end}, []byte(openBlock),
				"unterminated %s: the stream ended before any call", openBlock)
		}
	case inInvoke:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.spanFrom, End: end}, raw,
			"unterminated %s name=%q>: the stream ended before %s", invokeTag, p.name, invokeEnd)
	}
	p.batch.Execute(&p.Core, end)
}
