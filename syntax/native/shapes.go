package native

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// doc is the union of the top-level shapes this parser reads. Fields whose
// type differs between providers are kept raw and decoded by shape.
type doc struct {
	Type   string `json:"type"`
	Object string `json:"object"`
	Role   string `json:"role"`

	// OpenAI Chat Completions.
	Choices []choice `json:"choices"`

	// OpenAI Responses: whole (output, status) and stream events.
	Output      []respItem      `json:"output"`
	Status      string          `json:"status"`
	Response    *respWhole      `json:"response"`
	Item        *respItem       `json:"item"`
	ItemID      string          `json:"item_id"`
	OutputIndex *int            `json:"output_index"`
	Delta       json.RawMessage `json:"delta"` // a string (Responses), an object (Anthropic)
	Arguments   *string         `json:"arguments"`

	// Anthropic Messages: whole and stream events.
	Content      json.RawMessage `json:"content"` // blocks (Anthropic), a string or parts (OpenAI messages)
	StopReason   string          `json:"stop_reason"`
	Message      *doc            `json:"message"`
	Index        *int            `json:"index"`
	ContentBlock *block          `json:"content_block"`
	Error        json.RawMessage `json:"error"`

	// Gemini.
	Candidates []candidate `json:"candidates"`
	Contents   []gContent  `json:"contents"`
	Parts      []part      `json:"parts"`

	// Conversations: OpenAI and Anthropic requests, OpenAI tool messages.
	Messages         []json.RawMessage `json:"messages"`
	ToolCalls        []toolCall        `json:"tool_calls"`
	ToolCallID       string            `json:"tool_call_id"`
	Name             string            `json:"name"`
	ReasoningContent *string           `json:"reasoning_content"`
	Reasoning        json.RawMessage   `json:"reasoning"`
}

type choice struct {
	Index        int     `json:"index"`
	Message      *doc    `json:"message"`
	Delta        *doc    `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type toolCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"` // a string, or (some servers) an object
	} `json:"function"`
}

type respWhole struct {
	Status            string     `json:"status"`
	Output            []respItem `json:"output"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
}

type respItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments *string         `json:"arguments"`
	Output    json.RawMessage `json:"output"`
	Status    string          `json:"status"`
	Content   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Summary []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

type block struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	Thinking  *string         `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	// content_block_delta deltas.
	PartialJSON *string `json:"partial_json"`
	StopReason  string  `json:"stop_reason"`
}

type candidate struct {
	Index        int      `json:"index"`
	Content      gContent `json:"content"`
	FinishReason string   `json:"finishReason"`
}

type gContent struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

type part struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// document reads one complete JSON document and dispatches it by shape.
func (p *parser) document(raw []byte, span syntax.Span) {
	if scan.Kind(raw) == '[' {
		p.messageArray(raw, span)
		return
	}
	var d doc
	if err := json.Unmarshal(raw, &d); err != nil {
		p.Errorf(p.docStart, span, raw, "document does not fit any provider shape: %v", err)
		return
	}
	switch {
	case d.Choices != nil || strings.HasPrefix(d.Object, "chat.completion"):
		p.chatCompletion(&d, span)
	case strings.HasPrefix(d.Type, "response."):
		p.responsesEvent(&d, span)
	case d.Object == "response" || d.Output != nil:
		p.responsesOutput(d.Output, span)
		p.endMessage(span, cutReason(d.Status == "incomplete", "status incomplete"))
	case anthropicEvents[d.Type]:
		p.anthropicEvent(&d, span)
	case d.Candidates != nil:
		p.gemini(&d, span)
	case d.Messages != nil:
		for _, m := range d.Messages {
			p.conversationMessage(m, span)
		}
	case d.Contents != nil:
		for i := range d.Contents {
			p.geminiContent(d.Contents[i].Parts, d.Contents[i].Role, span)
		}
	case d.Role != "" || d.Type == "message":
		p.message(&d, raw, span)
	default:
		p.Errorf(p.docStart, span, raw, "document does not fit any provider shape (no choices, type, candidates, output, messages or role)")
	}
}

func cutReason(cut bool, reason string) string {
	if cut {
		return reason
	}
	return ""
}

// messageArray reads a top-level array: a conversation's messages.
func (p *parser) messageArray(raw []byte, span syntax.Span) {
	var msgs []json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		p.Errorf(p.docStart, span, raw, "array does not fit any provider shape: %v", err)
		return
	}
	for _, m := range msgs {
		p.conversationMessage(m, span)
	}
}

