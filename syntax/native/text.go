package native

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// A refusal is respond text with Refusal set. It is gathered as a run of its
// own beside the scanner's text runs, and emitted whole when the run ends
// (in token mode too: it streams no fragments).

// refuse adds a refusal's text, when raw is a string.
func (p *parser) refuse(raw []byte, span syntax.Span) {
	s, ok := jsonscan.Unquote(raw)
	if k := jsonscan.Kind(raw); !ok && k != 0 && k != 'n' {
		p.wrongValue("a refusal", k, '"')
	}
	if !ok || s == "" {
		return
	}
	p.Core.EndRun() // a text run before it ends
	p.msg.textLast = true
	if !p.refusing {
		p.refusing, p.refusalSpan = true, span
	} else if len(p.refusal)+len(s) > p.Options().BlockLimit() {
		p.flushRefusal() // a refusal longer than a block may hold is reported in pieces
		p.refusing, p.refusalSpan = true, span
	}
	p.refusal = append(p.refusal, s...)
	p.refusalSpan.End = span.End
}

// flushRefusal emits the refusal gathered, if any.
func (p *parser) flushRefusal() {
	if !p.refusing {
		return
	}
	p.refusing = false
	if content := bytes.TrimFunc(p.refusal, isSpaceRune); len(content) > 0 {
		p.Core.Emit(syntax.Event{Type: syntax.Respond, Content: string(content), Refusal: true, Span: p.refusalSpan})
	}
	p.refusal = p.refusal[:0]
}

func isSpaceRune(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// EndRun ends the open text run, or refusal.
func (p *parser) EndRun() {
	p.Core.EndRun()
	p.flushRefusal()
}

// Emit ends the open refusal, then emits e.
func (p *parser) Emit(e syntax.Event) {
	p.flushRefusal()
	p.Core.Emit(e)
}

// Errorf ends the open refusal, then emits an error.
func (p *parser) Errorf(code syntax.Code, pos syntax.Pos, span syntax.Span, raw []byte, format string, args ...any) {
	p.flushRefusal()
	p.Core.Errorf(code, pos, span, raw, format, args...)
}

// text emits a text value of a message, when it is a string.
func (p *parser) text(t syntax.Type, raw []byte, span syntax.Span) {
	// An empty string is no text: it must not end a run of the other kind
	// (Ollama's chunks carry "content":"" beside each thinking delta).
	// The string is decoded into the reused scratch buffer: the run copies
	// it (Unquote made a string of it, and the run a copy of that).
	if k := jsonscan.Kind(raw); k != '"' {
		if k != 0 && k != 'n' {
			p.wrongValue("a text value", k, '"')
		}
		return
	}
	if s := decode(&p.sText, raw); len(s) > 0 {
		p.flushRefusal()
		p.TextDecoded(t, s, span)
	}
}

// content reads a message's content: a string, or an array of typed parts
// (Mistral's text and thinking parts, OpenAI's text and refusal parts).
// Parts of a kind the parser cannot read are an unsupported error.
func (p *parser) content(raw []byte, span syntax.Span) {
	if jsonscan.Kind(raw) != '[' {
		p.text(syntax.Respond, raw, span)
		return
	}
	jsonscan.Elements(raw, func(e []byte, _ int) bool {
		part := p.object(e)
		if typ := part.s("type"); !p.textPart(typ, part, span) {
			p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a content part of type %q is not read", typ)
		}
		return true
	})
}

// thinking reads reasoning given as a string (Anthropic) or as an array of
// text parts (Mistral).
func (p *parser) thinking(raw []byte, span syntax.Span) {
	if jsonscan.Kind(raw) != '[' {
		p.text(syntax.Think, raw, span)
		return
	}
	jsonscan.Elements(raw, func(e []byte, _ int) bool {
		part := p.object(e)
		if typ := part.s("type"); typ != "text" {
			p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "a thinking part of type %q is not read", typ)
			return true
		}
		p.text(syntax.Think, part.get("text"), span)
		return true
	})
}

// textPart reads a part or block of text, thinking or refusal, the kinds
// that content-part arrays and Anthropic's content blocks share, and reports
// whether typ was one of them.
func (p *parser) textPart(typ string, part fields, span syntax.Span) bool {
	switch typ {
	case "text", "output_text":
		p.text(syntax.Respond, part.get("text"), span)
	case "thinking":
		p.thinking(part.get("thinking"), span)
		p.anthropicState(part, "signature", span)
	case "redacted_thinking":
		p.anthropicState(part, "data", span)
	case "refusal":
		p.refuse(part.get("refusal"), span)
	default:
		return false
	}
	return true
}
