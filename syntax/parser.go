package syntax

import (
	"errors"
	"io"
	"iter"
)

// Handler receives events as a parser produces them, in source order. The
// event's Args and Value are never modified afterwards, so a handler may keep
// them. A parser calls its handler synchronously, from inside Write and
// Close; a handler that calls Write or Close on that same parser gets
// [ErrReentrant] and the call does nothing. Every New function panics when
// given a nil Handler.
type Handler func(Event)

// Parser is the streaming tool-invocation parser every syntax implements. It is push-style: Write feeds the next
// chunk of model output, in any size, split anywhere — inside a marker, inside
// a UTF-8 character — and the parser calls its [Handler] with every event that
// chunk completes. Close marks the end of the stream: it flushes held text,
// reports anything unterminated as an error event, and emits the one final
// [End] event.
//
// Problems in the input are never returned as Go errors: they are [Error]
// events and parsing goes on. Write returns an error only when called after
// Close ([ErrClosed]) or from the parser's own handler ([ErrReentrant]). A
// Parser is not safe for concurrent use.
type Parser interface {
	io.WriteCloser
}

// ErrClosed is returned by Write on a parser that was closed.
var ErrClosed = errors.New("toolparse: write after close")

// ErrReentrant is returned by Write and Close when called from the parser's
// own handler, while it is delivering events.
var ErrReentrant = errors.New("toolparse: Write or Close called from the parser's own handler")

// Mode chooses how text runs are reported.
type Mode int

const (
	// EventMode reports each text run as one event with trimmed content.
	EventMode Mode = iota
	// TokenMode reports text as soon as it cannot be part of a marker, as
	// Partial fragments, and then the whole run as in EventMode.
	TokenMode
)

func (m Mode) String() string {
	if m == TokenMode {
		return "token"
	}
	return "event"
}

// Default limits used when the corresponding Options field is zero.
const (
	DefaultMaxBlock = 8 << 20 // bytes in one block (a call batch, a thought, a text run held in event mode)
	DefaultMaxDepth = 512     // nesting of JSON arrays and objects
)

// Options configure a parser. The zero value is ready to use.
type Options struct {
	Mode Mode
	// MaxBlock bounds the bytes a parser holds for one block. A block over
	// the limit becomes an Error event and parsing goes on after it.
	// Zero means DefaultMaxBlock.
	MaxBlock int
	// MaxDepth bounds JSON nesting. Deeper input is an Error event.
	// Zero means DefaultMaxDepth.
	MaxDepth int
	// MultipleBlocks lifts the one-tool-block-per-message limit of syntaxes
	// that have one (caret).
	MultipleBlocks bool
	// ThinkOpen says that the prompt opened the reasoning block, so the
	// output starts inside it and only its closer appears (DeepSeek R1 and
	// V3.1, Qwen3 thinking models). Syntaxes with a reasoning block start in
	// it; each says in its doc where such reasoning ends (the model formats:
	// at the first closer or at the format's call opener, whichever comes
	// first). Syntaxes without one ignore it.
	ThinkOpen bool
	// Content, when set, is the syntax the text of a provider's messages is
	// read in (syntax native): an open-weight model behind an
	// OpenAI-compatible or Ollama server often writes its calls as text in
	// content. The provider's own tool calls pass through, and calls the
	// text holds become call events too, one execute for the batch. Other
	// syntaxes ignore it.
	Content *Syntax
}

// BlockLimit returns MaxBlock or its default.
func (o Options) BlockLimit() int {
	if o.MaxBlock > 0 {
		return o.MaxBlock
	}
	return DefaultMaxBlock
}

// DepthLimit returns MaxDepth or its default.
func (o Options) DepthLimit() int {
	if o.MaxDepth > 0 {
		return o.MaxDepth
	}
	return DefaultMaxDepth
}

