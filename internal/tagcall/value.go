// The parameter reader: the parameters of one call whose values are raw
// text between tags with no escaping (Qwen3-Coder's
// <parameter=K>v</parameter>, GLM's <arg_key>K</arg_key><arg_value>v</arg_value>,
// MiniMax's <parameter name="K">v</parameter>). A [Param] names a format's
// tags; a [Reader] reads one call's body as its bytes arrive.
//
// Its contract: the caller (the engine's parser) finds where a call's body starts (after
// <function=NAME>, after GLM's name) and where it ends: at the call closer
// (</function>, </tool_call>, </invoke>), the first one, which always ends
// the call. It keeps the body's bytes as they arrive and calls [Reader.Read]
// with all of them each time (the same bytes, longer each time, so that a
// [scan.Block] can hold them), and once with final set when the closer has
// been found (the body then excludes it). Read reads each byte about once
// over all calls, so a call streamed in tiny chunks costs what it costs
// whole.
//
// The body is, in order:
//
//	body  = ws { param ws } .
//	param = Open KEY (the rest of the open tag, Param.Key) VALUE [ Close ] .
//
// A value ends (docs/formats.md, rule 7):
//
//   - at Close when what follows it, after optional white space, is the
//     next parameter's Open or the end of the body (the call closer);
//     any other Close is part of the value (a file about the format);
//   - at the end of the body when no such Close came (the model dropped the
//     value closer: the call closer ends the value).
//
// Deciding takes a look past a Close of at most the white space and
// len(Open) bytes; until then the Close and what follows are held, never
// sent. Anything else in the body (text between parameters, an open tag
// whose key does not end) is the call's problem, reported by [Reader.Err];
// nothing more is read after it.
//
// With Param.TrimNewline, one "\n" at the start and one at the end of
// each value are not part of it (Qwen3-Coder's template writes values
// between newlines); otherwise values are kept exactly (GLM).
//
// With Param.CDATA a value that starts with <![CDATA[ is the section's
// content, verbatim, up to its ]]> (Close inside it is content); then only
// white space may come before Close, or the body's end. A section with no
// ]]>, or other text after it, is the body's problem.
//
// In token mode the reader calls OnParam when a value starts and OnDelta
// with each piece of it that is final: a value's deltas join to exactly its
// string, never split a UTF-8 character, and each covers the body bytes it
// came from. The arguments ([Reader.JSON]) are an object of strings,
// keys in the order they first appear; a key given more than once is an
// array of its values in order (nothing the model wrote is dropped; a tool
// schema decides). Each value is quoted into the arguments as it ends
// (package params), so a body of many small parameters costs its
// JSON and a few bytes a key beside its own bytes.
//
// A format that needs other tags only supplies another Param: Open and
// Close are literal, and the key reader reads whatever stands between Open
// and the value (a name and '>', a name, </arg_key> and <arg_value>, a
// quoted name and '">').

package tagcall

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/params"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

type state uint8

// cdataState is where the open value stands with a CDATA section
// (Param.CDATA).
type cdataState uint8

const (
	cdUndecided cdataState = iota // the value's first bytes have not come
	cdNone                        // the value is no CDATA section
	cdOpen                        // in the section: valAt is its content's start
	cdClosed                      // after its ]]>: white space, then Close
)

const (
	between state = iota // in the white space between parameters
	inValue
	failed
)

// maxBody bounds a body's length; a longer one is the call's problem.
const maxBody = 1<<31 - 1

// Reader reads one call body at a time. The zero value is not ready: call
// Reset.
type Reader struct {
	f     *Param
	token bool

	// OnParam, if set (token mode), is called when a value starts, with
	// its key (as the arguments' JSON carries it: an invalid UTF-8 byte is
	// U+FFFD) and the body offsets of its open tag.
	OnParam func(key string, from, to int)
	// OnDelta, if set (token mode), is called with each final piece of the
	// open value, its key, and the body offsets it came from.
	OnDelta func(key string, delta []byte, from, to int)

	st  state
	pos int // between: the next byte to read; inValue: where to look for the next '<'

	// The open value.
	keyAt, keyEnd int
	key           string // token mode only
	valAt         int
	closer        int  // offset of a Close whose look ahead is undecided, or -1
	wsTo          int  // how far white space after closer has been read
	lead          bool // token mode: the value's first byte was decided (a dropped newline)
	sent          int  // token mode: value bytes before sent were sent
	cd            cdataState
	cdEnd         int // cdClosed: where the section's ]]> starts

	args params.Params // the arguments of the values read
	n    int           // the number of values read

	errAt int
	msg   string

	names map[string]string // interned keys (token mode)
}

// Reset makes r ready for the next call body, in format f; token says that
// values are streamed through OnParam and OnDelta.
func (r *Reader) Reset(f *Param, token bool) {
	r.f, r.token = f, token
	r.st, r.pos, r.closer = between, 0, -1
	r.errAt, r.msg = -1, ""
	r.args.Reset() // the arguments of a call that was not taken
	r.n = 0
}

