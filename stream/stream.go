package stream

import (
	"bufio"
	"io"

	"github.com/toolparse/toolparse/syntax"
)

// Writer is where a renderer sends events. Each renderer buffers its output;
// Flush writes what is buffered (the CLI flushes after every input chunk, so
// events appear as they are produced).
type Writer interface {
	Event(e syntax.Event) error
	Flush() error
}

// JSONL writes one event per line in the JSON form of SPEC §2, without HTML
// escaping. With Spans set, each event carries its "span".
type JSONL struct {
	w     *bufio.Writer
	buf   []byte
	Spans bool
}

// NewJSONL returns a JSONL renderer writing to w.
func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: bufio.NewWriter(w)} }

// Event writes e as one line.
func (j *JSONL) Event(e syntax.Event) error {
	j.buf = syntax.AppendJSON(j.buf[:0], e, j.Spans)
	j.buf = append(j.buf, '\n')
	_, err := j.w.Write(j.buf)
	return err
}

// Flush writes buffered output.
func (j *JSONL) Flush() error { return j.w.Flush() }