// Syntax describes one wire syntax: everything about it that code outside
// its package needs — how it is named, how to make its parser and its
// renderers, how to detect it, how to teach it to a model. Every syntax
// package exports one as its Syntax variable; nothing outside the package
// switches on its name.
type Syntax struct {
	Name        string   // canonical name, lower case
	Aliases     []string // other names it answers to
	Description string   // one line
	New         func(h Handler, opts Options) Parser
	// Detect, if set, makes a [Detector] that looks for evidence of this
	// syntax at the start of a stream read with the given options, for
	// auto-detection (with ThinkOpen, say, the stream starts inside a
	// reasoning block, where markers are not evidence). A syntax without one
	// is never chosen by auto-detection.
	Detect func(opts Options) Detector
	// Render, if set, returns a renderer that writes events to w in this
	// syntax's wire form, for a parser with the given options to read back.
	Render func(w io.Writer, opts Options) Renderer
	// Variants are other wire forms the syntax's parser reads and that it
	// can be written in, each looked up by its name as an alias is: a
	// registry's Lookup of a variant's name gives this Syntax with the
	// variant's Render (native: openai for Chat Completions, anthropic, …).
	Variants []Variant
	// Streams says that Render, given Options.Mode TokenMode, writes a
	// provider's stream form as events arrive (native's forms: SSE, NDJSON);
	// other renderers write whole units in either mode.
	Streams bool
	// Variant is the name of the variant a registry's Lookup gave this
	// value for (its Render is the variant's), "" for the syntax itself.
	Variant string
	// Prompt is what a system prompt says to teach a model the syntax: its
	// rules, in a few lines of text. The prompt's examples are made with
	// Render (package prompt).
	Prompt string
	// Models are the model names the syntax serves, as patterns of '*'
	// (any run of characters) and '?' (one), matched in any letter case
	// against a name that registry.ForModel has stripped of its
	// organisation, tag, file extension and quantisation:
	// "qwen3-coder*", "*hermes-3*".
	Models []string
	// Templates are fingerprints of the chat templates that teach the
	// syntax to a model (registry.ForTemplate): the markers the template's
	// text holds.
	Templates []Fingerprint
	// Quiet, if set, reports whether a stretch of input the parser gives no
	// event for may be silent: markers around an empty block, a provider's
	// keep-alive or bookkeeping document. The conformance kit fails on any
	// other stretch that no event covers (without Quiet, on one that gives
	// events when parsed on its own). A stretch that holds what the model
	// wrote is never quiet: that is a silent drop.
	Quiet func(gap []byte) bool
	// CompleteAt, if set, reports whether input, cut off where it ends,
	// may be read as complete although more input would have been read
	// otherwise (caret: a closing fence with no newline after it). The
	// conformance kit's truncation check skips such cut points.
	CompleteAt func(input []byte) bool
}

// Fingerprint is what a chat template that teaches a syntax holds: every
// marker of All, at least one of Any (when there are any), and none of None.
// Markers are literal text of the template's source.
type Fingerprint struct {
	All, Any, None []string
}

// Variant is another wire form of a syntax (see Syntax.Variants).
type Variant struct {
	Name        string
	Description string // one line
	// Render writes events in this form; nil when the form is read but
	// cannot be written yet.
	Render func(w io.Writer, opts Options) Renderer
	// Prompt, if set, is what a system prompt says to teach this form, in
	// place of the syntax's Prompt (the rules name its own markers).
	Prompt string
	// Models are the model names that write this form (as Syntax.Models):
	// registry.ForModel gives the syntax with this variant for them.
	Models []string
	// Templates are the chat templates that teach this form (as
	// Syntax.Templates): registry.ForTemplate gives the syntax with this
	// variant for them.
	Templates []Fingerprint
}

// A Detector looks for evidence of one syntax in the first bytes of a
// stream, for auto-detection. Look is given the input from its first byte,
// longer at each call (each call's seen begins with the previous call's
// seen), until a call with eof set, which says that seen is the whole input.
//
// What Look returns must depend only on seen and eof, never on how the input
// was cut into calls: that is what makes auto-detection's decision a
// function of the input alone. And it must be cheap, since Look is called at
// every write: a detector keeps where it stopped and looks at each byte
// about once overall (a bounded look back is fine), never from the start of
// seen again. Auto-detection gives a detector at most the first
// Options.BlockLimit bytes of the input.
type Detector interface {
	Look(seen []byte, eof bool) Evidence
}

