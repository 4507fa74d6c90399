package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/internal/jsontest"
	"github.com/toolparse/toolparse/syntax"
)

// benchJSON is about 300 KB of JSON-heavy text: an indented array of call
// objects whose args hold code (quotes, backslashes, newlines), numbers,
// literals and nesting.
var benchJSON = jsontest.Calls

var benchChunkings = []struct {
	name string
	size int
}{{"whole", 0}, {"chunk4", 4}}

// chunks cuts p into pieces of n bytes (n == 0: one piece).
func chunks(p []byte, n int) [][]byte {
	if n == 0 {
		return [][]byte{p}
	}
	var out [][]byte
	for len(p) > n {
		out, p = append(out, p[:n]), p[n:]
	}
	return append(out, p)
}

// BenchmarkScan measures JSON.Scan on benchJSON, whole and in 4-byte chunks,
// beside encoding/json on the same bytes: Valid on the whole text, and a
// Decoder (which holds and rescans) reading it in 4-byte pieces.
func BenchmarkScan(b *testing.B) {
	for _, c := range benchChunkings {
		benchScan(b, "JSON.Scan/"+c.name, benchJSON, chunks(benchJSON, c.size))
	}
	benchValid(b, "encoding-json.Valid/whole", benchJSON)
	// A string of 300 KB of prose without escapes (a model's text in a
	// provider's document, a long argument): the scan's fast path for the
	// plain bytes of a string.
	prose := []byte(`{"content":"` + strings.Repeat("The quick brown fox jumps over the lazy dog. ", 7000) + `"}`)
	benchScan(b, "JSON.Scan/prose-string", prose, chunks(prose, 0))
	benchValid(b, "encoding-json.Valid/prose-string", prose)
	b.Run("encoding-json.Decoder/chunk4", func(b *testing.B) {
		b.SetBytes(int64(len(benchJSON)))
		for b.Loop() {
			var v json.RawMessage
			if err := json.NewDecoder(&pieceReader{pieces: chunks(benchJSON, 4)}).Decode(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchScan measures JSON.Scan over doc, fed in pieces.
func benchScan(b *testing.B, name string, doc []byte, pieces [][]byte) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		var s JSON
		for b.Loop() {
			s.Reset(syntax.DefaultMaxDepth)
			for _, p := range pieces {
				s.Scan(p)
			}
			if !s.Done() {
				b.Fatal(s.Err())
			}
		}
	})
}

// benchValid measures encoding/json.Valid over doc, the baseline.
func benchValid(b *testing.B, name string, doc []byte) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if !json.Valid(doc) {
				b.Fatal("invalid")
			}
		}
	})
}

type pieceReader struct{ pieces [][]byte }

func (r *pieceReader) Read(p []byte) (int, error) {
	if len(r.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.pieces[0])
	if r.pieces[0] = r.pieces[0][n:]; len(r.pieces[0]) == 0 {
		r.pieces = r.pieces[1:]
	}
	return n, nil
}

// BenchmarkCompact measures scanning and compacting benchJSON as it arrives,
// beside encoding/json.Compact on the whole text.
func BenchmarkCompact(b *testing.B) {
	for _, c := range benchChunkings {
		pieces := chunks(benchJSON, c.size)
		b.Run("scan+compact/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(len(benchJSON)))
			var s JSON
			out := make([]byte, 0, len(benchJSON))
			for b.Loop() {
				s.Reset(syntax.DefaultMaxDepth)
				out = out[:0]
				out = scanCompact(&s, out, pieces)
			}
			var want bytes.Buffer
			json.Compact(&want, benchJSON)
			if !bytes.Equal(out, want.Bytes()) {
				b.Fatal("compacted text differs from encoding/json.Compact")
			}
		})
	}
	b.Run("encoding-json.Compact/whole", func(b *testing.B) {
		b.SetBytes(int64(len(benchJSON)))
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := json.Compact(&buf, benchJSON); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func scanCompact(s *JSON, out []byte, pieces [][]byte) []byte {
	for _, p := range pieces {
		out, _ = s.ScanCompact(out, p)
	}
	return out
}

// BenchmarkUnquote decodes a 2 KB string of prose with a \n escape per
// line, as native reads a provider's text content.
func BenchmarkUnquote(b *testing.B) {
	raw, _ := json.Marshal(strings.Repeat("The quick brown fox jumps over the lazy dog; 3 < 4 and {x}.\n", 34))
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		Unquote(raw)
	}
}
