package caret

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestLiteralScalarAgreesWithYAML: whenever the hand decoder of literal
// block scalars takes one, it gives what YAML gives. The scalars are drawn
// from lines chosen to sit on the edges of its rules.
func TestLiteralScalarAgreesWithYAML(t *testing.T) {
	headers := []string{"content: |", "content: |-", "content: |+", "content:  |", "content: |  ", "content: |2", "content: >", "content: | # c", "c:|"}
	bodies := []string{"", "x", "func f() { return \"<\" + x + \">\\n\" }", "  more indented", "\ttab after", "trailing  ",
		"# not a comment", "key: value", "- item", "é ü 漢字 😀", "a\u0085b", "a\u2028b", "\ufeffbom", "\x01", "\x7f", "\xff", "---", "..."}
	rng := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for range 100000 {
		ls := []line{{text: []byte(headers[rng.IntN(len(headers))])}}
		indent := 1 + rng.IntN(4)
		for range rng.IntN(6) {
			var text []byte
			switch rng.IntN(5) {
			case 0: // blank, of some spaces
				text = bytes.Repeat([]byte(" "), rng.IntN(indent+2))
			case 1: // less indented
				text = append(bytes.Repeat([]byte(" "), rng.IntN(indent)), bodies[rng.IntN(len(bodies))]...)
			default:
				text = append(bytes.Repeat([]byte(" "), indent), bodies[rng.IntN(len(bodies))]...)
			}
			ls = append(ls, line{text: text})
		}
		var src []byte
		var run lineRun
		for _, l := range ls[1:] {
			if run.count > 0 {
				src = append(src, '\n')
			}
			l.off = len(src)
			src = append(src, l.text...)
			run.add(src, l)
		}
		got, ok := literalScalar(ls[0], run)
		if !ok {
			continue
		}
		taken++
		var n yaml.Node
		doc := joinLines(ls)
		if err := yaml.Unmarshal(doc, &n); err != nil {
			t.Fatalf("%q: taken as %q, but YAML says %v", doc, got, err)
		}
		if len(n.Content) == 0 || len(n.Content[0].Content) < 2 {
			t.Fatalf("%q: taken as %q, but YAML reads no scalar", doc, got)
		}
		if want := n.Content[0].Content[1].Value; string(got) != want {
			t.Fatalf("%q: got %q, YAML gives %q", doc, got, want)
		}
	}
	if taken < 5000 {
		t.Errorf("only %d of 100000 scalars taken by the hand decoder: the test checks too little", taken)
	}
}