func (p *parser) conversationMessage(raw json.RawMessage, span syntax.Span) {
	var d doc
	if err := json.Unmarshal(raw, &d); err != nil || scan.Kind(raw) != '{' {
		p.Errorf(p.docStart, span, raw, "conversation message is not an object")
		return
	}
	if d.Parts != nil { // Gemini content
		p.geminiContent(d.Parts, d.Role, span)
		return
	}
	p.message(&d, raw, span)
}

// message reads one whole message in OpenAI or Anthropic form.
func (p *parser) message(d *doc, raw []byte, span syntax.Span) {
	switch d.Role {
	case "tool": // OpenAI tool result
		name := d.Name
		if name == "" {
			name = p.names[d.ToolCallID]
		}
		p.Emit(syntax.Event{Type: syntax.Result, Tool: name, Status: syntax.Success, Value: contentValue(d.Content), Span: span})
		return
	case "user", "system", "developer":
		// Only tool results are read from these (Anthropic tool_result blocks).
		for _, b := range blocks(d.Content) {
			if b.Type == "tool_result" {
				p.toolResult(&b, span)
			}
		}
		return
	}
	// An assistant message.
	if d.ReasoningContent != nil {
		p.TextDecoded(syntax.Think, []byte(*d.ReasoningContent), span)
	}
	if scan.Kind(d.Content) == '"' {
		var s string
		json.Unmarshal(d.Content, &s)
		p.TextDecoded(syntax.Respond, []byte(s), span)
	} else {
		bs := blocks(d.Content)
		lastUse := -1 // cut off by max_tokens: the last tool_use is left for endMessage to report
		for i, b := range bs {
			if b.Type == "tool_use" && anthropicCut(d.StopReason) != "" {
				lastUse = i
			}
		}
		for i, b := range bs {
			p.wholeBlock(&b, strconv.Itoa(i), span, i != lastUse)
		}
	}
	for i, tc := range d.ToolCalls {
		p.chatToolCall(&tc, i, span)
	}
	p.EndRun()
	p.endMessage(span, anthropicCut(d.StopReason))
}

func blocks(raw json.RawMessage) []block {
	if scan.Kind(raw) != '[' {
		return nil
	}
	var bs []block
	json.Unmarshal(raw, &bs)
	return bs
}

// contentValue is a result's content: a string stays a string; parts or
// other JSON are kept as they are.
func contentValue(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return scan.Compact(raw)
}

// wholeBlock reads one Anthropic content block of a whole message.
func (p *parser) wholeBlock(b *block, key string, span syntax.Span, complete bool) {
	switch b.Type {
	case "text":
		if b.Text != nil {
			p.TextDecoded(syntax.Respond, []byte(*b.Text), span)
		}
	case "thinking":
		if b.Thinking != nil {
			p.TextDecoded(syntax.Think, []byte(*b.Thinking), span)
		}
	case "tool_use": // complete: emitted at its place among the blocks
		c := p.callFor("block:"+key, b.ID, b.Name, span)
		c.whole = b.Input
		if len(c.whole) == 0 {
			c.whole = []byte("{}")
		}
		if complete {
			p.completeCall(c, "")
		}
	case "tool_result":
		p.toolResult(b, span)
	}
}

func (p *parser) toolResult(b *block, span syntax.Span) {
	status := syntax.Success
	if b.IsError {
		status = syntax.Failure
	}
	tool := p.names[b.ToolUseID]
	if tool == "" {
		tool = b.Name // not Anthropic's: the renderer's name for a result whose call had no id
	}
	p.Emit(syntax.Event{Type: syntax.Result, Tool: tool, Status: status, Value: contentValue(b.Content), Span: span})
}

func anthropicCut(stop string) string {
	if stop == "max_tokens" {
		return "stop_reason max_tokens"
	}
	return ""
}

