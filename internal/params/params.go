// Package params builds the arguments of syntaxes whose values are strings
// (Params), and writes arguments back as such strings (Strings).
package params

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"unsafe"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// Params builds the arguments of syntaxes whose values are strings (caret,
// xmltag, and the raw-value model formats): parameters in the order their
// keys first appear, each a string or an array of strings. A key added more
// than once becomes an array.
//
// The arguments' JSON is written as the values come, into one buffer: a
// key's first value is quoted straight after it, and when no key repeats,
// that buffer, closed, is the JSON object itself. What a block of many small
// parts costs beside its JSON is then a hash index of 4 bytes a slot (75%
// full at most) over the keys, found by their offsets in that buffer: no
// string, map entry or record per key. The values of a key beyond its first
// are quoted into a second buffer, in segments that a run of values of one
// key shares (8 bytes of bookkeeping a segment), and spliced in once, into
// a buffer of the exact size, when the JSON is taken.
//
// The zero value is empty and ready.
type Params struct {
	out   []byte   // '{', then `"key":value` per key, comma separated; a list with no value yet has "[]"
	n     int      // keys in out
	table []uint32 // open addressing over the keys: 0 empty, else the key's offset in out + 1, or a list index | isList
	lists []list   // the keys that are arrays
	side  []byte   // the values of arrays after the first, in segments (see list)
	q     []byte   // scratch: the quoted key being looked up

	last    []byte // the raw key of the last value added, and its slot, for runs of one key
	lastPos int    // -1: none
	raw     bool   // the value being added is JSON already (AddRaw)
}

// list is a key whose value is an array. Its values after the first are
// quoted into Params.side, each after a ',', in segments: an 8-byte header
// (the next segment's offset + 1 or 0, the segment's length) and the values.
// A value of the key that comes right after the key's last segment extends
// it.
type list struct {
	key        uint32 // the key's offset in out
	first      bool   // out holds the first value after the key (else the "[]" of a list with none)
	head, tail uint32 // offsets in side of the first and last segment's header, + 1; 0: none
}

const isList = 1 << 31

const segHeader = 8

var seed = maphash.MakeSeed()

// Hint sizes the buffers, before the first value, for about jsonBytes of
// arguments and keys keys.
func (ps *Params) Hint(jsonBytes, keys int) {
	if ps.out == nil && jsonBytes > 0 {
		ps.out = append(make([]byte, 0, jsonBytes), '{')
	}
	if keys > 0 && len(ps.table)*3 < keys*4 { // none, or one kept from a smaller call
		ps.table = make([]uint32, max(8, keys+keys/3+1))
	}
}

// Add appends vals to key. list makes the value an array even when it holds
// one string (a YAML list of one item); a key given no value is an empty
// array.
func (ps *Params) Add(key string, list bool, vals ...string) {
	k := []byte(key)
	if len(vals) == 0 {
		ps.add(k, nil, false, true)
	}
	for _, v := range vals {
		ps.add(k, []byte(v), true, list)
	}
}

// AddBytes appends one value, given as bytes, to key, as Add(key, false,
// string(v)) would without making the string.
func (ps *Params) AddBytes(key string, v []byte) {
	ps.add(view(key), v, true, false)
}

// AddKey appends one value to key, both given as bytes; list makes the
// value an array even when it holds one string.
func (ps *Params) AddKey(key, v []byte, list bool) { ps.add(key, v, true, list) }

// AddRaw appends one value to key that is JSON already (a value a schema
// or the format typed), written as it is.
func (ps *Params) AddRaw(key, raw []byte) {
	ps.raw = true
	ps.add(key, raw, true, false)
	ps.raw = false
}

// List makes key an array, with no value if it has none.
func (ps *Params) List(key []byte) { ps.add(key, nil, false, true) }

// Has reports whether key was added.
func (ps *Params) Has(key string) bool {
	if ps.n == 0 {
		return false
	}
	ps.q = Quote(ps.q[:0], view(key))
	_, found := ps.lookup(ps.q)
	return found
}

