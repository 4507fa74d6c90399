package llama3

import (
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// The keys of a Llama 3 JSON call object. The arguments are under
// "parameters" (Meta's format) or "arguments" (some fine-tunes); the first
// of the two that comes counts.
const (
	keyName   = "name"
	keyParams = "parameters"
	keyArgs   = "arguments"
)

func isArgsKey(k string) bool { return k == keyParams || k == keyArgs }

// callScan reads one JSON object that may be a call, as its bytes arrive:
// it validates it (through its jsonscan.JSON), notes the call keys of its
// top level, and in token mode streams its arguments. The parser and the
// detector share it, so that both decide alike what is a call.
type callScan struct {
	js     jsonscan.JSON
	stream bool               // token mode: stream the arguments through emit
	emit   func(syntax.Event) // for the partial events

	capture  uint8  // 0 none, 1 a key, 2 the name's value
	raw      []byte // the JSON string being captured, quotes included
	key      string // the key of the member being read
	callKey  bool   // a key "name", "parameters" or "arguments" was seen at the top level
	seenName bool
	seenArgs bool
	name     string
	nameOK   bool // the first name is a non-empty string

	// Token mode.
	inArgs      bool
	started     bool
	index       int
	out         []byte // args text not yet sent
	pending     []byte // args text waiting for the name
	pendingSpan syntax.Span
	outFrom     int64
	at          int64
	callFrom    int64
}

const (
	captureNone = iota
	captureKey
	captureName
)

// reset prepares for a new object; index numbers its call among those the
// stream has streamed.
func (c *callScan) reset(maxDepth, index int) {
	c.js.Reset(maxDepth)
	c.capture, c.raw, c.key = captureNone, c.raw[:0], ""
	c.callKey, c.seenName, c.seenArgs, c.name, c.nameOK = false, false, false, "", false
	c.inArgs, c.started, c.index = false, false, index
	c.out, c.pending = c.out[:0], c.pending[:0]
}

// shaped reports whether the keys of a call object have been seen: a name
// and arguments.
func (c *callScan) shaped() bool { return c.seenName && c.seenArgs }

// scan scans p, which stands at offset off of the input, and returns the
// bytes consumed (as jsonscan.JSON.Scan does).
func (c *callScan) scan(p []byte, off int64) int {
	used := 0
	for {
		var n, level int
		var b jsonscan.Boundary
		if c.inArgs {
			c.out, n, b, level = c.js.NextCompact(c.out, p[used:], 1)
		} else {
			n, b, level = c.js.Next(p[used:], 1)
		}
		if c.capture != captureNone {
			c.raw = append(c.raw, p[used:used+n]...)
		}
		used += n
		c.at = off + int64(used)
		if b == jsonscan.NoBoundary {
			break
		}
		var ch byte
		if b == jsonscan.ValueStart {
			ch = p[used-1]
		}
		c.boundary(b, level, ch)
	}
	if c.inArgs {
		c.flush()
	}
	return used
}

func (c *callScan) boundary(b jsonscan.Boundary, level int, ch byte) {
	if level == 0 {
		if b == jsonscan.ValueStart {
			c.callFrom = c.at - 1
		}
		return
	}
	if level != 1 {
		return
	}
	switch b {
	case jsonscan.KeyStart:
		c.capture, c.raw = captureKey, append(c.raw[:0], '"')
	case jsonscan.KeyEnd:
		c.capture = captureNone
		c.key, _ = jsonscan.Unquote(c.raw)
		if c.key == keyName || isArgsKey(c.key) {
			c.callKey = true
		}
	case jsonscan.ValueStart:
		switch {
		case c.key == keyName && !c.seenName:
			c.seenName = true
			if ch == '"' {
				c.capture, c.raw = captureName, append(c.raw[:0], '"')
			}
		case isArgsKey(c.key) && !c.seenArgs:
			c.seenArgs = true
			if ch == '{' && c.stream {
				c.inArgs = true
				c.out = append(c.out[:0], '{')
				c.outFrom = c.at - 1
			}
			c.begin()
		}
	case jsonscan.ValueEnd:
		if c.capture == captureName {
			c.name, c.nameOK = jsonscan.Unquote(c.raw)
			c.nameOK = c.nameOK && c.name != ""
			c.begin()
		}
		c.capture = captureNone
		if c.inArgs {
			c.inArgs = false
			c.flush()
		}
	}
}

// begin sends the call's first partial event once both its name and its
// arguments have come (before that the object may be something other than a
// call), then any arguments that came before the name.
func (c *callScan) begin() {
	if !c.stream || c.started || !c.nameOK || !c.seenArgs {
		return
	}
	c.started = true
	c.emit(syntax.Event{Type: syntax.Call, Partial: true, Name: c.name, Index: c.index,
		Span: syntax.Span{Start: c.callFrom, End: c.at}})
	if len(c.pending) > 0 {
		c.emit(syntax.Event{Type: syntax.Call, Partial: true, Name: c.name, Index: c.index, Delta: string(c.pending), Span: c.pendingSpan})
		c.pending = c.pending[:0]
	}
}

// flush sends the argument text compacted so far (a UTF-8 character cut at
// its end waits for the rest), or keeps it until the name has come.
func (c *callScan) flush() {
	n := scan.CompleteUTF8(c.out)
	end := c.at - int64(len(c.out)-n)
	if n > 0 {
		span := syntax.Span{Start: c.outFrom, End: end}
		if c.started {
			c.emit(syntax.Event{Type: syntax.Call, Partial: true, Name: c.name, Index: c.index, Delta: string(c.out[:n]), Span: span})
		} else {
			if len(c.pending) == 0 {
				c.pendingSpan.Start = span.Start
			}
			c.pendingSpan.End = span.End
			c.pending = append(c.pending, c.out[:n]...)
		}
		c.outFrom = end
	}
	c.out = append(c.out[:0], c.out[n:]...)
}

// readCall reads a complete, valid JSON object as a call. shaped says
// whether it has the keys of one: a name and arguments, or, after
// <|python_tag|> (tagged), a name. The name must be a non-empty string;
// the arguments an object, null, or a string holding an object (decoded
// once; "" is {}). A key given twice counts the first time.
func readCall(obj []byte, tagged bool) (name string, args []byte, shaped bool, problem string) {
	var haveName, nameOK, haveArgs bool
	var rawArgs []byte
	jsonscan.Members(obj, func(k string, v []byte) bool {
		switch {
		case k == keyName && !haveName:
			haveName = true
			name, nameOK = jsonscan.Unquote(v)
		case isArgsKey(k) && !haveArgs:
			haveArgs = true
			rawArgs = v
		}
		return true
	})
	shaped = haveName && (haveArgs || tagged)
	switch {
	case !haveName:
		return "", nil, shaped, `the JSON object has no "name"`
	case !nameOK:
		return "", nil, shaped, `the call's "name" is not a string`
	case name == "":
		return "", nil, shaped, `the call's "name" is empty`
	case rawArgs == nil || string(rawArgs) == "null":
		return name, []byte("{}"), shaped, ""
	}
	switch jsonscan.Kind(rawArgs) {
	case '{':
		return name, jsonscan.Compact(rawArgs), shaped, ""
	case '"':
		s, _ := jsonscan.Unquote(rawArgs)
		if len(jsonscan.TrimSpace([]byte(s))) == 0 {
			return name, []byte("{}"), shaped, ""
		}
		if obj, ok := wholeJSON([]byte(s)); ok && jsonscan.Kind(obj) == '{' {
			return name, jsonscan.Compact(obj), shaped, ""
		}
		return name, nil, shaped, "the arguments of " + name + " are a string that does not hold a JSON object"
	}
	return name, nil, shaped, "the arguments of " + name + " are " + jsonscan.KindName(jsonscan.Kind(rawArgs)) + ", not an object"
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