// Err returns the body offset and a message for the body's first problem,
// or -1. body is the whole body, as given to the last Read: the message
// quotes its text at the problem.
func (r *Reader) Err(body []byte) (at int, msg string) {
	if r.errAt < 0 {
		return -1, ""
	}
	return r.errAt, r.msg + ": " + clip(body[r.errAt:])
}

// Len is the number of parameters read so far.
func (r *Reader) Len() int { return r.n }

func (r *Reader) fail(at int, msg string) {
	r.st, r.errAt, r.msg = failed, at, msg
}

// Read reads the body bytes not read yet. body is the whole body so far;
// final says it is complete.
func (r *Reader) Read(body []byte, final bool) {
	f := r.f
	if len(body) > maxBody && r.st != failed {
		r.fail(0, "a call body over 2 GiB")
	}
	for {
		switch r.st {
		case failed:
			return
		case between:
			j := skipSpace(body, r.pos)
			r.pos = j
			if j == len(body) {
				return
			}
			full, partial := scan.MatchPrefix(body[j:], f.Open)
			if partial && !final {
				return
			}
			if !full {
				r.fail(j, "text outside a parameter")
				return
			}
			rest := body[j+len(f.Open):]
			n, keyAt, keyLen := f.readKey(rest, final)
			if n < 0 {
				if final {
					n = 0
				} else {
					return
				}
			}
			if n == 0 {
				r.fail(j, "an incomplete parameter tag")
				return
			}
			r.openValue(body, j, j+len(f.Open)+keyAt, keyLen, j+len(f.Open)+n)
		case inValue:
			if !r.readValue(body, final) {
				return
			}
		}
	}
}

func (r *Reader) openValue(body []byte, tagAt, keyAt, keyLen, valAt int) {
	r.st = inValue
	r.keyAt, r.keyEnd, r.valAt = keyAt, keyAt+keyLen, valAt
	r.pos, r.closer = valAt, -1
	r.cd = cdNone
	if r.f.CDATA {
		r.cd = cdUndecided
	}
	if r.token {
		r.key = r.intern(body[r.keyAt:r.keyEnd])
		r.lead, r.sent = false, valAt
		if r.OnParam != nil {
			r.OnParam(r.key, tagAt, valAt)
		}
	}
}

// InCDATA reports whether the bytes read so far end inside a value's CDATA
// section (Param.CDATA), where no tag is a tag.
func (r *Reader) InCDATA() bool { return r.st == inValue && r.cd == cdOpen }

// readValue reads the open value; it returns true when the value ended
// (the reader is between parameters again), false when more input is
// needed.
func (r *Reader) readValue(body []byte, final bool) bool {
	f := r.f
	if r.cd != cdNone {
		if done, more := r.readCDATA(body, final); done || !more {
			return done
		}
	}
	for {
		if r.closer >= 0 {
			j := skipSpace(body, r.wsTo)
			r.wsTo = j
			if j == len(body) {
				if final { // Close, then the call closer
					r.endValue(body, r.closer)
					r.st, r.pos = between, len(body)
					return true
				}
				r.stream(body, r.closer)
				return false
			}
			full, partial := scan.MatchPrefix(body[j:], f.Open)
			if full {
				r.endValue(body, r.closer)
				r.st, r.pos = between, j
				return true
			}
			if partial && !final {
				r.stream(body, r.closer)
				return false
			}
			r.pos, r.closer = r.closer+1, -1 // a Close inside the value
		}
		i := bytes.IndexByte(body[r.pos:], f.Close[0])
		if i < 0 {
			r.pos = len(body)
			break
		}
		i += r.pos
		full, partial := scan.MatchPrefix(body[i:], f.Close)
		switch {
		case full:
			r.closer, r.wsTo = i, i+len(f.Close)
		case partial && !final:
			r.pos = i
			r.stream(body, i)
			return false
		default:
			r.pos = i + 1
		}
	}
	if final { // no Close: the call closer ends the value
		r.endValue(body, len(body))
		r.st, r.pos = between, len(body)
		return true
	}
	r.stream(body, len(body))
	return false
}

