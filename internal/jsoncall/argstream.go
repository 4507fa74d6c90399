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
// error, says what they are. It does not validate: the syntax's own
// scanner does.
//
// Depth is the nesting at which call objects stand: 0 when the JSON value is
// the call (delimiter), 1 when the calls are the elements of an array
// (xmljson).
type ArgStream struct {
	Depth int
	Keys  Keys // the call object's key names; the zero value means Default
	Emit  func(syntax.Event)

	depth      int
	inStr, esc bool
	member     int    // where in the call object's members: see the consts below
	key        []byte // the member key being read
	keyName    string // the key whose value is being read
	nameRaw    []byte // the name value's raw string, quotes included
	name       string
	nameDone   bool
	id         string
	idRaw      []byte
	argsOpen   bool   // inside the args object
	argsDepth  int    // depth at which the args object closes
	pending    []byte // args text waiting for the name
	started    bool
	argsSeen   bool
	index      int // of the call among those this stream has seen since Reset
	calls      int
	out        []byte
	carry      []byte // the start of a UTF-8 character cut off at the end of the last delta
	compactor  jsonscan.Compactor
	valueDepth int
}

const (
	memKey   = iota // expecting a key (or the end of the object)
	memInKey        // inside a key string
	memColon        // after a key, expecting ':'
	memValue        // expecting a value
	memInValue
)

func (a *ArgStream) keys() Keys {
	if a.Keys == (Keys{}) {
		return Default
	}
	return a.Keys
}

// Reset prepares for a new stream of calls.
func (a *ArgStream) Reset() {
	*a = ArgStream{Depth: a.Depth, Keys: a.Keys, Emit: a.Emit, key: a.key[:0], nameRaw: a.nameRaw[:0], pending: a.pending[:0]}
}

// Feed takes the next piece of JSON text.
func (a *ArgStream) Feed(p []byte) {
	argsFrom := -1
	if a.argsOpen {
		argsFrom = 0
	}
	for i := 0; i < len(p); i++ {
		b := p[i]
		if a.inStr {
			switch {
			case a.esc:
				a.esc = false
			case b == '\\':
				a.esc = true
			case b == '"':
				a.inStr = false
			}
			a.capture(b)
			continue
		}
		callLevel := a.depth == a.Depth+1 // directly inside a call object
		switch b {
		case '"':
			a.inStr = true
			if callLevel && a.member == memKey {
				a.member = memInKey
				a.key = a.key[:0]
				continue
			}
			if callLevel && a.member == memValue {
				a.member = memInValue
				a.valueDepth = a.depth
				if a.keyName == a.keys().Name {
					a.nameRaw = append(a.nameRaw[:0], '"')
				} else if a.keyName == a.keys().ID {
					a.idRaw = append(a.idRaw[:0], '"')
				}
				continue
			}
			a.capture(b)
		case '{', '[':
			if a.depth == a.Depth && b == '{' {
				a.startCall()
			}
			if callLevel && a.member == memValue {
				a.member = memInValue
				a.valueDepth = a.depth
				if a.keyName == a.keys().Args && b == '{' && !a.argsSeen { // args given twice: the first counts
					a.argsSeen = true
					a.argsOpen = true
					a.argsDepth = a.depth + 1
					argsFrom = i
				}
			}
			a.depth++
		case '}', ']':
			a.depth--
			if a.argsOpen && a.depth == a.argsDepth-1 {
				a.flushArgs(p[argsFrom : i+1])
				argsFrom = -1
				a.argsOpen = false
			}
			if a.depth == a.Depth+1 && a.member == memInValue && a.valueDepth == a.depth {
				a.member = memKey // a container value ended
			}
			if a.depth == a.Depth && b == '}' {
				a.endCall()
			}
		case ':':
			if callLevel && a.member == memColon {
				a.member = memValue
			}
		case ',':
			if callLevel {
				a.member = memKey
			}
		default:
			if callLevel && a.member == memValue && !jsonscan.IsSpace(b) {
				a.member = memInValue // a number or literal
				a.valueDepth = a.depth
			}
		}
	}
	if a.argsOpen && argsFrom >= 0 {
		a.flushArgs(p[argsFrom:])
	}
}

// capture records string bytes of keys and of the name and id values.
func (a *ArgStream) capture(b byte) {
	if a.depth != a.Depth+1 {
		return
	}
	switch a.member {
	case memInKey:
		if a.inStr {
			a.key = append(a.key, b)
		} else {
			a.keyName = string(a.key)
			if k, ok := jsonscan.Unquote(append(append([]byte{'"'}, a.key...), '"')); ok {
				a.keyName = k
			}
			a.member = memColon
		}
	case memInValue:
		switch a.keyName {
		case a.keys().Name:
			a.nameRaw = append(a.nameRaw, b)
			if !a.inStr {
				if !a.nameDone { // a name given twice counts the first time
					a.name, _ = jsonscan.Unquote(a.nameRaw)
					a.nameDone = true
				}
				a.member = memKey
				a.begin()
			}
		case a.keys().ID:
			a.idRaw = append(a.idRaw, b)
			if !a.inStr {
				a.id, _ = jsonscan.Unquote(a.idRaw)
				a.member = memKey
			}
		default:
			if !a.inStr {
				a.member = memKey
			}
		}
	}
}

func (a *ArgStream) startCall() {
	a.member, a.name, a.nameDone, a.id, a.started, a.argsSeen = memKey, "", false, "", false, false
	a.carry = a.carry[:0]
	a.index = a.calls
	a.calls++
	a.pending = a.pending[:0]
	a.compactor.Reset()
}

// begin emits the call's first partial event once its name is known, then
// any args that came before it.
func (a *ArgStream) begin() {
	if a.started || !a.nameDone || a.name == "" {
		return
	}
	a.started = true
	a.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: a.name, ID: a.id, Index: a.index})
	if len(a.pending) > 0 {
		a.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: a.name, Index: a.index, Delta: string(a.pending)})
		a.pending = a.pending[:0]
	}
}

func (a *ArgStream) flushArgs(p []byte) {
	a.out = a.compactor.Append(append(a.out[:0], a.carry...), p)
	a.carry = a.carry[:0]
	// Keep a character the chunk cut for the next delta: a delta is a
	// string and must not split one. (The args end with '}', so nothing is
	// kept at their end.)
	n := scan.CompleteUTF8(a.out)
	a.carry = append(a.carry, a.out[n:]...)
	a.out = a.out[:n]
	if len(a.out) == 0 {
		return
	}
	if !a.started {
		a.pending = append(a.pending, a.out...)
		return
	}
	a.Emit(syntax.Event{Type: syntax.Call, Partial: true, Name: a.name, Index: a.index, Delta: string(a.out)})
}

func (a *ArgStream) endCall() {
	a.member = memKey
	a.argsOpen = false
}
