package tagcall

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Tags is a block's opener and closer.
type Tags struct{ Open, Close string }

// Format describes one tag-marked format. Its methods are the syntax's
// parser, detector and renderer; a format's package puts them in its
// syntax.Syntax beside its name, models and prompt rules.
type Format struct {
	// Name is the syntax's name, for the renderer's messages.
	Name string

	// Think is the reasoning block: nothing inside it is a marker. With
	// Options.ThinkOpen the output starts inside it, and a call opener
	// ends it as Think.Close does.
	Think Tags
	// Result is a tool result: its content, less one line end after the
	// opener and one before the closer, is the result of the call at its
	// position in the last batch. A format whose results come in messages
	// of their own leaves it empty (and its renderer cannot write results).
	Result Tags
	// Scope wraps a call: <tool_call>…</tool_call>. A format with no
	// Scope, no Function and no JSON has no call form: it reads reasoning
	// and text only (Kimi-VL), and its renderer writes no call.
	Scope Tags

	// Function, when set, names the call in a tag of its own inside Scope:
	// Function.Open, the name (1 to MaxName bytes, no '<' and no line end),
	// '>'; Function.Close ends the call's body, and Scope.Close may follow
	// it after white space. A Scope.Open followed by anything but white
	// space and Function.Open is text (another format's call).
	//
	// When Function is empty the name follows Scope.Open (after white
	// space) as a word (1 to MaxName bytes, no white space, none of
	// <>{}[]"'), ended by a line end, Param.Open or Scope.Close after
	// optional spaces; Scope.Close ends the call.
	Function Tags
	// NameEnd, when set, ends the name in the Function tag in place of
	// '>' (MiniCPM5's <function name="NAME">: `">`); the renderer writes it.
	NameEnd string
	// NameClose, when set, may end a word name: after the name and
	// optional spaces it is taken in, and the body starts after it (Hy3's
	// <tool_call>NAME<tool_sep>; Hy v4 writes none). The renderer writes
	// it.
	NameClose string
	// Bare says a Function tag opens a call without Scope when white space
	// and then Param.Open or Function.Close follow it (anything else makes
	// it text: Llama 3.1 writes <function=NAME>{JSON}</function>). With
	// Scope empty, calls have no wrapper at all (MiniCPM5).
	Bare bool

	// Param is how the call's arguments are written.
	Param Param

	// Invoke, when set, makes calls invoke elements, several in a section,
	// and results a block of elements ([Invoke]: MiniMax-M2's form); of the
	// other fields only Name, Think, Own and Drop are read.
	Invoke *Invoke

	// Token, when set, makes calls special tokens around a header (an id,
	// a name) and JSON arguments, in sections ([Token]: Kimi K2's and DeepSeek's form); of
	// the other fields only Name, Think, ThinkCalls and ThinkOnce are
	// read.
	Token *Token
	// ThinkOnce says, for the token form, that the reasoning the prompt
	// opened (Options.ThinkOpen) is the output's one reasoning block:
	// after it Think.Open is text, as in the invoke form (DeepSeek R1's
	// rule). Without it a later Think.Open opens another thought.
	ThinkOnce bool

	// JSON, when set, makes a call block hold JSON in place of a name and
	// parameters: after Scope.Open and white space, an object (one call) or
	// an array of call objects, their members named by *JSON; then white
	// space and Scope.Close — or, with Scope.Close empty, the value's end
	// ends the block (Granite 3's <|tool_call|>[…]). Scope.Open followed by
	// anything else is text. Function is then unused; Param, when set,
	// gives a second form (LongCat's): Scope.Open, a word name and its
	// parameters, as when Function is empty — a block whose first byte
	// after white space is '{' or '[' is JSON, one that starts with a
	// word is a named call. The renderer writes the JSON form.
	JSON *jsoncall.Keys
	// EndCloses says the end of the input may stand for Scope.Close after
	// a complete JSON value, white space aside: the closer is a stop token
	// the server consumed (Apertus's <|tools_suffix|>). A value cut off is
	// still a truncated call.
	EndCloses bool
	// ThinkCalls says a call opener in explicit reasoning ends it, as in
	// reasoning the prompt opened (Apertus calls from inside its
	// reasoning).
	ThinkCalls bool
	// Openers are other spellings of Scope.Open, for the JSON form
	// (GigaChat 3's turn header beside 3.1's token): each opens a block as
	// Scope.Open does; the renderer writes Scope.Open.
	Openers []string
	// Lines says a JSON block may hold several call objects one after the
	// other, white space between them (MiniMax M1's JSON lines), besides
	// one object or one array.
	Lines bool
	// Object says a JSON block holds one call object, never an array:
	// Scope.Open followed by '[' is text, and the renderer writes each call
	// in a block of its own, the object on a line between the tags
	// (Hermes's <tool_call>).
	Object bool
	// ResultJSON says a Result block's content, white space around it
	// aside, is the JSON value it holds when it holds exactly one, else its
	// text (Qwen's <tool_response>); the renderer writes a value as its
	// JSON text. Without it the content is text, less one line end after
	// the opener and one before the closer.
	ResultJSON bool

	// Drop are markers dropped where they stand in text, the text around
	// them kept: the tags some formats write around their answer (Command
	// R7B's <|START_RESPONSE|> and <|END_RESPONSE|>) and end-of-turn tokens
	// that reach the output. They are the format's own tokens: each is
	// evidence of it.
	Drop []string

	// Header, when set, opens a message header (Inkling's
	// <|message_model|>), as the start of the output does when the prompt
	// does not open reasoning: a word right after it (1 to MaxName bytes,
	// no white space, no marker) that a kind marker follows — Think.Open,
	// a call opener, one of Kinds — is the message's author or the tool it
	// calls, not text; followed by anything else (white space, another
	// marker, the end of the input) it is text. The word is a name's:
	// none of white space and <>{}[]"'. Header is dropped where it
	// stands, as Drop's markers are. A word-named call, and a bare Function
	// tag, take no header: the word before them is text.
	Header string
	// Kinds are the markers that say what a message holds besides
	// reasoning and a call (Inkling's <|content_text|>): each ends a
	// header and is dropped where it stands, the text after it kept.
	Kinds []string

	// SharedCalls says the call block is another format's too (Apriel's
	// <tool_calls>[…] is Hunyuan's): it is no evidence of this one, whose
	// own markers (OwnThink, Drop) are.
	SharedCalls bool

	// OwnThink says the Think tags are no other format's, so that each is
	// evidence of this one by itself, though Scope is shared (Apriel's
	// [BEGIN FINAL RESPONSE] beside <tool_calls>).
	OwnThink bool

	// OwnScope says Scope.Open is no other format's, so that it is
	// evidence of this one by itself, though Think is shared (Nemotron's
	// <TOOLCALL> beside <think>).
	OwnScope bool

	// Reopens says Scope.Open never stands inside a call (the format's
	// tags are special tokens no value holds, Solar Open 2's): inside a
	// call's body it ends the call, an error (its closer missing), and
	// opens the next, where the value closer rule would read it as part of
	// a value. It is ignored with Param.CDATA (a CDATA value may hold
	// any tag).
	Reopens bool

	// Own says the Think and Scope tags are no other format's, so that
	// each is evidence of this one by itself (Seed's <seed:think> and
	// <seed:tool_call>; <think> and <tool_call> are everyone's, and a
	// format that shares them is evidenced only by a call opener it alone
	// reads).
	Own bool
}

