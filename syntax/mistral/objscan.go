package mistral

import (
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// The keys of a v3/v7 call object, {"name": …, "arguments": {…}, "id": …}.
const (
	keyName = "name"
	keyArgs = "arguments"
	keyID   = "id"
)

// objScan scans one JSON object as its bytes arrive, validating it through
// its jsonscan.JSON, and in token mode streams it:
//
//   - as a call object (keyed): the call's first partial event once its
//     name has come (with its id when that came first), then its
//     "arguments" object's compact text in deltas;
//   - as arguments (not keyed): the whole object's compact text in deltas,
//     the call having been announced already.
type objScan struct {
	js     jsonscan.JSON
	stream bool
	keyed  bool
	emit   func(syntax.Event)

	// Keyed objects.
	capture  uint8
	raw      []byte
	key      string
	seenName bool
	seenArgs bool
	seenID   bool
	name, id string
	inArgs   bool

	started     bool
	index       int
	out         []byte
	pending     []byte
	pendingSpan syntax.Span
	outFrom     int64
	at          int64
	callFrom    int64
}

const (
	captureNone = iota
	captureKey
	captureName
	captureID
)

// reset prepares for a new object. For arguments (keyed false), the call
// named name was announced with the given index.
func (o *objScan) reset(maxDepth int, keyed bool, index int, name string, from int64) {
	o.js.Reset(maxDepth)
	o.keyed, o.index, o.name, o.callFrom = keyed, index, name, from
	o.capture, o.raw, o.key = captureNone, o.raw[:0], ""
	o.seenName, o.seenArgs, o.seenID, o.id = false, false, false, ""
	o.inArgs, o.started = false, !keyed
	o.out, o.pending = o.out[:0], o.pending[:0]
	if !keyed {
		o.name = name
	}
}

// scan scans p, which stands at offset off of the input, and returns the
// bytes consumed.
func (o *objScan) scan(p []byte, off int64) int {
	if !o.stream {
		return o.js.Scan(p)
	}
	if !o.keyed {
		if !o.js.Started() {
			o.outFrom = off
		}
		var n int
		o.out, n = o.js.ScanCompact(o.out, p)
		o.at = off + int64(n)
		o.flush()
		return n
	}
	used := 0
	for {
		var n, level int
		var b jsonscan.Boundary
		if o.inArgs {
			o.out, n, b, level = o.js.NextCompact(o.out, p[used:], 1)
		} else {
			n, b, level = o.js.Next(p[used:], 1)
		}
		if o.capture != captureNone {
			o.raw = append(o.raw, p[used:used+n]...)
		}
		used += n
		o.at = off + int64(used)
		if b == jsonscan.NoBoundary {
			break
		}
		var ch byte
		if b == jsonscan.ValueStart {
			ch = p[used-1]
		}
		o.boundary(b, level, ch)
	}
	if o.inArgs {
		o.flush()
	}
	return used
}

func (o *objScan) boundary(b jsonscan.Boundary, level int, ch byte) {
	if level == 0 {
		if b == jsonscan.ValueStart {
			o.callFrom = o.at - 1
		}
		return
	}
	if level != 1 {
		return
	}
	switch b {
	case jsonscan.KeyStart:
		o.capture, o.raw = captureKey, append(o.raw[:0], '"')
	case jsonscan.KeyEnd:
		o.capture = captureNone
		o.key, _ = jsonscan.Unquote(o.raw)
	case jsonscan.ValueStart:
		switch {
		case o.key == keyName && !o.seenName:
			o.seenName = true
			if ch == '"' {
				o.capture, o.raw = captureName, append(o.raw[:0], '"')
			}
		case o.key == keyID && !o.seenID:
			o.seenID = true
			if ch == '"' {
				o.capture, o.raw = captureID, append(o.raw[:0], '"')
			}
		case o.key == keyArgs && !o.seenArgs:
			o.seenArgs = true
			if ch == '{' {
				o.inArgs = true
				o.out = append(o.out[:0], '{')
				o.outFrom = o.at - 1
			}
		}
	case jsonscan.ValueEnd:
		switch o.capture {
		case captureName:
			name, ok := jsonscan.Unquote(o.raw)
			if ok && name != "" {
				o.name = name
				o.begin()
			}
		case captureID:
			o.id, _ = jsonscan.Unquote(o.raw)
		}
		o.capture = captureNone
		if o.inArgs {
			o.inArgs = false
			o.flush()
		}
	}
}

func (o *objScan) begin() {
	if o.started {
		return
	}
	o.started = true
	o.emit(syntax.Event{Type: syntax.Call, Partial: true, Name: o.name, ID: o.id, Index: o.index,
		Span: syntax.Span{Start: o.callFrom, End: o.at}})
	if len(o.pending) > 0 {
		o.emit(syntax.Event{Type: syntax.Call, Partial: true, Name: o.name, Index: o.index, Delta: string(o.pending), Span: o.pendingSpan})
		o.pending = o.pending[:0]
	}
}

func (o *objScan) flush() {
	n := scan.CompleteUTF8(o.out)
	end := o.at - int64(len(o.out)-n)
	if n > 0 {
		span := syntax.Span{Start: o.outFrom, End: end}
		if o.started {
			o.emit(syntax.Event{Type: syntax.Call, Partial: true, Name: o.name, Index: o.index, Delta: string(o.out[:n]), Span: span})
		} else {
			if len(o.pending) == 0 {
				o.pendingSpan.Start = span.Start
			}
			o.pendingSpan.End = span.End
			o.pending = append(o.pending, o.out[:n]...)
		}
		o.outFrom = end
	}
	o.out = append(o.out[:0], o.out[n:]...)
}

// readCall reads a complete v3/v7 call object: a non-empty string name,
// arguments an object, null or absent ({}), or a string holding an object
// (decoded once), an id string kept. A key given twice counts the first time.
func readCall(obj []byte) (name, id string, args []byte, problem string) {
	if k := jsonscan.Kind(obj); k != '{' {
		return "", "", nil, "the call is " + jsonscan.KindName(k) + ", not an object"
	}
	var haveName, nameOK, haveID bool
	var rawArgs []byte
	jsonscan.Members(obj, func(k string, v []byte) bool {
		switch {
		case k == keyName && !haveName:
			haveName = true
			name, nameOK = jsonscan.Unquote(v)
		case k == keyArgs && rawArgs == nil:
			rawArgs = v
		case k == keyID && !haveID:
			haveID = true
			id, _ = jsonscan.Unquote(v)
		}
		return true
	})
	switch {
	case !haveName:
		return "", "", nil, `the call has no "name"`
	case !nameOK || name == "":
		return "", "", nil, `the call's "name" is not a non-empty string`
	}
	args, problem = argsObject(name, rawArgs)
	return name, id, args, problem
}

// argsObject reads arguments: an object (compacted), absent or null ({}),
// or a string holding an object, decoded once ("" is {}).
func argsObject(name string, raw []byte) ([]byte, string) {
	if raw == nil || string(raw) == "null" {
		return []byte("{}"), ""
	}
	switch jsonscan.Kind(raw) {
	case '{':
		return jsonscan.Compact(raw), ""
	case '"':
		s, _ := jsonscan.Unquote(raw)
		if len(jsonscan.TrimSpace([]byte(s))) == 0 {
			return []byte("{}"), ""
		}
		if v, ok := wholeJSON([]byte(s)); ok && jsonscan.Kind(v) == '{' {
			return jsonscan.Compact(v), ""
		}
		return nil, "the arguments of " + name + " are a string that does not hold a JSON object"
	}
	return nil, "the arguments of " + name + " are " + jsonscan.KindName(jsonscan.Kind(raw)) + ", not an object"
}

// wholeJSON reports whether b, white space around it aside, is one valid
// JSON value, and returns it trimmed.
func wholeJSON(b []byte) ([]byte, bool) {
	b = jsonscan.TrimSpace(b)
	if len(b) == 0 {
		return nil, false
	}
	var js jsonscan.JSON
	n := js.Scan(b)
	if n == len(b) {
		js.End()
	}
	return b, js.Done() && n == len(b)
}
