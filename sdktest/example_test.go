package sdktest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolparse/toolparse/batch"
	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
)

// Example_turnCycle is a whole turn of an agent loop, as the README shows
// it: parse the model's turn, check the calls, run them (batch), write the
// conversation back, and build the next request with the provider's SDK.
func Example_turnCycle() {
	// The model's turn, as the Messages API answered (a thinking block with
	// its signature, a call).
	reply := `{"type":"message","role":"assistant","content":[` +
		`{"type":"thinking","thinking":"The user wants the weather.","signature":"EqQBCgIYAhIM"},` +
		`{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}],"stop_reason":"tool_use"}`
	tools, _ := schema.Load([]byte(`[{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]`))
	run := &batch.Runner{Tools: map[string]batch.Tool{
		"get_weather": func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"temp_c":18}`), nil
		},
	}}

	// 1. Parse and check: every call is validated against its tool.
	native, _ := registry.Lookup("anthropic")
	var turn []syntax.Event
	for e, err := range syntax.All(native, strings.NewReader(reply), syntax.Options{}) {
		if err != nil {
			panic(err)
		}
		if e.Type != syntax.End {
			turn = append(turn, e)
		}
	}
	var checked []syntax.Event
	check := tools.Check(func(e syntax.Event) { checked = append(checked, e) })
	for _, e := range turn {
		check(e)
	}

	// 2. Run the batch: one result per call, in call order.
	var results []syntax.Event
	c := &batch.Collector{OnBatch: func(b batch.Batch) { results = run.Run(context.Background(), b) }}
	for _, e := range checked {
		c.Event(e)
	}

	// 3. Write the conversation in the provider's own form: the thought goes
	// back with its signature, the result as a tool_result.
	conv := &conversation.Conversation{Turns: []conversation.Turn{
		{Role: "user", Other: &conversation.Message{Role: "user", Content: "Weather in Paris?"}},
		{Role: "assistant", Events: checked},
		{Role: "user", Events: results},
	}}
	msgs, err := conversation.Write(conv, native, syntax.Options{})
	if err != nil {
		panic(err) // a *conversation.WriteError: what the form could not carry
	}

	// 4. The bridge: each message is the SDK's MessageParam.
	params := anthropic.MessageNewParams{Model: anthropic.ModelClaudeSonnet5_5, MaxTokens: 1024}
	for _, m := range msgs {
		raw, _ := json.Marshal(m)
		var p anthropic.MessageParam
		if err := json.Unmarshal(raw, &p); err != nil {
			panic(err)
		}
		params.Messages = append(params.Messages, p)
	}
	body, _ := json.Marshal(params.Messages)
	fmt.Println(string(body))
	// Output:
	// [{"content":[{"text":"Weather in Paris?","type":"text"}],"role":"user"},{"content":[{"signature":"EqQBCgIYAhIM","thinking":"The user wants the weather.","type":"thinking"},{"id":"toolu_1","input":{"city":"Paris"},"name":"get_weather","type":"tool_use"}],"role":"assistant"},{"content":[{"tool_use_id":"toolu_1","content":[{"text":"{\"temp_c\":18}","type":"text"}],"type":"tool_result"}],"role":"user"}]
}