// OpenAI Chat Completions: whole responses and stream chunks.
func (p *parser) chatCompletion(d *doc, span syntax.Span) {
	for _, ch := range d.Choices {
		if ch.Index != 0 {
			if !p.otherSeen {
				p.otherSeen = true
				p.Errorf(p.docStart, span, nil, "choice %d is not read: only the first choice of a response is parsed", ch.Index)
			}
			continue
		}
		m := ch.Message
		if m == nil {
			m = ch.Delta
		}
		if m != nil {
			if m.ReasoningContent != nil {
				p.TextDecoded(syntax.Think, []byte(*m.ReasoningContent), span)
			} else if scan.Kind(m.Reasoning) == '"' {
				var s string
				json.Unmarshal(m.Reasoning, &s)
				p.TextDecoded(syntax.Think, []byte(s), span)
			}
			if scan.Kind(m.Content) == '"' {
				var s string
				json.Unmarshal(m.Content, &s)
				p.TextDecoded(syntax.Respond, []byte(s), span)
			}
			for i, tc := range m.ToolCalls {
				p.chatToolCall(&tc, i, span)
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			p.EndRun()
			p.endMessage(span, cutReason(*ch.FinishReason == "length", "finish_reason length"))
		} else if ch.Message != nil {
			p.EndRun()
			p.endMessage(span, "")
		}
	}
}

// chatToolCall adds a tool call or a piece of one, keyed by its index (the
// position in the list when there is no index).
func (p *parser) chatToolCall(tc *toolCall, pos int, span syntax.Span) {
	idx := pos
	if tc.Index != nil {
		idx = *tc.Index
	}
	c := p.callFor("index:"+strconv.Itoa(idx), tc.ID, tc.Function.Name, span)
	switch scan.Kind(tc.Function.Arguments) {
	case '"':
		var s string
		json.Unmarshal(tc.Function.Arguments, &s)
		p.addArgs(c, []byte(s), span)
	case '{':
		c.whole = tc.Function.Arguments // some servers send the arguments as an object
	}
}

var anthropicEvents = map[string]bool{
	"message_start": true, "content_block_start": true, "content_block_delta": true,
	"content_block_stop": true, "message_delta": true, "message_stop": true, "ping": true, "error": true,
}

// anthropicEvent reads one event of an Anthropic Messages stream.
func (p *parser) anthropicEvent(d *doc, span syntax.Span) {
	key := "block:"
	if d.Index != nil {
		key += strconv.Itoa(*d.Index)
	}
	switch d.Type {
	case "content_block_start":
		if b := d.ContentBlock; b != nil {
			switch b.Type {
			case "tool_use", "server_tool_use":
				c := p.callFor(key, b.ID, b.Name, span)
				c.start = b.Input
			case "text":
				if b.Text != nil {
					p.TextDecoded(syntax.Respond, []byte(*b.Text), span)
				}
			case "thinking":
				if b.Thinking != nil {
					p.TextDecoded(syntax.Think, []byte(*b.Thinking), span)
				}
			}
		}
	case "content_block_delta":
		var b block
		json.Unmarshal(d.Delta, &b)
		switch b.Type {
		case "text_delta":
			if b.Text != nil {
				p.TextDecoded(syntax.Respond, []byte(*b.Text), span)
			}
		case "thinking_delta":
			if b.Thinking != nil {
				p.TextDecoded(syntax.Think, []byte(*b.Thinking), span)
			}
		case "input_json_delta":
			c := p.msg.byKey[key]
			if c == nil {
				p.Errorf(p.docStart, span, nil, "input_json_delta for content block %s, which did not start as tool_use", key[len("block:"):])
				return
			}
			if b.PartialJSON != nil {
				p.addArgs(c, []byte(*b.PartialJSON), span)
			}
		}
	case "content_block_stop":
		if c := p.msg.byKey[key]; c != nil {
			c.span.End = span.End
			p.completeCall(c, "")
		}
		p.EndRun()
	case "message_delta":
		var b block
		json.Unmarshal(d.Delta, &b)
		if b.StopReason != "" {
			p.EndRun()
			p.endMessage(span, anthropicCut(b.StopReason))
		}
	case "message_stop":
		p.EndRun()
		p.endMessage(span, "")
	case "error":
		p.Errorf(p.docStart, span, scan.Compact(d.Error), "the provider reported an error in the stream")
	}
}

// responsesEvent reads one event of an OpenAI Responses stream.
func (p *parser) responsesEvent(d *doc, span syntax.Span) {
	key := "item:" + d.ItemID
	if d.ItemID == "" && d.OutputIndex != nil {
		key = "output:" + strconv.Itoa(*d.OutputIndex)
	}
	switch d.Type {
	case "response.output_item.added":
		if it := d.Item; it != nil && it.Type == "function_call" {
			c := p.callFor(respKey(it, d.OutputIndex), it.CallID, it.Name, span)
			if it.Arguments != nil {
				p.addArgs(c, []byte(*it.Arguments), span)
			}
		}
	case "response.function_call_arguments.delta":
		c := p.respCall(key, d)
		if c == nil {
			p.Errorf(p.docStart, span, nil, "arguments delta for %s, which did not start as a function_call", key)
			return
		}
		var s string
		json.Unmarshal(d.Delta, &s)
		p.addArgs(c, []byte(s), span)
	case "response.function_call_arguments.done":
		if c := p.respCall(key, d); c != nil && d.Arguments != nil {
			c.whole = []byte(*d.Arguments)
			c.span.End = span.End
		}
	case "response.output_item.done":
		if it := d.Item; it != nil && it.Type == "function_call" {
			c := p.callFor(respKey(it, d.OutputIndex), it.CallID, it.Name, span)
			if it.Arguments != nil {
				c.whole = []byte(*it.Arguments)
			}
			p.completeCall(c, "")
		}
		p.EndRun()
	case "response.output_text.delta":
		var s string
		json.Unmarshal(d.Delta, &s)
		p.TextDecoded(syntax.Respond, []byte(s), span)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		var s string
		json.Unmarshal(d.Delta, &s)
		p.TextDecoded(syntax.Think, []byte(s), span)
	case "response.completed", "response.incomplete", "response.failed":
		p.EndRun()
		cut := ""
		if d.Type != "response.completed" {
			cut = strings.TrimPrefix(d.Type, "response.")
			if r := d.Response; r != nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
				cut += ": " + r.IncompleteDetails.Reason
			}
		}
		p.endMessage(span, cut)
	}
}