// Evidence is what a [Detector] found in the input so far. Offsets are in
// bytes from the start of the input; -1 means none.
//
// Evidence is a marker of the syntax together with whatever follows it that
// tells the syntax apart from every other one that could write that marker:
// xmljson's <execute> followed by '[', a caret fence line once it is
// complete. A marker that other syntaxes share, with nothing yet that tells
// them apart (xmljson's <think>), is evidence for none of them: it is not
// At, and it ends Prose unless the syntax reads it as text. A detector
// reports only what its syntax's parser reads as a marker where it stands
// (nothing inside xmljson's <think> block, which is thought).
//
// The rules, for seen and any longer input that begins with it:
//
//   - no evidence in the longer input starts before the earlier of At and
//     Pending, or, when both are -1, before len(seen): a marker cut off at
//     the end of seen, or one whose confirming bytes have not come, is
//     Pending;
//   - when At is set and Pending is not, the longer input has evidence at At
//     (a detector reports Pending only when it is before At);
//   - at eof, Pending is -1;
//   - once Never is set it stays set, and At and Pending stay -1;
//   - Prose never decreases, is at most len(seen), and is at most At and
//     Pending when they are set.
type Evidence struct {
	// At is where the earliest confirmed evidence starts.
	At int
	// Pending is the earliest place where evidence may still start once
	// more input comes: a marker cut off at the end of seen, or one whose
	// next bytes will tell whether it is this syntax's.
	Pending int
	// Prose is how many bytes at the start of seen this syntax reads as the
	// start of a respond text run whatever follows them: up to its first
	// marker of any kind, shared markers and a marker's prefix at the end
	// of seen included (seen's length when there is none). A detector that
	// is the syntax's parser (scan.NewDetector) knows when a shared marker
	// is text to it (another format's call) and reads on; one that does
	// not ends prose there. While auto-detection is undecided it streams, in
	// token mode, the text that every syntax reads as prose.
	Prose int
	// Never says that no longer input holds evidence of this syntax either
	// (native: the input does not start with JSON or an SSE line), so the
	// syntax cannot be chosen and its Prose does not hold text back.
	Never bool
}

// NoEvidence is the Evidence of a detector that has found nothing, and for
// which prose bytes of seen are plain text.
func NoEvidence(prose int) Evidence { return Evidence{At: -1, Pending: -1, Prose: prose} }

// Renderer writes events: in a syntax's wire form (the reverse of a Parser,
// made by [Syntax.Render]), or for people and programs (package stream).
// Event takes events in stream order; Close writes what is buffered and
// ends the output.
//
// An error from Event or Close says that something could not be carried
// faithfully (a syntax may have no form for results, say) and what the
// renderer did instead: it writes what it can and goes on, so the caller may
// report the error and continue. Nothing is dropped without such an error.
// A renderer that buffers its output may also implement [Flusher].
type Renderer interface {
	Event(e Event) error
	Close() error
}

// Flusher is implemented by renderers that can write what they have
// buffered so far, as an http.ResponseWriter may implement http.Flusher. The
// CLI flushes after every chunk of input, so events appear as they are
// produced.
type Flusher interface {
	Flush() error
}

// Render feeds evs to r in order, then closes it, and returns every error r
// reported, joined with errors.Join.
func Render(r Renderer, evs []Event) error {
	var errs []error
	for _, e := range evs {
		if err := r.Event(e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(append(errs, r.Close())...)
}

// Parse parses a whole input at once and returns its events.
func Parse(s Syntax, input []byte, opts Options) []Event {
	return ParseChunks(s, [][]byte{input}, opts)
}

// ParseChunks feeds the chunks in order, as a stream would deliver them, and
// returns the events.
func ParseChunks(s Syntax, chunks [][]byte, opts Options) []Event {
	var evs []Event
	p := s.New(func(e Event) { evs = append(evs, e) }, opts)
	for _, c := range chunks {
		p.Write(c)
	}
	p.Close()
	return evs
}

// ParseReader copies r into a new parser in chunks of up to size bytes
// (32 KiB when size <= 0), calling h with each event, and closes the parser
// at the end of r. It returns r's error, if any, after closing the parser.
func ParseReader(s Syntax, r io.Reader, size int, opts Options, h Handler) error {
	if size <= 0 {
		size = 32 << 10
	}
	p := s.New(h, opts)
	buf := make([]byte, size)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.Write(buf[:n])
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			p.Close()
			return err
		}
	}
	return p.Close()
}

// All returns the events of r as an iterator. A read error is yielded once,
// after the events the parser produced before it; the stream is then closed
// as if it had ended there.
func All(s Syntax, r io.Reader, opts Options) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		var queue []Event
		p := s.New(func(e Event) { queue = append(queue, e) }, opts)
		drain := func() bool {
			for _, e := range queue {
				if !yield(e, nil) {
					return false
				}
			}
			queue = queue[:0]
			return true
		}
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				p.Write(buf[:n])
				if !drain() {
					return
				}
			}
			if err != nil {
				p.Close()
				if !drain() {
					return
				}
				if err != io.EOF {
					yield(Event{}, err)
				}
				return
			}
		}
	}
}
