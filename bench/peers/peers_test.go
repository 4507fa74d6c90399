package main

import (
	"errors"
	"testing"
	"time"
)

// TestEveryParserReadsEveryPayload: the harness is only worth its ratios if
// every parser produces the call, at every chunking, on a small payload.
func TestEveryParserReadsEveryPayload(t *testing.T) {
	for _, f := range []string{"hermes", "qwen3coder", "openai", "anthropic"} {
		p := makePayload(f, 3000)
		for _, c := range []int{1, 4, 64, 0} {
			for _, r := range append([]parser{toolparse, jsonValid}, peers...) {
				if !r.reads(f) {
					continue
				}
				if err := r.run(p, chunks(p.input, c), time.Now().Add(time.Minute)); err != nil {
					t.Errorf("%s on %s in %d-byte chunks: %v", r.name, f, c, err)
				}
			}
		}
	}
}

// TestPayloadsCarryTheContent: a payload's content is what checkArgs wants,
// and a wrong one is caught.
func TestPayloadsCarryTheContent(t *testing.T) {
	p := makePayload("hermes", 100)
	if len(p.content) != 100 {
		t.Fatalf("content is %d bytes, want 100", len(p.content))
	}
	if err := p.checkArgs(p.body); err != nil {
		t.Fatal(err)
	}
	if err := p.checkArgs([]byte(`{"path":"main.go","content":"x"}`)); err == nil {
		t.Fatal("a wrong content passes the check")
	}
}

// TestBudgetStopsASlowParser: a parser past its deadline reports errSlow.
func TestBudgetStopsASlowParser(t *testing.T) {
	p := makePayload("openai", 3000)
	err := openaiGo.run(p, chunks(p.input, 1), time.Now().Add(-time.Second))
	if !errors.Is(err, errSlow) {
		t.Fatalf("got %v, want errSlow", err)
	}
}
