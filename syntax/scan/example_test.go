package scan_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// bang is a toy syntax: a line "!NAME" calls the tool NAME (and is its own
// batch); every other line is text for the user.
type bang struct {
	scan.Core
	atLineStart bool
}

func newBang(h syntax.Handler, opts syntax.Options) syntax.Parser {
	p := &bang{atLineStart: true}
	p.Init(h, opts, p.step, nil)
	return p
}

// step consumes one decision: a whole call line, or text up to a line end.
func (p *bang) step(data []byte, eof bool) int {
	end := bytes.IndexByte(data, '\n')
	if p.atLineStart && data[0] == '!' {
		off := p.Offset()
		if end < 0 {
			if !eof {
				return 0 // the name may go on: wait for the line's end
			}
			// A call cut off by the end of the stream is never a call.
			p.Errorf(syntax.CodeTruncated, p.Pos(), syntax.Span{Start: off, End: off + int64(len(data))}, data,
				"call line %q has no line end", data)
			return len(data)
		}
		line := syntax.Span{Start: off, End: off + int64(end)}
		p.Emit(syntax.Event{Type: syntax.Call, Name: string(data[1:end]), Args: json.RawMessage("{}"), Span: line})
		p.Emit(syntax.Event{Type: syntax.Execute, Span: line})
		return end + 1
	}
	n := len(data)
	if end >= 0 {
		n = end + 1
	}
	p.Text(syntax.Respond, data[:n], p.Offset())
	p.atLineStart = end >= 0
	return n
}

// A syntax is a step function driven by a Core: here a toy syntax whose
// lines "!NAME" are calls, fed in chunks that cut its lines anywhere.
func Example() {
	toy := syntax.Syntax{Name: "bang", New: newBang}
	chunks := [][]byte{[]byte("Let me l"), []byte("ook.\n!l"), []byte("s\nDone.\n!rm")}
	for _, e := range syntax.ParseChunks(toy, chunks, syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"respond","content":"Let me look."}
	// {"type":"call","name":"ls","args":{}}
	// {"type":"execute"}
	// {"type":"respond","content":"Done."}
	// {"type":"error","code":"truncated","message":"call line \"!rm\" has no line end","offset":23,"line":4,"column":1,"raw":"!rm"}
	// {"type":"end"}
}

// The toy syntax passes the conformance kit: the same events at every
// chunking, nothing lost, a cut-off call never a call.
func TestBangPassesTheKit(t *testing.T) {
	toy := syntax.Syntax{Name: "bang", New: newBang}
	for _, in := range []string{"Let me look.\n!ls\nDone.\n!rm", "!a\n!b\n\ntext ! not a call\n", "é\n!é\n"} {
		if err := syntaxtest.Check(toy, []byte(in), syntaxtest.Config{}); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}
