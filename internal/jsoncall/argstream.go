package jsoncall

import (
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// ArgStream turns the JSON text of calls {"name": …, "args": {…}, "id": …},
// arriving in pieces, into the partial call events of token mode: one with
// the name (and id, when it comes before the args) as soon as the name is
// known, then the args object's compact text in Delta pieces as it arrives.
// Args that come before the name wait for it; args that are not an object
// (absent, null, or wrong) are not streamed — the complete call, or an
// error, says what they are. A key given twice counts the first time, as
// [ReadCall] reads it.
//
// It has no state machine of its own: [ArgStream.Scan] runs the syntax's
// scanner, which validates the text, stops at the boundaries of the call
// objects' members and compacts the args as it scans them.
//
// Depth is the nesting at which call objects stand: 0 when the JSON value is
// the call (delimiter), 1 when the calls are the elements of an array
// (xmljson). Every object at that depth is taken for a call.
//
// With Keys.NameKey a call object is {NAME: ARGS}: its first member's key
// is the name, its value the args.
//
// With WaitArgs the first event waits for the args key as well as the name
// (until both have come the object may be something other than a call).
// With a nil Emit nothing is streamed: the keys are only noted, for
// [ArgStream.Keyed] and [ArgStream.Shaped]. [ArgStream.Bare] streams instead
// a bare args object, of a call announced already.
type ArgStream struct {
	Depth    int
	Keys     Keys // the call object's key names; the zero value means Default
	Emit     func(syntax.Event)
	JSON     *jsonscan.JSON // the scanner the text goes through
	WaitArgs bool
	// Held keeps what a Scan of a bare args object compacts until Flush:
	// a syntax that sends nothing of a scan whose bytes take its block over
	// the limit (it calls Stop instead).
	Held bool

	bare     bool // the value scanned is a bare args object
	stopped  bool // no more events: the call's block went over the limit
	fromScan bool // its source starts where the Scan reading its '{' starts
	keyed    bool // a name or args key of the call was read

	inCall   bool    // inside a call object
	capture  capture // what the bytes being scanned are kept for
	raw      []byte  // the raw JSON string being captured, quotes included
	key      string  // the key of the member being read
	seen     seen    // which of the call's keys have been seen
	name, id string
	inArgs   bool   // inside the args object
	started  bool   // the call's first partial event was sent
	index    int    // of the call among those this stream has seen since Reset
	calls    int    // calls seen since Reset
	out      []byte // args text not yet sent (a UTF-8 character cut at its end waits for the rest)
	pending  []byte // args text waiting for the name

	// Source offsets, for the events' spans.
	at          int64 // of the byte the scanner is at
	callFrom    int64 // where the call object starts
	outFrom     int64 // where the source of out starts
	pendingSpan syntax.Span
}

type capture uint8

const (
	captureNone capture = iota
	captureKey
	captureName
	captureID
)

type seen uint8

const (
	seenName seen = 1 << iota
	seenArgs
	seenID
)

func (a *ArgStream) keys() Keys {
	if a.Keys == (Keys{}) {
		return Default
	}
	return a.Keys
}

// Reset prepares for a new stream of calls (the scanner is reset apart).
func (a *ArgStream) Reset() {
	*a = ArgStream{Depth: a.Depth, Keys: a.Keys, Emit: a.Emit, JSON: a.JSON, WaitArgs: a.WaitArgs, Held: a.Held,
		raw: a.raw[:0], out: a.out[:0], pending: a.pending[:0]}
}

// SetIndex numbers the next call the stream sees i (and those after it on
// from there), for a syntax that counts its calls itself.
func (a *ArgStream) SetIndex(i int) { a.calls = i }

// Bare makes the value the scanner reads next the bare args object of a
// call announced already, named name and numbered index: Scan streams the
// whole object's compact text. The deltas' source starts at from, or, when
// from is negative, where the Scan that reads the object's '{' starts.
func (a *ArgStream) Bare(name string, index int, from int64) {
	a.capture, a.seen, a.id, a.inArgs, a.keyed = captureNone, 0, "", false, false
	a.out, a.pending = a.out[:0], a.pending[:0]
	a.inCall, a.bare, a.started, a.name, a.index, a.outFrom = false, true, true, name, index, from
	a.stopped = false
	a.fromScan = from < 0
}

// Flush sends what the Scans of a bare args object kept (see Held).
func (a *ArgStream) Flush() { a.flush() }

// Stop sends no more events for the current call: its block went over the
// limit, and it will be an error. The keys are still noted, and nothing the
// stream keeps grows with the text scanned. Reset and Bare start again.
func (a *ArgStream) Stop() { a.stopped = true }

// stoppedCapture bounds a key or name kept once stopped: longer than any
// key of a call.
const stoppedCapture = 256

// Started reports whether the current call's first partial event was sent
// (for a bare args object, whether it was announced).
func (a *ArgStream) Started() bool { return a.started }

// Calls is the number the next call the stream sees will take.
func (a *ArgStream) Calls() int { return a.calls }

// Index is the number of the current call.
func (a *ArgStream) Index() int { return a.index }

// Keyed reports whether a name or args key of the current call has been
// read.
func (a *ArgStream) Keyed() bool { return a.keyed }

// Shaped reports whether the current call's name and args keys have both
// come, with their values starting.
func (a *ArgStream) Shaped() bool { return a.seen&(seenName|seenArgs) == seenName|seenArgs }

// ScanBlock scans data, which stands at offset off of the input, as part of
// blk, a block of at most limit bytes: the bytes that fit go through the
// scanner (streaming the partial events, as Scan does, when stream is set)
// and are kept in blk; once blk is over the limit the stream stops, so that
// deltas never run past it. It returns the bytes consumed.
func (a *ArgStream) ScanBlock(blk *scan.Block, limit int, data []byte, off int64, stream bool) int {
	data = blk.Fit(data, limit)
	var n int
	if stream {
		n = a.Scan(data, off)
	} else {
		n = a.JSON.Scan(data)
	}
	blk.Keep(data[:n], limit)
	if blk.Over {
		a.Stop()
	}
	return n
}

// Scan scans p, which stands at offset off of the input, with the scanner,
// as [jsonscan.JSON.Scan] does, and returns the bytes consumed; the partial
// events of the calls they hold go out as it scans, each with the span of
// the source it came from.
func (a *ArgStream) Scan(p []byte, off int64) int {
	js, members := a.JSON, a.Depth+1
	if a.bare {
		if a.Emit == nil || a.stopped {
			return js.Scan(p)
		}
		if a.fromScan && !js.Started() {
			a.outFrom = off
		}
		var n int
		a.out, n = js.ScanCompact(a.out, p)
		a.at = off + int64(n)
		if !a.Held {
			a.flush()
		}
		return n
	}
	used := 0
	for {
		var n, level int
		var b jsonscan.Boundary
		if a.inArgs && !a.stopped {
			a.out, n, b, level = js.NextCompact(a.out, p[used:], members)
		} else {
			n, b, level = js.Next(p[used:], members)
		}
		switch {
		case a.capture == captureNone:
		case !a.stopped:
			a.raw = append(a.raw, p[used:used+n]...)
		case len(a.raw) < stoppedCapture:
			// Stopped, the keys are still noted, but a long string is
			// not kept: no key of a call is this long.
			a.raw = append(a.raw, p[used:used+min(n, stoppedCapture-len(a.raw))]...)
		}
		used += n
		a.at = off + int64(used)
		if b == jsonscan.NoBoundary {
			break
		}
		var c byte // a value that starts consumed its first byte
		if b == jsonscan.ValueStart {
			c = p[used-1]
		}
		a.boundary(b, level, c)
	}
	if a.inArgs {
		a.flush()
	}
	return used
}

// boundary handles a boundary the scanner stopped at; c is the first byte
// of a value that starts.
func (a *ArgStream) boundary(b jsonscan.Boundary, level int, c byte) {
	if level == a.Depth { // a call object's own start or end
		switch {
		case b == jsonscan.ValueStart && c == '{':
			a.startCall()
			a.callFrom = a.at - 1
		case b == jsonscan.ValueEnd:
			a.inCall = false
		}
		return
	}
	if level != a.Depth+1 || !a.inCall {
		return
	}
	k := a.keys()
	switch b {
	case jsonscan.KeyStart:
		a.capture, a.raw = captureKey, append(a.raw[:0], '"')
	case jsonscan.KeyEnd:
		a.capture = captureNone
		a.key, _ = jsonscan.Unquote(a.raw)
		if k.NameKey && a.seen == 0 || !k.NameKey && (a.key == k.Name || k.IsArgs(a.key)) {
			a.keyed = true
		}
	case jsonscan.ValueStart:
		var first seen // the key, seen for the first time
		switch {
		case k.NameKey:
			// {NAME: ARGS}: the first member's key names the call, its
			// value is the args (a second member makes the call an error,
			// as ReadCall reads it).
			if a.seen == 0 {
				a.seen, a.name, first = seenName, a.key, seenArgs
			}
		case a.key == k.Name:
			first = seenName &^ a.seen
		case k.IsArgs(a.key):
			first = seenArgs &^ a.seen
		case k.isID(a.key):
			first = seenID &^ a.seen
		}
		a.seen |= first
		switch {
		case first == 0:
		case first == seenArgs:
			if c == '{' && a.Emit != nil {
				a.inArgs = true
				a.out = append(a.out, '{')
				a.outFrom = a.at - 1
			}
			a.begin()
		case c == '"':
			a.capture, a.raw = captureName, append(a.raw[:0], '"')
			if first == seenID {
				a.capture = captureID
			}
		}
	case jsonscan.ValueEnd:
		switch a.capture {
		case captureName:
			a.name, _ = jsonscan.Unquote(a.raw)
			a.begin()
		case captureID:
			a.id, _ = jsonscan.Unquote(a.raw)
		}
		a.capture = captureNone
		if a.inArgs {
			a.inArgs = false
			a.flush()
		}
	}
}

func (a *ArgStream) startCall() {
	a.inCall, a.capture, a.seen, a.name, a.id, a.started, a.inArgs, a.keyed = true, captureNone, 0, "", "", false, false, false
	a.index = a.calls
	a.calls++
	a.out = a.out[:0]
	a.pending = a.pending[:0]
}

// begin emits the call's first partial event once its name is known, then
// any args that came before it.
func (a *ArgStream) begin() {
	if a.Emit == nil || a.stopped || a.started || a.name == "" || a.WaitArgs && a.seen&seenArgs == 0 {
		return
	}
	a.started = true
	a.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: a.name, ID: a.id, Index: a.index,
		Span: syntax.Span{Start: a.callFrom, End: a.at}})
	if len(a.pending) > 0 {
		a.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: a.name, Index: a.index, Delta: string(a.pending), Span: a.pendingSpan})
		a.pending = a.pending[:0]
	}
}

// flush sends the args text compacted so far, or keeps it for the name. A
// character cut by the end of the input waits for its other bytes: a delta
// is a string and must not split one. (The args end with '}', so nothing
// waits at their end.)
func (a *ArgStream) flush() {
	if a.stopped {
		a.out = a.out[:0]
		return
	}
	n := scan.CompleteUTF8(a.out)
	end := a.at - int64(len(a.out)-n) // the bytes that wait are the last ones scanned
	if n > 0 {
		span := syntax.Span{Start: a.outFrom, End: end}
		if a.started {
			a.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: a.name, Index: a.index, Delta: string(a.out[:n]), Span: span})
		} else {
			if len(a.pending) == 0 {
				a.pendingSpan.Start = span.Start
			}
			a.pendingSpan.End = span.End
			a.pending = append(a.pending, a.out[:n]...)
		}
		a.outFrom = end
	}
	a.out = append(a.out[:0], a.out[n:]...)
}
