// The batch and results: the calls since the last execute, the execute
// that covers their blocks, and the Result blocks whose results are paired
// with the calls by position.

package tagcall

import (
	"bytes"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/internal/params"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Batch is the names of the calls since the last execute or results, for
// results to name their tool by position, and the source of their blocks.
type Batch struct {
	names      []string
	executed   bool // an execute closed the batch
	result     int  // the results read since the execute
	start, end int64
	// streamed is the calls token mode numbered since the last execute:
	// a JSON block's first call takes the next number.
	streamed int
}

// Open is called as a call opens: after an execute it starts a new batch.
func (b *Batch) Open() {
	if b.executed {
		b.names, b.executed, b.result, b.streamed = b.names[:0], false, 0, 0
	}
}

// Add records a call emitted with name, its block from start to end.
func (b *Batch) Add(name string, start, end int64) {
	if len(b.names) == 0 {
		b.start = start
	}
	b.names = append(b.names, name)
	b.end = end
}

// Extend makes the batch's blocks end at end.
func (b *Batch) Extend(end int64) { b.end = end }

// Execute emits the execute of the batch to c, if it has calls not
// executed. The execute covers the batch's blocks, markers included.
func (b *Batch) Execute(c *scan.Core) {
	if len(b.names) > 0 && !b.executed {
		c.Emit(syntax.Event{Type: syntax.Execute, Span: syntax.Span{Start: b.start, End: b.end}})
		b.executed = true
		b.result = 0
	}
}

// nextTool is the tool of the next result: the executed call at its
// position, or "".
func (b *Batch) nextTool() string {
	tool := ""
	if b.executed && b.result < len(b.names) {
		tool = b.names[b.result]
	}
	b.result++
	return tool
}

// Response keeps a block's bytes in blk up to and with closer, within c's
// block limit: a tool response's, or a broken JSON block's up to its
// closer. It returns the bytes of data taken and whether
// closer was among them.
func Response(c *scan.Core, blk *scan.Block, data []byte, eof bool, closer string) (n int, closed bool) {
	if i := bytes.Index(data, []byte(closer)); i >= 0 {
		n := i + len(closer)
		blk.Keep(data[:n], c.Options().BlockLimit())
		return n, true
	}
	n = len(data)
	if !eof {
		n -= scan.PartialSuffix(data, closer)
	}
	blk.Keep(data[:n], c.Options().BlockLimit())
	return n, false
}

// Result emits to c the result of the tool response kept whole in blk from
// start, opener and closer included, its content without one line end
// after opener and one before closer — or, asJSON, without the white space
// around it, and the JSON value it holds when it holds one; or its error
// when it is over the limit.
func (b *Batch) Result(c *scan.Core, blk *scan.Block, start syntax.Pos, opener, closer string, asJSON bool) {
	span := syntax.Span{Start: start.Offset, End: start.Offset + blk.Len}
	if blk.Over {
		c.Errorf(syntax.CodeOverLimit, start, span, nil, "a tool response longer than the limit of %d bytes", c.Options().BlockLimit())
		return
	}
	content := blk.Bytes[len(opener) : len(blk.Bytes)-len(closer)]
	var value []byte
	if asJSON {
		content = jsonscan.TrimSpace(content)
		if _, ok := jsonscan.Whole(content, c.Options().DepthLimit()); ok {
			value = jsonscan.Compact(content)
		}
	} else {
		content = bytes.TrimPrefix(content, []byte{'\n'})
		content = bytes.TrimSuffix(content, []byte{'\n'})
	}
	if value == nil {
		value = params.Quote(nil, content)
	}
	tool := b.nextTool()
	c.Emit(syntax.Event{Type: syntax.Result, Tool: tool, Status: syntax.Success, Value: value, Span: span})
}