// Param is a format's parameter tags: Open KEY KeyClose [ ValueOpen ]
// VALUE Close. The value is raw text, read by the rule of [Reader].
type Param struct {
	Open     string // what a parameter's open tag starts with: "<parameter=", "<arg_key>"
	KeyClose string // what ends its key: ">", "</arg_key>"
	// ValueOpen, when set, opens the value after KeyClose and optional
	// white space: "<arg_value>". A key is then anything but empty; without
	// it a key holds no '<'.
	ValueOpen string
	Close     string // the value closer: "</parameter>", "</arg_value>"
	// TrimNewline drops one "\n" at the start and one at the end of values
	// (and the renderer writes each value between newlines).
	TrimNewline bool
	// NewlineEndsKey takes a line end for KeyClose when the model dropped
	// it (the line end is then the value's first); for a key in the tag
	// only (Qwen3-Coder: mlx-lm PR #1881).
	NewlineEndsKey bool
	// CDATA says a value may be an XML CDATA section,
	// <![CDATA[…]]>: its content, verbatim, is the value (no closer inside
	// it ends the value or the call), and only white
	// space may stand between its ]]> and Close (MiniCPM5's template wraps
	// values holding '<', '&' or a line end). The renderer writes those
	// values so.
	CDATA bool
}

// MaxName bounds a call's name; a longer one is no name.
const MaxName = 256

