package kimik3

import (
	"bytes"
	"strings"

	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Syntax describes the kimik3 syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "kimik3",
	Aliases:     []string{"kimi-k3"},
	Description: `Kimi K3: <|open|>TAG attrs<|sep|> … <|close|>TAG<|sep|> channels (think, response, tools), <|open|>call tool="N"<|sep|> with typed <|open|>argument key="K" type="T"<|sep|>`,
	New:         newParser,
	Detect:      detect,
	Render:      newRenderer,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"kimi-k3*", "*/kimi-k3*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<|open|>", "<|close|>", "<|sep|>"}},
	},
}

const promptRules = `Write your answer in a response channel, then, to call tools, a tools channel with one call per tool, each argument tagged with its key and its JSON type:
<|open|>response<|sep|>Your answer to the user.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="TOOL_NAME" index="1"<|sep|><|open|>argument key="KEY" type="string"<|sep|>VALUE<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>
- A string argument's value is written as it is; any other type (number, boolean, null, object, array) as its JSON text. In an attribute, write & as &amp; and " as &quot;.
- The calls of one tools channel run together; stop after it and wait for their results.
- Think inside <|open|>think<|sep|>...<|close|>think<|sep|> (optional) before the response.`

// The markers: special tokens around a tag's name and attributes.
const (
	open      = "<|open|>"
	closeTok  = "<|close|>"
	sep       = "<|sep|>"
	endOfMsg  = "<|end_of_msg|>"
	leads     = "<"
	maxTag    = 4096 // bounds a tag's name and attributes
	callTag   = open + "call"
	callEnd   = closeTok + "call" + sep
	toolsEnd  = closeTok + "tools" + sep
	argTag    = open + "argument"
	argEnd    = closeTok + "argument" + sep
	jsonTag   = open + "json"
	jsonEnd   = closeTok + "json" + sep
	thinkEnd  = closeTok + "think" + sep
	thinkOpen = open + "think" + sep
)

// Markers read in text. The response channel's tags, the message's closer
// and the end of the message are dropped where they stand.
var (
	openResponse  = open + "response" + sep
	closeResponse = closeTok + "response" + sep
	openTools     = open + "tools" + sep
	closeMessage  = closeTok + "message" + sep
	dropped       = []string{openResponse, closeResponse, closeMessage, endOfMsg}
	textMarkers   = append([]string{thinkOpen, openTools}, dropped...)
	thinkEnders   = []string{openTools, openResponse} // end reasoning the prompt opened
	wakeSet       = scan.Bytes(">")
)

type state uint8

const (
	inText  state = iota
	inThink       // reasoning: explicit, or opened by the prompt
	inTools       // a tools channel, between calls
	inCall        // a call's bytes, up to its closer
)

type parser struct {
	scan.Core
	state state
	think markup.Think
	batch markup.Batch

	toolsAt syntax.Pos // the open tools channel's opener
	calls   int        // in the open tools channel

	// The open call.
	start    syntax.Pos
	spanFrom int64 // where its error's span, or its batch's, starts
	name     string
	tagLen   int
	blk      scan.Block
	index    int         // the call's place among the message's calls
	held     markup.Held // the last call's error, until the channel's end
}

func newParser(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &parser{}
	p.Init(h, opts, p.step, p.finish)
	p.think = markup.Think{Open: thinkOpen, Close: thinkEnd, Leads: leads, Own: true}
	if p.think.Init(&p.Core, opts) {
		p.state = inThink
	}
	p.WakeOn(wakeSet)
	return p
}

func (p *parser) step(data []byte, eof bool) int {
	n := p.stateStep(data, eof)
	if p.state == inTools {
		p.WakeOn(nil) // between calls, text ends the channel at once
	} else {
		p.WakeOn(wakeSet)
	}
	return n
}

func (p *parser) stateStep(data []byte, eof bool) int {
	switch p.state {
	case inThink:
		n, done := p.think.Step(&p.Core, data, eof, thinkEnders, nil)
		if done {
			p.state = inText
		}
		return n
	case inTools:
		return p.between(data, eof)
	case inCall:
		return p.call(data, eof)
	}
	m, n := p.think.Text(&p.Core, data, eof, textMarkers)
	if m != "" {
		p.Evident(p.Offset()) // every marker is the format's own token
	}
	switch m {
	case "":
	case thinkOpen:
		p.state = inThink
	case openTools:
		p.EndRun()
		p.toolsAt = p.Pos()
		p.calls = 0
		p.state = inTools
	default:
		p.EndRun() // a dropped marker: the text around it is runs of its own
	}
	return n
}

// between reads a tools channel between its calls: white space, a call's
// opening tag, the channel's closer; anything else ends the channel (its
// closer left out), an error when no call came.
func (p *parser) between(data []byte, eof bool) int {
	if i := markup.Spaces(data); i > 0 {
		return i
	}
	full, partial := scan.MatchPrefix(data, toolsEnd)
	if full {
		p.held.Flush(&p.Core, p.Offset()+int64(len(toolsEnd)))
		p.state = inText
		return len(toolsEnd)
	}
	n, attrs := tagAt(data, callTag, eof)
	switch {
	case n > 0 && attrs["tool"] != "":
		p.openCall(attrs["tool"], n)
		p.Keep(&p.blk, data[:n])
		return n
	case (n < 0 || partial) && !eof:
		return 0
	}
	p.held.Flush(&p.Core, -1)
	p.state = inText
	if p.calls == 0 {
		p.Errorf(syntax.CodeMalformed, p.toolsAt, syntax.Span{Start: p.toolsAt.Offset, End: p.Offset()}, []byte(openTools),
			"%s is followed by text, not %s tool=…%s", openTools, callTag, sep)
	}
	return scan.Again
}