// view is s as bytes, for reading only: Params never writes a key.
func view(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Quote appends b as a JSON string, as syntax.AppendQuote does, without
// first copying b into a string: the string it passes is a view of b for
// the length of the call (AppendQuote only reads it, into dst, and nothing
// writes b meanwhile).
func Quote(dst, b []byte) []byte {
	return syntax.AppendQuote(dst, unsafe.String(unsafe.SliceData(b), len(b)))
}

// add adds the value v of key (none unless has); list makes the key an array.
func (ps *Params) add(key, v []byte, has, asList bool) {
	if len(ps.out) >= math.MaxInt32 || len(ps.side) >= math.MaxInt32 {
		panic("params: more than 2 GiB of arguments in one call")
	}
	pos := -1
	if ps.lastPos >= 0 && ps.n > 0 && string(key) == string(ps.last) {
		pos = ps.lastPos
	} else {
		ps.q = Quote(ps.q[:0], key)
		p, found := ps.lookup(ps.q)
		if !found {
			p = ps.insert(p, v, has, asList)
		}
		ps.last, ps.lastPos = append(ps.last[:0], key...), p
		if !found {
			return
		}
		pos = p
	}
	slot := ps.table[pos]
	if slot&isList == 0 {
		if !has && !asList {
			return
		}
		ps.lists = append(ps.lists, list{key: slot - 1, first: true})
		slot = uint32(len(ps.lists)-1) | isList
		ps.table[pos] = slot
	}
	if has {
		ps.appendTo(&ps.lists[slot&^isList], v)
	}
}

// insert adds the key quoted in ps.q, not yet in the table, whose slot
// would be pos, with its first value. It returns the key's slot.
func (ps *Params) insert(pos int, v []byte, has, asList bool) int {
	n := len(ps.q) + len(v) + 4 // a comma, the colon, the value and its quotes
	if ps.out == nil {
		// Room for a small call's arguments at once (three appends grew
		// an object of two short members from nothing), or for this
		// member and its escapes.
		ps.out = append(make([]byte, 0, max(64, 1+n+n/8)), '{')
	}
	if (ps.n+1)*4 > len(ps.table)*3 {
		ps.grow()
		pos, _ = ps.lookup(ps.q)
	}
	ps.out = room(ps.out, n)
	if ps.n > 0 {
		ps.out = append(ps.out, ',')
	}
	at := uint32(len(ps.out))
	ps.out = append(append(ps.out, ps.q...), ':')
	ps.n++
	slot := at + 1
	if has {
		ps.out = ps.value(ps.out, v)
	} else {
		ps.out = append(ps.out, "[]"...)
	}
	if asList || !has {
		ps.lists = append(ps.lists, list{key: at, first: has})
		slot = uint32(len(ps.lists)-1) | isList
	}
	ps.table[pos] = slot
	return pos
}

// value appends v as the value being added: quoted, or as it is (AddRaw).
func (ps *Params) value(dst, v []byte) []byte {
	if ps.raw {
		return append(dst, v...)
	}
	return Quote(dst, v)
}

// appendTo adds v to the values of l after its first.
func (ps *Params) appendTo(l *list, v []byte) {
	ps.side = room(ps.side, segHeader+len(v)+3)
	if l.tail == 0 || int(l.tail-1)+segHeader+int(segLen(ps.side, l.tail-1)) != len(ps.side) {
		at := uint32(len(ps.side))
		ps.side = append(ps.side, make([]byte, segHeader)...)
		if l.tail == 0 {
			l.head = at + 1
		} else {
			binary.LittleEndian.PutUint32(ps.side[l.tail-1:], at+1)
		}
		l.tail = at + 1
	}
	ps.side = ps.value(append(ps.side, ','), v)
	t := l.tail - 1
	binary.LittleEndian.PutUint32(ps.side[t+4:], uint32(len(ps.side))-t-segHeader)
}

func segLen(side []byte, at uint32) uint32  { return binary.LittleEndian.Uint32(side[at+4:]) }
func segNext(side []byte, at uint32) uint32 { return binary.LittleEndian.Uint32(side[at:]) }
func segBytes(side []byte, at uint32) []byte {
	return side[at+segHeader : at+segHeader+segLen(side, at)]
}

// lookup finds the key quoted in q: its slot, or where it would go.
func (ps *Params) lookup(q []byte) (pos int, found bool) {
	if len(ps.table) == 0 {
		return -1, false
	}
	pos = ps.home(q)
	for {
		slot := ps.table[pos]
		if slot == 0 {
			return pos, false
		}
		if at := ps.keyAt(slot); len(ps.out)-int(at) > len(q) && string(ps.out[at:int(at)+len(q)]) == string(q) {
			return pos, true
		}
		if pos++; pos == len(ps.table) {
			pos = 0
		}
	}
}

// home is where the probe for the quoted key q starts.
func (ps *Params) home(q []byte) int {
	return int((maphash.Bytes(seed, q) >> 32) * uint64(len(ps.table)) >> 32)
}

// keyAt is the offset in out of the key a table slot holds.
func (ps *Params) keyAt(slot uint32) uint32 {
	if slot&isList != 0 {
		return ps.lists[slot&^isList].key
	}
	return slot - 1
}

// grow doubles the table.
func (ps *Params) grow() {
	old := ps.table
	ps.table = make([]uint32, max(8, 2*len(old)))
	for _, slot := range old {
		if slot == 0 {
			continue
		}
		at := ps.keyAt(slot)
		pos := ps.home(ps.out[at:quotedEnd(ps.out, int(at))])
		for ps.table[pos] != 0 {
			if pos++; pos == len(ps.table) {
				pos = 0
			}
		}
		ps.table[pos] = slot
	}
	ps.lastPos = -1
}

// room makes room in b for n more bytes, at least doubling its capacity
// when it grows: append grows a long slice by 1.25× a step, and the
// garbage of those steps, while an object of many small members grows, is
// several times the object. A long value gets an eighth more for its
// escapes, as syntax.AppendQuote would give it (else it grows b again).
func room(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		b = slices.Grow(b, max(n+n/8, cap(b)))
	}
	return b
}

