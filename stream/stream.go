package stream

import (
	"bufio"
	"io"

	"github.com/toolparse/toolparse/syntax"
)

// JSONL writes one event per line in its JSON form, without HTML escaping.
// With Spans set, each event carries its "span". It is a [syntax.Renderer]
// and a [syntax.Flusher]: output is buffered until Flush or Close.
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

// Close writes buffered output. The JSONL may still be used after it.
func (j *JSONL) Close() error { return j.w.Flush() }
