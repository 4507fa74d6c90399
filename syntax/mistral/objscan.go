package mistral

import (
	"github.com/toolparse/toolparse/internal/jsoncall"
	"github.com/toolparse/toolparse/internal/jsonscan"
)

// The keys of a v3/v7 call object, {"name": …, "arguments": {…}, "id": …}.
const (
	keyName = "name"
	keyArgs = "arguments"
	keyID   = "id"
)

var callKeys = jsoncall.Keys{Name: keyName, Args: keyArgs, ID: keyID}

// objScan scans one JSON object as its bytes arrive, validating it through
// its jsonscan.JSON, and in token mode (stream) streams it through its
// jsoncall.ArgStream:
//
//   - as a call object (keyed): the call's first partial event once its
//     name has come (with its id when that came first), then its
//     "arguments" object's compact text in deltas;
//   - as arguments (not keyed): the whole object's compact text in deltas,
//     the call having been announced already.
type objScan struct {
	js     jsonscan.JSON
	as     jsoncall.ArgStream
	stream bool
	keyed  bool
}

// reset prepares for a new object. For arguments (keyed false), the call
// named name was announced with the given index.
func (o *objScan) reset(maxDepth int, keyed bool, index int, name string) {
	o.js.Reset(maxDepth)
	o.keyed = keyed
	o.as.JSON, o.as.Keys = &o.js, callKeys
	o.as.Reset()
	if keyed {
		o.as.SetIndex(index)
	} else {
		o.as.Bare(name, index, -1)
	}
}

// scan scans p, which stands at offset off of the input, and returns the
// bytes consumed.
func (o *objScan) scan(p []byte, off int64) int {
	if !o.stream {
		return o.js.Scan(p)
	}
	return o.as.Scan(p, off)
}

// readCall reads a complete v3/v7 call object: a non-empty string name,
// arguments an object, null or absent ({}), or a string holding an object
// (decoded once), an id string kept. A key given twice counts the first time.
func readCall(obj []byte) (name, id string, args []byte, problem string) {
	if k := jsonscan.Kind(obj); k != '{' {
		return "", "", nil, "the call is " + jsonscan.KindName(k) + ", not an object"
	}
	var haveName, nameOK, haveID bool
	var rawArgs, otherArgs []byte
	jsonscan.MembersRaw(obj, func(kb, v []byte) bool {
		k := string(kb) // only compared: no allocation
		switch {
		case k == keyName && !haveName:
			haveName = true
			name, nameOK = jsonscan.Unquote(v)
		case callKeys.IsArgs(k) && rawArgs == nil:
			rawArgs = v
		case callKeys.IsOtherArgs(k) && otherArgs == nil:
			otherArgs = v
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
	if rawArgs == nil {
		rawArgs = otherArgs // "parameters" where the format says "arguments"
	}
	args, problem = argsObject(name, rawArgs)
	return name, id, args, problem
}

// argsObject reads arguments: an object (compacted), absent or null ({}),
// or a string holding an object, decoded once ("" is {}).
func argsObject(name string, raw []byte) ([]byte, string) {
	args, k, ok := jsoncall.Args(raw, 0)
	switch {
	case ok:
		return args, ""
	case k == '"':
		return nil, "the arguments of " + name + " are a string that does not hold a JSON object"
	}
	return nil, "the arguments of " + name + " are " + jsonscan.KindName(k) + ", not an object"
}
