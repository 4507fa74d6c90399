package toolparse_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

// The benchmarks here hold every syntax to the same measures (issue 10):
// throughput on prose-heavy and JSON-heavy input, whole and in small chunks,
// and pathological text. docs/performance.md records the figures.

const prose = "The quick brown fox jumps over the lazy dog; numbers like 3 < 4 and a > b appear, so do braces {x} and brackets [y].\n"

// turn writes one turn in syntax name: prose, a call with args, and (where
// the syntax has them) results.
func turn(name string, proseLines int, arg string) string {
	var b strings.Builder
	for range proseLines {
		b.WriteString(prose)
	}
	argJSON, _ := json.Marshal(arg)
	switch name {
	case "xmljson":
		fmt.Fprintf(&b, "<think>Now write it.</think>\n<execute>\n[{\"name\": \"write\", \"args\": {\"path\": \"a.txt\", \"content\": %s}}]\n</execute>\n<results>\n[{\"tool\": \"write\", \"status\": \"success\", \"content\": \"ok\"}]\n</results>\n", argJSON)
	case "delimiter":
		fmt.Fprintf(&b, "§think: Now write it.\n§call: {\"name\": \"write\", \"args\": {\"path\": \"a.txt\", \"content\": %s}}\n§execute\n[SYSTEM: ok]\n§respond: Done.\n", argJSON)
	case "caret":
		fmt.Fprintf(&b, "^^^write\npath: a.txt\n---\n%s\n^^^\n", arg)
	case "xmltag":
		fmt.Fprintf(&b, "<thinking>Now write it.</thinking>\n<tool:write>\n<param:path>a.txt</param:path>\n<param:content>\n%s\n</param:content>\n</tool:write>\n", arg)
	case "native":
		b.Reset()
		text, _ := json.Marshal(strings.Repeat(prose, proseLines))
		args, _ := json.Marshal(`{"path": "a.txt", "content": ` + string(argJSON) + `}`)
		fmt.Fprintf(&b, `{"type":"message","role":"assistant","content":[{"type":"text","text":%s},{"type":"tool_use","id":"toolu_1","name":"write","input":{"path":"a.txt","content":%s}}],"stop_reason":"tool_use"}`+"\n", text, argJSON)
		_ = args
	}
	return b.String()
}

// transcript repeats turns up to size bytes.
func transcript(name string, size, proseLines int, arg string) []byte {
	var b bytes.Buffer
	t := turn(name, proseLines, arg)
	for b.Len() < size {
		b.WriteString(t)
	}
	return b.Bytes()
}

var syntaxes = []string{"xmljson", "caret", "delimiter", "xmltag", "native"}

func run(b *testing.B, s syntax.Syntax, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		p := s.New(func(syntax.Event) { events++ }, syntax.Options{})
		syntaxtest.Feed(p, in, chunk)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(events, 1)), "ns/event")
}

var chunkings = []struct {
	name string
	size int
}{{"whole", 0}, {"chunk4", 4}, {"chunk1", 1}}

// BenchmarkProse: transcripts that are mostly text (20 lines of prose per
// short call), 1 MB.
func BenchmarkProse(b *testing.B) {
	for _, name := range syntaxes {
		s, _ := registry.Lookup(name)
		in := transcript(name, 1<<20, 20, "short")
		for _, c := range chunkings {
			b.Run(name+"/"+c.name, func(b *testing.B) { run(b, s, in, c.size) })
		}
	}
}

// BenchmarkJSONHeavy: transcripts dominated by call arguments (1 line of
// prose per 8 KB argument), 1 MB, with encoding/json.Valid over a JSON
// document of the same size as the baseline.
func BenchmarkJSONHeavy(b *testing.B) {
	arg := strings.Repeat(`func f() { return "x" } // {braces} and "quotes"`+"\n", 160)
	for _, name := range syntaxes {
		s, _ := registry.Lookup(name)
		in := transcript(name, 1<<20, 1, arg)
		for _, c := range chunkings[:2] {
			b.Run(name+"/"+c.name, func(b *testing.B) { run(b, s, in, c.size) })
		}
	}
	doc, _ := json.Marshal(strings.Repeat(arg, 128))
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			json.Valid(doc)
		}
	})
}

// pathological inputs: long runs of what could start a marker.
var pathological = map[string]string{
	"lt": "<", "section": "§", "caret": "^", "brace": "{", "backslash": `\`, "bracket": "[", "newline-caret": "\n^^^",
}

// BenchmarkPathological: 1 MB and 10 MB of each pathological run, in 4-byte
// chunks: linear cost shows as equal MB/s.
func BenchmarkPathological(b *testing.B) {
	for _, name := range syntaxes {
		s, _ := registry.Lookup(name)
		for pname, unit := range pathological {
			for _, size := range []int{1 << 20, 10 << 20} {
				in := bytes.Repeat([]byte(unit), size/len(unit))
				b.Run(fmt.Sprintf("%s/%s/%dMB", name, pname, size>>20), func(b *testing.B) { run(b, s, in, 4) })
			}
		}
	}
}
