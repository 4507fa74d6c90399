package glm_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/parsebench"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/glm"
)

const denseTools = 10000

// toolDense is a transcript of n small tools of three params each, a line of
// prose between them; doc is a JSON document of about the same size holding
// the same calls, for the encoding/json.Valid baseline.
func toolDense(n int) (in, doc []byte) {
	var b, j bytes.Buffer
	j.WriteString("[")
	for i := range n {
		fmt.Fprintf(&b, "Reading part %d.\n<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>src/pkg%d/file.go</arg_value>\n<arg_key>start</arg_key>\n<arg_value>%d</arg_value>\n<arg_key>end</arg_key>\n<arg_value>%d</arg_value>\n</tool_call>\n", i, i%97, i, i+40)
		if i > 0 {
			j.WriteString(",")
		}
		fmt.Fprintf(&j, `{"text":"Reading part %d.","name":"read_file","args":{"path":"src/pkg%d/file.go","start":"%d","end":"%d"}}`, i, i%97, i, i+40)
	}
	j.WriteString("]")
	return b.Bytes(), j.Bytes()
}

// BenchmarkToolDense: 10,000 tools of three params each (about 1.3 MB),
// with encoding/json.Valid over a JSON document of the same calls.
func BenchmarkToolDense(b *testing.B) {
	in, doc := toolDense(denseTools)
	b.Run("whole", func(b *testing.B) { parsebench.Parse(b, glm.Syntax.New, in, 0, syntax.EventMode, denseTools) })
	b.Run("chunk4", func(b *testing.B) { parsebench.Parse(b, glm.Syntax.New, in, 4, syntax.EventMode, denseTools) })
	b.Run("token/chunk4", func(b *testing.B) { parsebench.Parse(b, glm.Syntax.New, in, 4, syntax.TokenMode, denseTools) })
	b.Run("json.Valid", func(b *testing.B) { parsebench.Valid(b, doc) })
}

// BenchmarkValue300KModes: one tool with a 300 KB value, event and token
// mode, with encoding/json.Valid over the same call as JSON.
func BenchmarkValue300KModes(b *testing.B) {
	in := bigValue(300 << 10)
	start := bytes.Index(in, []byte("<arg_key>content</arg_key>\n<arg_value>")) + len("<arg_key>content</arg_key>\n<arg_value>")
	end := bytes.LastIndex(in, []byte("</arg_value>\n</tool_call>"))
	doc, _ := json.Marshal(map[string]any{"name": "write_file", "args": map[string]string{"path": "big.go", "content": string(in[start:end])}})
	b.Run("whole", func(b *testing.B) { parsebench.Parse(b, glm.Syntax.New, in, 0, syntax.EventMode, 0) })
	b.Run("chunk4", func(b *testing.B) { parsebench.Parse(b, glm.Syntax.New, in, 4, syntax.EventMode, 0) })
	b.Run("token/whole", func(b *testing.B) { parsebench.Parse(b, glm.Syntax.New, in, 0, syntax.TokenMode, 0) })
	b.Run("token/chunk4", func(b *testing.B) { parsebench.Parse(b, glm.Syntax.New, in, 4, syntax.TokenMode, 0) })
	b.Run("json.Valid", func(b *testing.B) { parsebench.Valid(b, doc) })
}

// emptyParams is one tool block of about size bytes holding nothing but
// empty params: the most params a block of that size can hold.
func emptyParams(size int) []byte {
	const param = "<arg_key>a</arg_key><arg_value></arg_value>"
	open, end := "<tool_call>t", "</tool_call>"
	n := (size - len(open) - len(end)) / len(param)
	return []byte(open + strings.Repeat(param, n) + end)
}

// BenchmarkEmptyParams8MB: one block just under the default 8 MiB limit
// made of about 440,000 empty params. It reports the heap's peak and the
// bytes allocated per parse, in MB and as multiples of the block's size.
func BenchmarkEmptyParams8MB(b *testing.B) {
	parsebench.PeakHeap(b, glm.Syntax.New, emptyParams(syntax.DefaultMaxBlock))
}