func respKey(it *respItem, outputIndex *int) string {
	if it.ID != "" {
		return "item:" + it.ID
	}
	if outputIndex != nil {
		return "output:" + strconv.Itoa(*outputIndex)
	}
	return "call:" + it.CallID
}

// respCall finds the call an event is about, by item id or output index.
func (p *parser) respCall(key string, d *doc) *call {
	if c := p.msg.byKey[key]; c != nil {
		return c
	}
	if d.OutputIndex != nil {
		return p.msg.byKey["output:"+strconv.Itoa(*d.OutputIndex)]
	}
	return nil
}

// responsesOutput reads the output items of a whole Responses response (or
// input items of a Responses conversation).
func (p *parser) responsesOutput(items []respItem, span syntax.Span) {
	for i, it := range items {
		switch it.Type {
		case "message":
			for _, c := range it.Content {
				if c.Type == "output_text" || c.Type == "text" {
					p.TextDecoded(syntax.Respond, []byte(c.Text), span)
				}
			}
		case "reasoning":
			for _, s := range it.Summary {
				p.TextDecoded(syntax.Think, []byte(s.Text), span)
			}
		case "function_call":
			c := p.callFor("output:"+strconv.Itoa(i), it.CallID, it.Name, span)
			if it.Arguments != nil {
				c.whole = []byte(*it.Arguments)
			}
		case "function_call_output":
			p.EndRun()
			p.Emit(syntax.Event{Type: syntax.Result, Tool: p.names[it.CallID], Status: syntax.Success, Value: contentValue(it.Output), Span: span})
		}
	}
	p.EndRun()
}

// gemini reads a Gemini response or stream chunk.
func (p *parser) gemini(d *doc, span syntax.Span) {
	for _, cand := range d.Candidates {
		if cand.Index != 0 {
			if !p.otherSeen {
				p.otherSeen = true
				p.Errorf(p.docStart, span, nil, "candidate %d is not read: only the first candidate of a response is parsed", cand.Index)
			}
			continue
		}
		p.geminiParts(cand.Content.Parts, "model", span)
		if cand.FinishReason != "" {
			p.EndRun()
			p.endMessage(span, cutReason(cand.FinishReason == "MAX_TOKENS", "finishReason MAX_TOKENS"))
		}
	}
}

// geminiContent reads one whole content of a Gemini conversation: a model
// turn is a message of its own.
func (p *parser) geminiContent(parts []part, role string, span syntax.Span) {
	p.geminiParts(parts, role, span)
	if role == "model" {
		p.EndRun()
		p.endMessage(span, "")
	}
}

func (p *parser) geminiParts(parts []part, role string, span syntax.Span) {
	for _, pt := range parts {
		switch {
		case pt.FunctionCall != nil:
			fc := pt.FunctionCall
			c := p.callFor("gemini:"+strconv.Itoa(len(p.msg.calls)+p.msg.emitted), fc.ID, fc.Name, span)
			c.whole = fc.Args
			p.completeCall(c, "")
		case pt.FunctionResponse != nil:
			fr := pt.FunctionResponse
			p.EndRun()
			p.Emit(syntax.Event{Type: syntax.Result, Tool: fr.Name, Status: syntax.Success, Value: contentValue(fr.Response), Span: span})
		case pt.Text != nil:
			if role == "user" {
				continue
			}
			t := syntax.Respond
			if pt.Thought {
				t = syntax.Think
			}
			p.TextDecoded(t, []byte(*pt.Text), span)
		}
	}
}