// readCDATA reads a value that may be a CDATA section. It returns done
// when the value ended, more when the value is no CDATA section and is to
// be read as any value; neither when more input is needed (or the body
// failed).
func (r *Reader) readCDATA(body []byte, final bool) (done, more bool) {
	switch r.cd {
	case cdUndecided:
		full, partial := scan.MatchPrefix(body[r.valAt:], cdataOpen)
		switch {
		case full:
			r.cd, r.valAt = cdOpen, r.valAt+len(cdataOpen)
			r.pos, r.lead, r.sent = r.valAt, true, r.valAt
		case partial && !final:
			return false, false
		default:
			r.cd = cdNone
			return false, true
		}
		fallthrough
	case cdOpen:
		k := bytes.Index(body[r.pos:], []byte(cdataClose))
		if k < 0 {
			if final {
				r.fail(r.valAt-len(cdataOpen), "a CDATA section with no "+cdataClose)
				return false, false
			}
			r.pos = max(r.pos, len(body)-scan.PartialSuffix(body, cdataClose))
			r.stream(body, r.pos)
			return false, false
		}
		r.cdEnd = r.pos + k
		r.stream(body, r.cdEnd)
		r.cd, r.pos = cdClosed, r.cdEnd+len(cdataClose)
	}
	// cdClosed: white space, then Close.
	j := skipSpace(body, r.pos)
	r.pos = j // read once, however the body comes
	if j == len(body) {
		if final { // no Close: the call closer ends the value
			r.endValue(body, r.cdEnd)
			r.st, r.pos = between, len(body)
			return true, false
		}
		return false, false
	}
	full, partial := scan.MatchPrefix(body[j:], r.f.Close)
	switch {
	case full:
		r.endValue(body, r.cdEnd)
		r.st, r.pos = between, j+len(r.f.Close)
		return true, false
	case partial && !final:
		return false, false
	}
	r.fail(j, "text after a CDATA section, before "+r.f.Close)
	return false, false
}

// bounds returns the value's bytes [from, to) once its end is known.
func (r *Reader) bounds(body []byte, end int) (int, int) {
	from := r.valAt
	if r.cd == cdClosed {
		return from, r.cdEnd // the section's content, verbatim
	}
	if r.f.TrimNewline {
		if from < end && body[from] == '\n' {
			from++
		}
		if end > from && body[end-1] == '\n' {
			end--
		}
	}
	return from, end
}

// endValue closes the open value, which ends at end.
func (r *Reader) endValue(body []byte, end int) {
	from, to := r.bounds(body, end)
	if r.token {
		if !r.lead {
			r.sent = from
		}
		if to > r.sent && r.OnDelta != nil {
			r.OnDelta(r.key, body[r.sent:to], r.sent, to)
		}
	}
	r.args.AddKey(body[r.keyAt:r.keyEnd], body[from:to], false)
	r.n++
}

// stream sends, in token mode, the open value's bytes before upTo that are
// final: not a newline that may be the value's last, not the first bytes of
// a character.
func (r *Reader) stream(body []byte, upTo int) {
	if !r.token || r.OnDelta == nil {
		return
	}
	if !r.lead {
		if upTo == r.valAt {
			return
		}
		r.lead = true
		if r.f.TrimNewline && body[r.valAt] == '\n' {
			r.sent = r.valAt + 1
		}
	}
	if r.f.TrimNewline && r.cd < cdOpen && upTo > r.sent && body[upTo-1] == '\n' {
		upTo--
	}
	if upTo <= r.sent {
		return
	}
	cut := r.sent + scan.CompleteUTF8(body[r.sent:upTo])
	if cut > r.sent {
		r.OnDelta(r.key, body[r.sent:cut], r.sent, cut)
		r.sent = cut
	}
}

// JSON returns the arguments read as a JSON object: keys in the order they
// first appear, a key given more than once as an array. The bytes are the
// caller's: the buffer the values were quoted into as they came (or, when a
// key repeats, one of the exact size). It is called once per body, after
// the final Read; the arguments are then emptied.
func (r *Reader) JSON() []byte { return r.args.JSON() }

func (r *Reader) intern(name []byte) string {
	if s, ok := r.names[string(name)]; ok {
		return s
	}
	s := string(name)
	if !utf8.Valid(name) { // as the arguments' JSON carries it: each invalid byte a U+FFFD
		s, _ = jsonscan.Unquote(syntax.AppendQuote(nil, s))
	}
	if len(name) <= 64 {
		if r.names == nil || len(r.names) >= 256 {
			r.names = make(map[string]string)
		}
		r.names[s] = s
	}
	return s
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func clip(b []byte) string {
	if len(b) > 40 {
		b = b[:40]
		return strconv.Quote(string(b[:scan.CompleteUTF8(b)])) + "…"
	}
	return strconv.Quote(string(b))
}

// Names interns the call names a parser reads, so that a stream of calls to
// the same few tools allocates each name once. The zero value is ready.
type Names struct{ m map[string]string }

// Intern returns name as a string, the same string each time for a short
// name; it holds at most 256 names, and starts over when full.
func (n *Names) Intern(name []byte) string {
	if s, ok := n.m[string(name)]; ok {
		return s
	}
	s := string(name)
	if len(name) <= 64 {
		if n.m == nil || len(n.m) >= 256 {
			n.m = make(map[string]string)
		}
		n.m[s] = s
	}
	return s
}
