package conversation

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// Message is one chat message. Content is text; a "tool" message may also
// carry a tool_call_id and a name.
type Message struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
}

// Turn is one message's worth of a conversation: the events of an assistant
// message or of a message carrying results, or a message kept as it is.
type Turn struct {
	Role   string         // "assistant", "user", "tool", "system", …
	Events []syntax.Event // parsed events, without the end event
	Other  *Message       // a message with no events, kept as it is
}

// Conversation is a transcript as turns.
type Conversation struct {
	Turns []Turn
}

// Events returns the events of all turns, with one end event at the end.
func (c *Conversation) Events() []syntax.Event {
	var evs []syntax.Event
	for _, t := range c.Turns {
		evs = append(evs, t.Events...)
	}
	return append(evs, syntax.Event{Type: syntax.End})
}

// Decode reads messages: a JSON array of messages, an object with a
// "messages" array, or one message object per line.
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
		}
		if json.Unmarshal(data, &wrapped) == nil && wrapped.Messages != nil {
			return wrapped.Messages, nil
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
		return nil, fmt.Errorf("conversation: not a JSON array of messages, an object with messages, or JSON lines")
	}
	if err != nil {
		return nil, fmt.Errorf("conversation: %v", err)
	}
	return msgs, nil
}

// Read parses a conversation: assistant messages with s, results from user
// and tool messages.
func Read(msgs []Message, s syntax.Syntax, opts syntax.Options) *Conversation {
	c := &Conversation{}
	for i := range msgs {
		m := msgs[i]
		switch m.Role {
		case "assistant":
			c.Turns = append(c.Turns, Turn{Role: m.Role, Events: parse(s, m.Content, opts, nil)})
		case "tool":
			v := syntax.AppendQuote(nil, m.Content)
			if json.Valid([]byte(m.Content)) && jsonscan.Kind([]byte(m.Content)) != '"' && len(strings.TrimSpace(m.Content)) > 0 {
				v = jsonscan.Compact([]byte(m.Content)) // JSON content stays JSON
			}
			c.Turns = append(c.Turns, Turn{Role: m.Role, Events: []syntax.Event{{Type: syntax.Result, Tool: m.Name, Status: syntax.Success, Value: v}}})
		case "user":
			results := parse(s, m.Content, opts, func(e syntax.Event) bool { return e.Type == syntax.Result })
			if len(results) > 0 {
				c.Turns = append(c.Turns, Turn{Role: m.Role, Events: results})
				continue
			}
			fallthrough
		default:
			c.Turns = append(c.Turns, Turn{Role: m.Role, Other: &msgs[i]})
		}
	}
	return c
}

// parse parses one message's content, dropping the end event and keeping
// only the events keep accepts (all when keep is nil).
func parse(s syntax.Syntax, content string, opts syntax.Options, keep func(syntax.Event) bool) []syntax.Event {
	var evs []syntax.Event
	for _, e := range syntax.Parse(s, []byte(content), opts) {
		if e.Type == syntax.End || keep != nil && !keep(e) {
			continue
		}
		evs = append(evs, e)
	}
	return evs
}

// Write assembles a conversation back into messages, rendering assistant
// events and results in s. Rendering problems (what s cannot carry) are
// returned together with the messages.
func Write(c *Conversation, s syntax.Syntax, opts syntax.Options) ([]Message, error) {
	if s.Render == nil {
		return nil, fmt.Errorf("conversation: syntax %s has no renderer", s.Name)
	}
	var msgs []Message
	var errs []string
	for _, t := range c.Turns {
		switch {
		case t.Other != nil:
			msgs = append(msgs, *t.Other)
		case t.Role == "assistant":
			text, err := render(s, t.Events, opts)
			if err != nil {
				errs = append(errs, err.Error())
			}
			msgs = append(msgs, Message{Role: "assistant", Content: text})
		default: // results
			text, err := render(s, t.Events, opts)
			if err != nil || (strings.TrimSpace(text) == "" && len(t.Events) > 0) {
				// The syntax has no form for results: one tool message each.
				for _, e := range t.Events {
					content := string(e.Value)
					if str, ok := jsonscan.Unquote(e.Value); ok {
						content = str
					}
					msgs = append(msgs, Message{Role: "tool", Name: e.Tool, Content: content})
				}
				continue
			}
			msgs = append(msgs, Message{Role: "user", Content: text})
		}
	}
	if errs != nil {
		return msgs, fmt.Errorf("conversation: %s", strings.Join(errs, "; "))
	}
	return msgs, nil
}

func render(s syntax.Syntax, evs []syntax.Event, opts syntax.Options) (string, error) {
	var b bytes.Buffer
	err := syntax.Render(s.Render(&b, opts), evs)
	return strings.TrimRight(b.String(), "\n"), err
}
