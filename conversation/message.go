package conversation

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
)

// Message is one chat message, in whatever provider form it came:
// {"role","content"} (OpenAI Chat, Anthropic, Ollama), a Gemini content
// ({"role","parts"}), or an OpenAI Responses item ({"type",…}). Role and
// Content are what every form has — Content is the message's text: its
// string content, or its text parts and blocks joined by newlines — and
// Raw is the whole message as it was read, which is what is written back:
// tool calls, content blocks, parts and every other field included.
//
// A Message made in code, with no Raw, is written as {"role","content"}
// (with tool_call_id and name when set).
type Message struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"` // the tool of a "tool" message (OpenAI name, Ollama tool_name)
	// Raw is the message's JSON as it was read or rendered; when set, it
	// is what MarshalJSON writes.
	Raw json.RawMessage `json:"-"`
}

// MarshalJSON writes Raw when the message has it, else its fields.
func (m Message) MarshalJSON() ([]byte, error) {
	if len(m.Raw) > 0 {
		return m.Raw, nil
	}
	type plain Message
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // < and > as they are, as in every JSON the toolkit writes
	if err := enc.Encode(plain(m)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// UnmarshalJSON reads a message of any provider form, keeping it whole in
// Raw.
func (m *Message) UnmarshalJSON(data []byte) error {
	if jsonscan.Kind(data) != '{' {
		return fmt.Errorf("a message must be a JSON object, not %s", jsonscan.KindName(jsonscan.Kind(data)))
	}
	var f struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Parts      json.RawMessage `json:"parts"`
		ToolCallID string          `json:"tool_call_id"`
		Name       string          `json:"name"`
		ToolName   string          `json:"tool_name"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	*m = Message{Role: f.Role, ToolCallID: f.ToolCallID, Name: f.Name, Raw: jsonscan.Compact(data)}
	if m.Name == "" {
		m.Name = f.ToolName
	}
	if f.Parts != nil {
		m.Content = textOf(f.Parts)
	} else {
		m.Content = textOf(f.Content)
	}
	return nil
}

// textOf returns the text of a content value: a string, or the text of
// the text parts or blocks of an array (thoughts aside), one a line.
func textOf(raw []byte) string {
	if s, ok := jsonscan.Unquote(raw); ok {
		return s
	}
	var texts []string
	jsonscan.Elements(raw, func(e []byte, _ int) bool {
		var part struct {
			Type    string          `json:"type"`
			Text    json.RawMessage `json:"text"`
			Thought bool            `json:"thought"`
		}
		if json.Unmarshal(e, &part) != nil || part.Thought {
			return true
		}
		switch part.Type {
		case "", "text", "input_text", "output_text":
			if s, ok := jsonscan.Unquote(part.Text); ok {
				texts = append(texts, s)
			}
		}
		return true
	})
	return strings.Join(texts, "\n")
}

// json returns the message's JSON: Raw, or its fields.
func (m Message) json() []byte {
	b, _ := m.MarshalJSON()
	return b
}

// Decode reads messages: a JSON array of messages, an object with a
// "messages" array (OpenAI, Anthropic, Ollama requests), a "contents" array
// (Gemini) or an "input" array (OpenAI Responses), or one message per line.
func Decode(r io.Reader) ([]Message, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var msgs []Message
	switch jsonscan.Kind(data) {
	case '[':
		err = json.Unmarshal(data, &msgs)
	case '{':
		var wrapped struct {
			Messages []Message `json:"messages"`
			Contents []Message `json:"contents"`
			Input    []Message `json:"input"`
		}
		if json.Unmarshal(data, &wrapped) == nil {
			for _, list := range [][]Message{wrapped.Messages, wrapped.Contents, wrapped.Input} {
				if list != nil {
					return list, nil
				}
			}
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<30)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var m Message
			if err := json.Unmarshal(line, &m); err != nil {
				return nil, fmt.Errorf("conversation: line %d: %v", n, err)
			}
			msgs = append(msgs, m)
		}
		err = sc.Err()
	default:
		return nil, fmt.Errorf("conversation: not a JSON array of messages, an object with messages (or contents, or input), or JSON lines")
	}
	if err != nil {
		return nil, fmt.Errorf("conversation: %v", err)
	}
	return msgs, nil
}
