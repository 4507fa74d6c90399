// Package trail collects the text that follows a syntax's end marker.
package trail

import (
	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Trail collects what follows a syntax's end marker (xmljson's <end>,
// delimiter's §end). Nothing there is parsed: its text, trimmed, is reported
// as one error with the text as raw, kept up to the block limit.
type Trail struct {
	buf  []byte
	pos  syntax.Pos // the first byte that is not white space
	end  int64      // just after the last byte that is not white space
	have bool
	cut  bool
}

// Add is a step function body: it takes all of data.
func (t *Trail) Add(c *scan.Core, data []byte) int {
	i := 0
	if !t.have {
		i = jsonscan.SkipSpace(data, 0)
		if i == len(data) {
			return len(data)
		}
		t.have = true
		t.pos = scan.Advance(c.Pos(), data[:i])
	}
	room := c.Options().BlockLimit() - len(t.buf)
	if n := len(data) - i; n > room {
		t.cut = true
		t.buf = scan.Append(t.buf, data[i:i+max(room, 0)])
	} else {
		t.buf = scan.Append(t.buf, data[i:])
	}
	for k := len(data); k > i; k-- {
		if !jsonscan.IsSpace(data[k-1]) {
			t.end = c.Offset() + int64(k)
			break
		}
	}
	return len(data)
}

// Report emits the error for the trailing text, if there was any.
func (t *Trail) Report(c *scan.Core, marker string) {
	if !t.have {
		return
	}
	msg := "text after " + marker
	if t.cut {
		msg += " (longer than the block limit; raw cut)"
	}
	c.Errorf(syntax.CodeNotAllowed, t.pos, syntax.Span{Start: t.pos.Offset, End: t.end}, jsonscan.TrimSpace(t.buf), "%s", msg)
}