// MaxKey bounds the bytes of a parameter's open tag after Open: a key that
// has not ended within it is no key, so that a tag cut across chunks is
// never read again at length.
const MaxKey = 1024

// maxOpener bounds the white space after a Scope.Open (and after a word
// name) that is looked at before the opener is decided.
const maxOpener = 512

// readKey reads the rest of a parameter's open tag, the bytes after Open.
// It returns how many bytes the rest of the tag takes (n > 0), the value
// starting after them, and the key's offset and length within rest; n == 0
// when rest is no open tag; n < 0 when rest ends before that can be told
// and more may come (never when final).
func (f *Param) readKey(rest []byte, final bool) (n, keyAt, keyLen int) {
	if f.ValueOpen != "" {
		return f.keyThenValue(rest, final)
	}
	return f.keyInTag(rest, final)
}

// keyInTag reads "KEY>" (KeyClose ">"), KEY not empty, with no '<' but
// KeyClose's own and no line end; with NewlineEndsKey a line end also ends
// it.
func (f *Param) keyInTag(rest []byte, final bool) (n, keyAt, keyLen int) {
	for i, c := range rest {
		if i >= MaxKey {
			return 0, 0, 0
		}
		full, partial := scan.MatchPrefix(rest[i:], f.KeyClose)
		switch {
		case full && i > 0:
			return i + len(f.KeyClose), 0, i
		case c == '<' && !partial:
			return 0, 0, 0 // a '<' that does not start KeyClose (Solar Open 2's <|tool_arg:value|> does)
		case c == '\n' && i > 0 && f.NewlineEndsKey:
			return i, 0, i
		case c == '\r' && i > 0 && f.NewlineEndsKey && i+1 < len(rest) && rest[i+1] == '\n':
			return i, 0, i // a CRLF line end
		case c == '\r' && f.NewlineEndsKey && i+1 == len(rest) && !final:
			return -1, 0, 0 // a CR at the end: its LF may follow
		case full || c == '\n' || c == '\r':
			return 0, 0, 0
		case partial:
			if final {
				return 0, 0, 0
			}
			return -1, 0, 0
		}
	}
	if final {
		return 0, 0, 0
	}
	return -1, 0, 0
}

// keyThenValue reads "KEY</arg_key>", white space, then "<arg_value>". KEY
// is anything but empty (Ollama keeps "param<1>").
func (f *Param) keyThenValue(rest []byte, final bool) (n, keyAt, keyLen int) {
	lim := rest[:min(len(rest), MaxKey)]
	i := bytes.Index(lim, []byte(f.KeyClose))
	if i < 0 {
		if final || len(rest) > MaxKey || bytes.Contains(lim, []byte(f.ValueOpen)) {
			return 0, 0, 0
		}
		return -1, 0, 0
	}
	if i == 0 || bytes.Contains(lim[:i], []byte(f.ValueOpen)) {
		// An empty key, or the value's opener before the key's closer (the
		// key's closer left out): the same error however the bytes came.
		return 0, 0, 0
	}
	j := i + len(f.KeyClose)
	j += skipWS(rest[j:])
	full, partial := scan.MatchPrefix(rest[j:], f.ValueOpen)
	switch {
	case full:
		return j + len(f.ValueOpen), 0, i
	case (partial || j == len(rest)) && !final:
		return -1, 0, 0
	}
	return 0, 0, 0
}

