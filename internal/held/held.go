// Package held keeps what a parser must remember of a batch's calls after
// it has handed them on — their names and ids, to name the tool of a
// result by its position or to report calls that no execute followed —
// small, and counted against the block limit.
package held

import (
	"strconv"
	"strings"
)

// Overhead is what a held call costs beside its name and id, in bytes.
const Overhead = 32

// Ref is one held call.
type Ref struct{ Name, ID string }

// Calls is the held calls of one batch. The zero value is empty.
type Calls struct {
	list  []Ref
	bytes int
}

// Add holds a call, unless its cost (its name, its id and Overhead) would
// take the calls held over limit bytes: then it reports false and holds
// nothing, and the parser reports the call as over the limit instead of
// delivering it. A batch of more calls than the limit allows is refused
// call by call, from the first that does not fit, and never held without
// bound.
func (c *Calls) Add(name, id string, limit int) bool {
	cost := Overhead + len(name) + len(id)
	if c.bytes+cost > limit {
		return false
	}
	c.bytes += cost
	c.list = append(c.list, Ref{name, id})
	return true
}

// Len is the number of calls held.
func (c *Calls) Len() int { return len(c.list) }

// At returns the i-th call held, or the zero Ref when there is none.
func (c *Calls) At(i int) Ref {
	if i < 0 || i >= len(c.list) {
		return Ref{}
	}
	return c.list[i]
}

// Find returns the held call whose id is id, looking first at the i-th
// (results usually come in the order of their calls), or the zero Ref.
func (c *Calls) Find(id string, i int) Ref {
	if r := c.At(i); r.ID == id {
		return r
	}
	for _, r := range c.list {
		if r.ID == id {
			return r
		}
	}
	return Ref{}
}

// Bytes is what the calls held cost.
func (c *Calls) Bytes() int { return c.bytes }

// Reset empties c, keeping its memory unless it grew large.
func (c *Calls) Reset() {
	c.list, c.bytes = c.list[:0], 0
	if cap(c.list) > 4096 {
		c.list = nil
	}
}

// Names lists the names held, at most max of them, and how many more.
func (c *Calls) Names(max int) string {
	var b strings.Builder
	for i, r := range c.list {
		if i == max {
			b.WriteString(", and " + strconv.Itoa(len(c.list)-max) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(r.Name)
	}
	return b.String()
}
