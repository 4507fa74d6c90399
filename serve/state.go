package serve

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"strings"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/syntax"
)

// State across requests. A provider returns state the model's next turn
// needs back (Event.Opaque: Anthropic's thinking signatures, Gemini's
// thought signatures, Responses' encrypted reasoning). When the client's
// API has no field for another provider's state — a Chat Completions
// client of a Gemini backend, an Anthropic client of a Responses backend —
// the state rides in the id of the turn's call, which every client sends
// back with the call and with its result: the id becomes statePrefix and
// the base64url of the call's own id, its state and the turn's thoughts
// that hold state (their text and state). The next request's history is
// read back (unfold) before it is written for the backend, so that any
// replica serves it: nothing is kept here.

// statePrefix starts an id that carries state. Its characters, and
// base64url's, are those every API allows in an id.
const statePrefix = "tps_"

// carried is the state one call's id carries.
type carried struct {
	ID       string          `json:"i,omitempty"` // the call's own id
	Opaque   json.RawMessage `json:"o,omitempty"` // the call's state
	Thoughts []thought       `json:"t,omitempty"` // the turn's thoughts that hold state (the turn's first call only)
}

type thought struct {
	Content string          `json:"c,omitempty"`
	Opaque  json.RawMessage `json:"o"`
}

func (c carried) id() string {
	b, _ := json.Marshal(c)
	return statePrefix + base64.RawURLEncoding.EncodeToString(b)
}

func unwrapID(id string) (carried, bool) {
	var c carried
	rest, ok := strings.CutPrefix(id, statePrefix)
	if !ok {
		return c, false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	return c, err == nil && json.Unmarshal(b, &c) == nil
}

// foreign reports whether the state o has a member for a form other than
// form, which form's writer does not carry.
func foreign(o json.RawMessage, form string) bool {
	if len(o) == 0 {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(o, &m) != nil {
		return false
	}
	for k := range m {
		if k != form {
			return true
		}
	}
	return false
}

// folder folds the state of a response's events that the client's form
// (form) cannot carry into its calls' ids, as the events stream.
type folder struct {
	form     string
	thoughts []thought         // the turn's thoughts with state, for its first call
	ids      map[string]string // a call's id → the id it was given
	folded   int               // thoughts folded into an id
}

func newFolder(form string) *folder { return &folder{form: form, ids: map[string]string{}} }

func (f *folder) event(e syntax.Event) syntax.Event {
	switch {
	case e.Type == syntax.Think && !e.Partial && foreign(e.Opaque, f.form):
		f.thoughts = append(f.thoughts, thought{Content: e.Content, Opaque: e.Opaque})
	case e.Type == syntax.Execute:
		f.thoughts = nil
	case e.Type == syntax.Call && e.Partial && e.Param == "" && e.Delta == "":
		// The call's first event, its id with it: what streams after it
		// cannot change the id, so its own state (known at its end) is not
		// in it, only the thoughts before it.
		if e.ID == "" {
			break
		}
		wrapped := e.ID // the id the call streams under stays its id
		if len(f.thoughts) > 0 {
			wrapped = carried{ID: e.ID, Thoughts: f.thoughts}.id()
			f.folded, f.thoughts = f.folded+len(f.thoughts), nil
		}
		f.ids[e.ID], e.ID = wrapped, wrapped
	case e.Type == syntax.Call && !e.Partial:
		if w, ok := f.ids[e.ID]; ok {
			e.ID = w
		} else if len(f.thoughts) > 0 || foreign(e.Opaque, f.form) {
			c := carried{ID: e.ID, Thoughts: f.thoughts}
			if in, ok := unwrapID(e.ID); ok {
				// A history's call whose id carries state already (a
				// Responses client's item id comes beside it): one id.
				c = in
				c.Thoughts = append(c.Thoughts, f.thoughts...)
			}
			if foreign(e.Opaque, f.form) {
				c.Opaque = merge(c.Opaque, e.Opaque)
			}
			e.ID = c.id()
			f.folded, f.thoughts = f.folded+len(f.thoughts), nil
		}
	}
	return e
}

// fold rewrites a conversation for a form that carries no provider's state
// (the Chat Completions form the request is translated through): each
// assistant turn's state moves into its calls' ids, and the results that
// answer them take the same ids.
func fold(c *conversation.Conversation) {
	ids := map[string]string{}
	for i := range c.Turns {
		t := &c.Turns[i]
		f := newFolder("")
		for k, e := range t.Events {
			switch e.Type {
			case syntax.Result:
				if w, ok := ids[e.ID]; ok && e.ID != "" {
					t.Events[k].ID = w
				}
			case syntax.Think, syntax.Call:
				was := e.ID
				t.Events[k] = f.event(e)
				if e.Type == syntax.Call && t.Events[k].ID != was {
					t.Events[k].Opaque = nil // in the id now
					if was != "" {
						ids[was] = t.Events[k].ID
					}
				}
			}
		}
		// The thoughts folded into an id lose their state here: written
		// in a form without it, they are not reported as not carried.
		for k := range t.Events {
			if f.folded == 0 {
				break
			}
			if e := &t.Events[k]; e.Type == syntax.Think && len(e.Opaque) > 0 {
				e.Opaque = nil
				f.folded--
			}
		}
	}
}

// unfold is fold undone: the state in the ids of a history's calls goes back
// on its calls, and the thoughts it carried back at the start of their turn
// (in place of the turn's thoughts without state, their copies); calls and
// results get their own ids again.
func unfold(c *conversation.Conversation) {
	ids := map[string]string{}
	for i := range c.Turns {
		t := &c.Turns[i]
		var restored []syntax.Event
		for k, e := range t.Events {
			switch e.Type {
			case syntax.Call:
				cs, ok := unwrapID(e.ID)
				if !ok {
					continue
				}
				ids[e.ID] = cs.ID
				t.Events[k].ID = cs.ID
				if len(cs.Opaque) > 0 {
					t.Events[k].Opaque = cs.Opaque
				}
				for _, th := range cs.Thoughts {
					restored = append(restored, syntax.Event{Type: syntax.Think, Content: th.Content, Opaque: th.Opaque})
				}
			case syntax.Result:
				if id, ok := ids[e.ID]; ok {
					t.Events[k].ID = id
				} else if cs, ok := unwrapID(e.ID); ok {
					t.Events[k].ID = cs.ID
				}
			}
		}
		if len(restored) == 0 {
			continue
		}
		// A thought without state that a restored one repeats is its copy
		// (the client's API wrote the text without the state); any other
		// stays (a Responses reasoning item's text beside its state).
		copies := map[string]bool{}
		for _, r := range restored {
			if r.Content != "" {
				copies[r.Content] = true
			}
		}
		evs := restored
		for _, e := range t.Events {
			if e.Type != syntax.Think || len(e.Opaque) > 0 || !copies[e.Content] {
				evs = append(evs, e)
			}
		}
		t.Events = evs
	}
}

// merge is the members of a and b, b's for a key both have.
func merge(a, b json.RawMessage) json.RawMessage {
	if len(a) == 0 {
		return b
	}
	var m, n map[string]json.RawMessage
	if json.Unmarshal(a, &m) != nil || json.Unmarshal(b, &n) != nil {
		return b
	}
	maps.Copy(m, n)
	out, _ := json.Marshal(m)
	return out
}