// write writes one parameter as the renderer does.
func (f *Param) write(b *bytes.Buffer, k, v string) {
	b.WriteString(f.Open + k + f.KeyClose)
	if f.ValueOpen != "" {
		b.WriteString("\n" + f.ValueOpen)
	}
	if f.CDATA && strings.ContainsAny(v, "<&\n") && !strings.Contains(v, cdataClose) {
		v = cdataOpen + v + cdataClose
	} else if f.TrimNewline {
		v = "\n" + v + "\n"
	}
	b.WriteString(v + f.Close + "\n")
}

// The tags of a CDATA section (Param.CDATA).
const (
	cdataOpen  = "<![CDATA["
	cdataClose = "]]>"
)

// New returns a parser of the format that sends its events to h.
func (f *Format) New(h syntax.Handler, opts syntax.Options) syntax.Parser {
	if f.Invoke != nil {
		return newInvokeParser(f, h, opts)
	}
	if f.Token != nil {
		return newTokenParser(f, h, opts)
	}
	return newParser(f, h, opts)
}

// Detect makes the format's detector (see syntax.Detector): the format's
// parser, run by scan.NewDetector. Its evidence is a call opener where the
// parser decides on it (a shared Scope.Open followed by the format's own
// form), unless SharedCalls, and the format's own markers (Own, OwnThink,
// OwnScope, Drop); nothing inside a reasoning or result block is evidence.
// A shared marker the parser reads as text (another format's call) is
// prose to it.
func (f *Format) Detect(opts syntax.Options) syntax.Detector {
	return scan.NewDetector(f.New, opts)
}

// Render returns a renderer that writes events in the format: thoughts as
// Think blocks, text as plain lines, each call as a Scope block with one
// Param per value (an array as the key repeated), results as Result blocks.
// With Options.ThinkOpen the prompt opened the reasoning: a first thought
// is written without Think.Open, and output that starts otherwise starts
// with Think.Close. Each call is parsed back before it is written, to make
// sure it gives exactly its call; what the form cannot carry is reported
// (values that are not strings, arrays of fewer than two items, a value
// holding a closer the reader would take for its end, two batches with no
// results between them, results with a failure status or whose tool is not
// the call at their position, text holding a marker).
func (f *Format) Render(w io.Writer, opts syntax.Options) syntax.Renderer {
	if f.Invoke != nil {
		return newInvokeRenderer(w, opts, f)
	}
	if f.Token != nil {
		return newTokenRenderer(w, opts, f)
	}
	return newRenderer(w, opts, f)
}

// derived is what the parser derives from a Format: its marker lists and
// the bytes they start and end with.
type derived struct {
	textMarkers, thinkMarkers, openers, drops, kinds []string
	leads                                            string
	wake                                             *scan.ByteSet
	tok                                              *tkDerived    // the token form's, for a Format with Token
	ivWake                                           *scan.ByteSet // the invoke form's: the bytes its markers and tags end with
}

// derivedOf caches each Format's derived values (a *Format → *derived): a
// detector makes a parser for every stream auto-detection reads, and a
// Format is not changed once in use.
var derivedOf sync.Map

// derive returns the Format's derived values.
func (f *Format) derive() *derived {
	if d, ok := derivedOf.Load(f); ok {
		return d.(*derived)
	}
	d := &derived{textMarkers: f.textMarkers(), thinkMarkers: f.thinkMarkers(), openers: f.callOpeners(), drops: f.drops(), kinds: f.kinds()}
	d.leads, d.wake = f.leadAndWake()
	if f.Token != nil {
		d.tok = deriveToken(f)
	}
	if f.Invoke != nil {
		v := f.Invoke
		ends := v.tagEnds()
		for _, m := range append(v.textMarkers(f), f.Think.Close, v.Results.Close) {
			if m != "" {
				ends += m[len(m)-1:]
			}
		}
		d.ivWake = scan.Bytes(ends)
	}
	v, _ := derivedOf.LoadOrStore(f, d)
	return v.(*derived)
}

// callOpeners are what opens a call: Scope.Open, and Function.Open when
// it may stand bare.
func (f *Format) callOpeners() []string {
	if f.Bare {
		return nonEmpty([]string{f.Scope.Open, f.Function.Open})
	}
	return nonEmpty(append([]string{f.Scope.Open}, f.Openers...))
}

