package llama3

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
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

var callKeys = jsoncall.Keys{Name: keyName, Args: keyParams, AltArgs: keyArgs}

// callScan reads one JSON object that may be a call, as its bytes arrive:
// it validates it (through its jsonscan.JSON), notes the call keys of its
// top level, and in token mode (an Emit set) streams its arguments, once
// both its name and its arguments have come. The parser and the detector
// share it, so that both decide alike what is a call.
type callScan struct {
	js jsonscan.JSON
	as jsoncall.ArgStream
}

// reset prepares for a new object; index numbers its call among those the
// stream has streamed.
func (c *callScan) reset(maxDepth, index int) {
	c.js.Reset(maxDepth)
	c.as.JSON, c.as.Keys, c.as.WaitArgs = &c.js, callKeys, true
	c.as.Reset()
	c.as.SetIndex(index)
}

// scan scans p, which stands at offset off of the input, and returns the
// bytes consumed (as jsonscan.JSON.Scan does).
func (c *callScan) scan(p []byte, off int64) int { return c.as.Scan(p, off) }

// readCall reads a complete, valid JSON object as a call. shaped says
// whether it has the keys of one: a name and arguments, or, after
// <|python_tag|> (tagged), a name. The name must be a non-empty string;
// the arguments an object, null, or a string holding an object (decoded
// once; "" is {}). A key given twice counts the first time. An "id" string
// is kept, though Llama 3's calls have none (as jsoncall keeps one).
func readCall(obj []byte, tagged bool) (name, id string, args []byte, shaped bool, problem string) {
	var haveName, nameOK, haveArgs, haveID bool
	var rawArgs []byte
	jsonscan.MembersRaw(obj, func(kb, v []byte) bool {
		k := string(kb) // only compared: no allocation
		switch {
		case k == keyName && !haveName:
			haveName = true
			name, nameOK = jsonscan.Unquote(v)
		case isArgsKey(k) && !haveArgs:
			haveArgs = true
			rawArgs = v
		case k == "id" && !haveID:
			haveID = true
			id, _ = jsonscan.Unquote(v) // an id of another type is ignored
		}
		return true
	})
	shaped = haveName && (haveArgs || tagged)
	switch {
	case !haveName:
		return "", "", nil, shaped, `the JSON object has no "name"`
	case !nameOK:
		return "", "", nil, shaped, `the call's "name" is not a string`
	case name == "":
		return "", "", nil, shaped, `the call's "name" is empty`
	}
	args, k, ok := jsoncall.Args(rawArgs, 0)
	switch {
	case ok:
		return name, id, args, shaped, ""
	case k == '"':
		return name, "", nil, shaped, "the arguments of " + name + " are a string that does not hold a JSON object"
	}
	return name, "", nil, shaped, "the arguments of " + name + " are " + jsonscan.KindName(k) + ", not an object"
}
