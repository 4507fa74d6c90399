// Package jsontest holds what the tests of the JSON packages share: a
// JSON-heavy input and a way to cut input into chunks.
package jsontest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Calls is about 300 KB of JSON-heavy text: an indented array of call
// objects {"name","id","args"} whose args hold code (quotes, backslashes,
// escapes, non-ASCII), numbers, booleans, null and nesting.
var Calls = func() []byte {
	code := strings.Repeat("func f(s string) {\n\tif s == \"\\\\\" { return }\n\tfmt.Println(\"a\\tb\", s) // é ✓\n}\n", 4)
	var calls []any
	for i := 0; ; i++ {
		calls = append(calls, map[string]any{
			"name": "write",
			"id":   fmt.Sprintf("call_%d", i),
			"args": map[string]any{
				"path":    fmt.Sprintf("src/file_%d.go", i),
				"content": code,
				"lines":   []any{1, 22, 333, -4.5e-3, 1e10},
				"force":   i%2 == 0,
				"owner":   nil,
				"meta":    map[string]any{"tags": []string{"a", "b"}, "depth": map[string]any{"x": []any{[]any{1}, map[string]any{}}}},
			},
		})
		if b, _ := json.MarshalIndent(calls, "", "  "); len(b) >= 300<<10 {
			return b
		}
	}
}()

// RandomChunks cuts p at places chosen by seed: 1-byte pieces, pieces of 1
// to 16 bytes, or the whole.
func RandomChunks(p []byte, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, seed>>32))
	var out [][]byte
	for len(p) > 0 {
		n := len(p)
		switch seed % 4 {
		case 0:
			n = 1
		case 1, 2:
			n = min(len(p), 1+rng.IntN(16))
		}
		out, p = append(out, p[:n]), p[n:]
	}
	return out
}