// nameEnd is what ends the name in the Function tag.
func (f *Format) nameEnd() string {
	if f.NameEnd != "" {
		return f.NameEnd
	}
	return ">"
}

// textMarkers are the markers that end a text run.
func (f *Format) textMarkers() []string {
	return nonEmpty(append(append([]string{f.Think.Open, f.Result.Open, f.Header}, f.drops()...), f.callOpeners()...))
}

// drops are the markers dropped where they stand in text: Drop and Kinds.
func (f *Format) drops() []string { return append(append([]string(nil), f.Drop...), f.Kinds...) }

// kinds are the markers that end a message header (Format.Header): the
// call openers only where the call's block always takes the header in —
// the JSON form's, and Scope.Open before a Function tag, which give it
// back as text with the opener when no call follows (a word-named call,
// and a bare Function tag, take none).
func (f *Format) kinds() []string {
	k := []string{f.Think.Open}
	switch {
	case f.JSON != nil && f.Param.Open == "":
		k = append(k, f.callOpeners()...)
	case f.named():
		k = append(k, f.Scope.Open)
	}
	return nonEmpty(append(k, f.Kinds...))
}

// leadAndWake are the bytes markers start with ('<' for most formats;
// Phi-4-mini's functools[, Apriel's [BEGIN FINAL RESPONSE]) — text runs to
// the next of them — and the bytes markers end with, for scan.Core.WakeOn.
func (f *Format) leadAndWake() (string, *scan.ByteSet) {
	leads, ends := leadBytes(append(f.textMarkers(), f.thinkMarkers()...)), ""
	if leads == "" {
		leads = "<"
	}
	for _, m := range append(f.textMarkers(), f.Think.Close, f.Result.Close, f.Scope.Close, f.Function.Close, f.Param.Close) {
		if m != "" {
			ends += m[len(m)-1:]
		}
	}
	if f.JSON != nil && f.Scope.Close == "" {
		ends += "]}" // a value's end ends the block
	}
	return leads, scan.Bytes(ends)
}

// leadBytes are the distinct first bytes of markers.
func leadBytes(markers []string) string {
	leads := ""
	for _, m := range markers {
		if m != "" && !strings.Contains(leads, m[:1]) {
			leads += m[:1]
		}
	}
	return leads
}

// scopeEvidence reports whether Scope.Open is evidence of the format by
// itself, whatever follows it: it is the format's own tag (Own, OwnScope)
// and the call block is no other format's (SharedCalls).
func (f *Format) scopeEvidence() bool {
	return (f.Own || f.OwnScope) && !f.SharedCalls
}

// nonEmpty drops the markers a format does not have.
func nonEmpty(list []string) []string {
	out := list[:0]
	for _, m := range list {
		if m != "" {
			out = append(out, m)
		}
	}
	return out
}

// thinkMarkers are the markers that end reasoning the prompt opened.
func (f *Format) thinkMarkers() []string {
	return nonEmpty(append([]string{f.Think.Close}, f.callOpeners()...))
}

// hasCalls reports whether the format has a call form: a reasoning-only
// format (Kimi-VL's) describes its reasoning tags alone.
func (f *Format) hasCalls() bool {
	return f.JSON != nil || f.Scope.Open != "" || f.Function.Open != ""
}

// named reports whether the call is named in a Function tag.
func (f *Format) named() bool { return f.Function.Open != "" }

func skipWS(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// CompleteAt reports whether input, cut off where it ends, holds a block
// the end of the input closed (EndCloses): the conformance kit then does
// not expect the cut to be read as truncated.
func (f *Format) CompleteAt(input []byte) bool {
	if !f.EndCloses {
		return false
	}
	var last syntax.Event
	truncated := false
	p := f.New(func(e syntax.Event) {
		if e.Type == syntax.Call && !e.Partial {
			last = e
		}
		truncated = truncated || e.Code == syntax.CodeTruncated
	}, syntax.Options{})
	p.Write(input)
	p.Close()
	t := bytes.TrimRight(input, " \t\r\n")
	return !truncated && last.Type == syntax.Call && len(t) > 0 && (t[len(t)-1] == ']' || t[len(t)-1] == '}')
}