// quotedEnd returns the end of the JSON string that starts at b[i].
func quotedEnd(b []byte, i int) int {
	for j := i + 1; ; j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
}

// JSON returns the parameters as a JSON object, and empties ps: the bytes
// are the caller's.
func (ps *Params) JSON() []byte {
	if ps.out == nil {
		ps.out = append(ps.out, '{')
	}
	if len(ps.lists) == 0 {
		b := append(ps.out, '}')
		ps.reset()
		return b
	}
	// Splice each array's values in, at its key, in the order of the keys.
	slices.SortFunc(ps.lists, func(a, b list) int { return int(a.key) - int(b.key) })
	size := len(ps.out) + 1
	for _, l := range ps.lists {
		if l.first {
			size += 2 // the brackets around the first value; else "[]" stands in out
		}
		for at := l.head; at != 0; at = segNext(ps.side, at-1) {
			size += int(segLen(ps.side, at-1))
		}
		if !l.first && l.head != 0 {
			size-- // the comma before the first value
		}
	}
	b := make([]byte, 0, size)
	from := 0
	for _, l := range ps.lists {
		valAt := quotedEnd(ps.out, int(l.key)) + 1 // after the key and ':'
		b = append(append(b, ps.out[from:valAt]...), '[')
		from = valAt + 2 // "[]"
		if l.first {
			from = jsonscan.SkipValue(ps.out, valAt) // a string, or JSON given to AddRaw
			b = append(b, ps.out[valAt:from]...)
		}
		skip := !l.first // the comma before the first value
		for at := l.head; at != 0; at = segNext(ps.side, at-1) {
			seg := segBytes(ps.side, at-1)
			if skip {
				seg, skip = seg[1:], false
			}
			b = append(b, seg...)
		}
		b = append(b, ']')
	}
	b = append(append(b, ps.out[from:]...), '}')
	ps.reset()
	return b
}

// Reset empties ps, keeping its small buffers for the next call.
func (ps *Params) Reset() { ps.reset() }

func (ps *Params) reset() {
	ps.out, ps.n, ps.lastPos = nil, 0, -1
	ps.lists, ps.side, ps.q, ps.last = ps.lists[:0], ps.side[:0], ps.q[:0], ps.last[:0]
	if len(ps.table) > 1<<12 || cap(ps.lists) > 1<<12 || cap(ps.side)+cap(ps.q)+cap(ps.last) > 64<<10 {
		*ps = Params{lastPos: -1} // do not keep a large call's memory for the rest of the stream
		return
	}
	clear(ps.table)
}

// Strings is the inverse of Params, for renderers: it calls param with each
// member of args, a JSON object, as a syntax whose values are strings
// writes it: a string as its text, each item of an array under the key
// repeated, anything else as its JSON text. It returns why the values would
// not read back as args, or "".
func Strings(args []byte, param func(key, value string)) (lossy string) {
	const notStrings = "values that are not strings, written as their JSON text"
	jsonscan.Members(args, func(k string, v []byte) bool {
		switch jsonscan.Kind(v) {
		case '"':
			s, _ := jsonscan.Unquote(v)
			param(k, s)
		case '[':
			n := 0
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				n++
				s, ok := jsonscan.Unquote(e)
				if !ok {
					s, lossy = string(e), notStrings
				}
				param(k, s)
				return true
			})
			if n < 2 {
				lossy = "an array of fewer than two items, which reads back as a string or nothing"
			}
		default:
			param(k, string(v))
			lossy = notStrings
		}
		return true
	})
	return lossy
}