// tagAt matches an opening tag at the start of data: prefix (open and a
// name), then attributes key="value" each after a space, then sep. It
// returns the tag's length and its attributes, XML-unescaped; 0 when data
// starts with no such tag; -1 when more input is needed.
func tagAt(data []byte, prefix string, eof bool) (int, map[string]string) {
	full, partial := scan.MatchPrefix(data, prefix)
	if !full {
		if partial && !eof {
			return -1, nil
		}
		return 0, nil
	}
	end := bytes.Index(data[len(prefix):min(len(data), maxTag)], []byte(sep))
	if end < 0 {
		if len(data) < maxTag && !eof {
			return -1, nil
		}
		return 0, nil
	}
	attrs, ok := readAttrs(data[len(prefix) : len(prefix)+end])
	if !ok {
		return 0, nil
	}
	return len(prefix) + end + len(sep), attrs
}

// readAttrs reads ` key="value"` pairs, and nothing else.
func readAttrs(b []byte) (map[string]string, bool) {
	attrs := map[string]string{}
	for len(b) > 0 {
		if b[0] != ' ' {
			return nil, false
		}
		b = b[1:]
		eq := bytes.Index(b, []byte(`="`))
		if eq <= 0 || bytes.ContainsAny(b[:eq], ` "<`) {
			return nil, false
		}
		key := string(b[:eq])
		b = b[eq+2:]
		q := bytes.IndexByte(b, '"')
		if q < 0 {
			return nil, false
		}
		if _, dup := attrs[key]; dup {
			return nil, false
		}
		attrs[key] = unescape(b[:q])
		b = b[q+1:]
	}
	return attrs, true
}

var entities = strings.NewReplacer("&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&")

// unescape decodes the entities the template writes in attributes (and
// the other three XML names).
func unescape(b []byte) string {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	return entities.Replace(string(b))
}

func (p *parser) openCall(name string, tagLen int) {
	p.held.Flush(&p.Core, -1)
	p.calls++
	p.state = inCall
	p.start = p.Pos()
	p.spanFrom = p.start.Offset
	if p.calls == 1 {
		p.spanFrom = p.toolsAt.Offset
	}
	p.name, p.tagLen = name, tagLen
	p.blk.Reset()
	if p.Options().Mode == syntax.TokenMode {
		p.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: name, Index: p.index,
			Span: syntax.Span{Start: p.start.Offset, End: p.start.Offset + int64(tagLen)}})
	}
}

// call keeps a call's bytes up to its closer, then reads them.
func (p *parser) call(data []byte, eof bool) int {
	n, closed := markup.KeepUntil(&p.blk, p.Options().BlockLimit(), data, eof, callEnd)
	if closed {
		p.closeCall()
	}
	return n
}

// closeCall reads the whole call kept in blk: its call, or its error.
func (p *parser) closeCall() {
	p.state = inTools
	p.index++
	span := syntax.Span{Start: p.start.Offset, End: p.start.Offset + p.blk.Len}
	errSpan := syntax.Span{Start: p.spanFrom, End: span.End}
	if p.blk.Over {
		p.held.Hold(&p.Core, p.start, syntax.CodeOverLimit, errSpan, nil, "call %q longer than the limit of %d bytes", p.name, p.Options().BlockLimit())
		return
	}
	raw := p.blk.Bytes
	body := raw[p.tagLen : len(raw)-len(callEnd)]
	args, at, problem := readArgs(body, p.Options().DepthLimit())
	if problem != "" {
		p.held.Hold(&p.Core, p.start, syntax.CodeMalformed, errSpan, raw, "call %q at %s: %s", p.name, scan.Advance(p.start, raw[:p.tagLen+at]), problem)
		return
	}
	p.batch.Add(p.spanFrom)
	p.Emit(syntax.Event{Type: syntax.Call, Name: p.name, Args: args, Pos: p.start, Span: span})
}

func (p *parser) finish(end int64) {
	p.held.Flush(&p.Core, -1)
	switch p.state {
	case inThink:
		p.think.Finish(&p.Core, end)
	case inTools:
		if p.calls == 0 {
			p.Errorf(syntax.CodeTruncated, p.toolsAt, syntax.Span{Start: p.toolsAt.Offset, End: end}, []byte(openTools),
				"unterminated %s: the stream ended before any call", openTools)
		}
	case inCall:
		var raw []byte
		if !p.blk.Over {
			raw = p.blk.Bytes
		}
		p.Errorf(syntax.CodeTruncated, p.start, syntax.Span{Start: p.spanFrom, End: end}, raw,
			"unterminated call %q: the stream ended before %s", p.name, callEnd)
	}
	p.batch.Execute(&p.Core, end)
}
