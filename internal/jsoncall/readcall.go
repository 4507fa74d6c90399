// Package jsoncall reads the JSON call objects that syntaxes write calls as
// ({"name": …, "args": {…}, "id": …}, with each syntax's own key names): a
// finished object with [ReadCall], one arriving in pieces with [ArgStream].
package jsoncall

import (
	"strconv"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// Keys names the members of a call object.
type Keys struct {
	Name, Args, ID string
	// AltArgs, when not "", is another key the args may be under; the
	// first of Args and AltArgs that comes counts. An ID of "" means the
	// format names no id key: an "id" member is then still read (a call
	// that holds one keeps it); renderers write no id.
	AltArgs string
	// StringArgs takes args given as a JSON string that holds one object
	// (decoded once, as [Args] reads them), as the model formats whose
	// templates write them so allow.
	StringArgs bool
	// NameKey says a call object is {NAME: ARGS}: its one member's key is
	// the call's name and its value the args (Apertus). Name, Args and ID
	// are then unused.
	NameKey bool
}

// IsArgs reports whether key holds a call's args: the syntax's own key or
// its AltArgs.
func (k Keys) IsArgs(key string) bool { return key == k.Args || k.AltArgs != "" && key == k.AltArgs }

// IsOtherArgs reports whether key is one that models write a call's args
// under in another JSON call format (arguments, parameters, args): when the
// syntax's own key is absent, its object is the args — a model that writes
// "parameters" where its format says "arguments" meant its arguments, once
// dropped for {} (Ollama's and llama.cpp's JSON parsers take either). Only
// the own keys stream in token mode.
func (k Keys) IsOtherArgs(key string) bool {
	return !k.IsArgs(key) && (key == "arguments" || key == "parameters" || key == "args")
}

// isID reports whether key holds the call's id: the syntax's own key, or,
// where the syntax names none, "id". A call object that holds an id keeps
// it, as it keeps args under another format's key (IsOtherArgs): Apriel's
// calls, in the <tool_calls> block Hunyuan writes without ids, carry one,
// and a call read without its id cannot be paired with its result.
func (k Keys) isID(key string) bool {
	if k.ID == "" {
		return key == "id"
	}
	return key == k.ID
}

// Default is the keys xmljson and delimiter use: name, args and id.
var Default = Keys{Name: "name", Args: "args", ID: "id"}

// ReadCall reads a validated JSON object of the form {"name": …, "args": {…},
// "id": …}, its keys named by keys: name a non-empty string; args an object,
// or absent or null for {}; an id string kept (an id of another type is
// ignored); other keys ignored. A key given twice counts the first time (as
// token mode streams it). It returns the compacted args, or a problem saying
// what is wrong.
func ReadCall(obj []byte, keys Keys) (name, id string, args []byte, problem string) {
	name, id, args, problem, _ = ReadCallAt(obj, jsonscan.SkipSpace(obj, 0), keys)
	return name, id, args, problem
}

// ReadCallAt is [ReadCall] on the value that starts at b[i]; end is the
// index just past it, found by reading it: a reader of an array of calls
// walks each call once, and its args twice (to find their end, then to
// compact them into a buffer of their size).
func ReadCallAt(b []byte, i int, keys Keys) (name, id string, args []byte, problem string, end int) {
	if k := jsonscan.Kind(b[i:]); k != '{' {
		return "", "", nil, "is " + jsonscan.KindName(k) + ", not an object", jsonscan.SkipValue(b, i)
	}
	if keys.NameKey {
		return readNameKey(b, i, keys)
	}
	var haveName, nameOK, haveID bool
	var rawArgs, otherArgs []byte
	argsKey := keys.Args
	obj := b[i:]
	end = i + jsonscan.EachMember(obj, func(k []byte, j int) int {
		switch {
		case string(k) == keys.Name && !haveName:
			haveName = true
			vend := jsonscan.SkipValue(obj, j)
			name, nameOK = jsonscan.Unquote(obj[j:vend])
			return vend
		case keys.IsArgs(string(k)) && rawArgs == nil:
			vend := jsonscan.SkipValue(obj, j)
			rawArgs = obj[j:vend]
			if string(k) != keys.Args {
				argsKey = keys.AltArgs
			}
			return vend
		case keys.IsOtherArgs(string(k)) && otherArgs == nil:
			vend := jsonscan.SkipValue(obj, j)
			otherArgs = obj[j:vend]
			return vend
		case keys.isID(string(k)) && !haveID:
			haveID = true
			vend := jsonscan.SkipValue(obj, j)
			id, _ = jsonscan.Unquote(obj[j:vend])
			return vend
		}
		return jsonscan.SkipValue(obj, j)
	})
	if rawArgs == nil && otherArgs != nil {
		rawArgs = otherArgs
		argsKey = otherKey(obj, keys)
	}
	name, id, args, problem = checkCall(keys, argsKey, name, id, rawArgs, haveName, nameOK)
	return name, id, args, problem, end
}

// otherKey is the first of the other args keys in the object obj (the one
// ReadCallAt took the args from), for a problem's message.
func otherKey(obj []byte, keys Keys) string {
	key := ""
	jsonscan.EachMember(obj, func(k []byte, j int) int {
		if key == "" && keys.IsOtherArgs(string(k)) {
			key = string(k)
		}
		return jsonscan.SkipValue(obj, j)
	})
	return key
}

// checkCall words what ReadCallAt found, the args under argsKey. A problem
// names the call's name quoted as JSON.
func checkCall(keys Keys, argsKey, name, id string, rawArgs []byte, haveName, nameOK bool) (string, string, []byte, string) {
	switch {
	case !haveName:
		return "", "", nil, "has no " + quote(keys.Name)
	case !nameOK:
		return "", "", nil, "has a " + quote(keys.Name) + " that is not a string"
	case name == "":
		return "", "", nil, "has an empty " + quote(keys.Name)
	case rawArgs == nil || string(rawArgs) == "null":
		return name, id, []byte("{}"), ""
	case keys.StringArgs && jsonscan.Kind(rawArgs) == '"':
		if args, _, ok := Args(rawArgs, 0); ok {
			return name, id, args, ""
		}
		return name, id, nil, string(syntax.AppendQuote(nil, name)) + " has " + quote(argsKey) + " that is a string holding no JSON object"
	case jsonscan.Kind(rawArgs) != '{':
		return name, id, nil, string(syntax.AppendQuote(nil, name)) + " has " + quote(argsKey) + " that is " + jsonscan.KindName(jsonscan.Kind(rawArgs)) + ", not an object"
	}
	return name, id, jsonscan.Compact(rawArgs), ""
}

func quote(key string) string { return `"` + key + `"` }

// readNameKey reads a call object of the form {NAME: ARGS} at b[i].
func readNameKey(b []byte, i int, keys Keys) (name, id string, args []byte, problem string, end int) {
	obj := b[i:]
	members := 0
	var rawArgs []byte
	end = i + jsonscan.EachMember(obj, func(k []byte, j int) int {
		members++
		vend := jsonscan.SkipValue(obj, j)
		if members == 1 {
			name, rawArgs = string(k), obj[j:vend]
		}
		return vend
	})
	switch {
	case members == 0:
		return "", "", nil, "is an empty object (a call is {NAME: {arguments}})", end
	case members > 1:
		return "", "", nil, "has " + strconv.Itoa(members) + " members (a call is {NAME: {arguments}}, one member)", end
	}
	keys.Args = name // the problem's message names the one member
	name, id, args, problem = checkCall(keys, name, name, "", rawArgs, true, true)
	return name, id, args, problem, end
}
