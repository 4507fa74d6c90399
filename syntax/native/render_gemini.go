package native

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newGeminiRenderer returns a renderer that writes events as Gemini
// contents, one JSON document per line: the model's output up to an execute
// (or to results, or the end) is a response,
// {"candidates":[{"content":{"role":"model","parts":[…]},"finishReason":"STOP"}]},
// its parts in stream order — a text part per text run, a text part with
// "thought":true per thought, a functionCall part per call ({name, args,
// id}); a run of results is a request's user content,
// {"contents":[{"role":"user","parts":[{"functionResponse":{id, name,
// response}}…]}]}. Adjacent thoughts are one part (Gemini's parser joins
// adjacent parts of a kind).
//
// Gemini has no refusal, custom or provider-run tool form: refusals are
// written as text, custom calls as calls, hosted calls and results not at
// all. A functionResponse's response is an object, read as Gemini's
// documentation says: a failure is written as {"error": content}, and a
// content that is not an object, or that would read back otherwise (it has
// an "error" member, or "output" is its only one), as {"output": content}.
// It cannot carry calls no execute followed, or an execute with no
// call. Each loss is reported. A call without an id is given one (call_1,
// call_2, … in stream order), and the results that answer it the same id.
func newGeminiRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	if opts.Mode == syntax.TokenMode {
		r, _ := NewStream("gemini", w, StreamOptions{})
		return r
	}
	r := wire.New(geminiName, &geminiUnits{w: bufio.NewWriter(w)})
	r.IDs, r.Form = true, geminiName
	return r
}

const geminiName = "gemini"

type (
	gFunctionCall struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
		ID   string          `json:"id,omitempty"`
	}
	gFunctionResponse struct {
		ID       string          `json:"id,omitempty"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	}
	gPart struct {
		Text             *string            `json:"text,omitempty"`
		Thought          bool               `json:"thought,omitempty"`
		ThoughtSignature string             `json:"thoughtSignature,omitempty"`
		FunctionCall     *gFunctionCall     `json:"functionCall,omitempty"`
		FunctionResponse *gFunctionResponse `json:"functionResponse,omitempty"`
	}
	gContent struct {
		Role  string  `json:"role"`
		Parts []gPart `json:"parts"`
	}
	gCandidate struct {
		Content      gContent `json:"content"`
		FinishReason string   `json:"finishReason"`
	}
)

type geminiUnits struct {
	w     *bufio.Writer
	parts []gPart // the open model content's parts
	calls int
}

func (u *geminiUnits) Text(t syntax.Type, s string) error {
	thought := t == syntax.Think
	if n := len(u.parts); n > 0 && u.parts[n-1].Text != nil && u.parts[n-1].Thought == thought && u.parts[n-1].ThoughtSignature == "" {
		joined := *u.parts[n-1].Text + "\n\n" + s
		u.parts[n-1].Text = &joined
		return nil
	}
	u.parts = append(u.parts, gPart{Text: &s, Thought: thought})
	return nil
}

// TextOpaque writes a text or thought part with the thoughtSignature it
// came with, a part of its own (a signature is the part's).
func (u *geminiUnits) TextOpaque(t syntax.Type, s string, state json.RawMessage) error {
	u.parts = append(u.parts, gPart{Text: &s, Thought: t == syntax.Think, ThoughtSignature: geminiSignature(state)})
	return nil
}

// geminiSignature is the thoughtSignature of Gemini's state, or "".
func geminiSignature(state json.RawMessage) string {
	var st struct {
		ThoughtSignature string `json:"thoughtSignature"`
	}
	json.Unmarshal(state, &st)
	return st.ThoughtSignature
}

func (u *geminiUnits) Calls(calls []syntax.Event) error {
	for _, c := range calls {
		sig := ""
		if len(c.Opaque) > 0 {
			var st map[string]json.RawMessage
			json.Unmarshal(c.Opaque, &st)
			sig = geminiSignature(st[geminiName])
		}
		u.parts = append(u.parts, gPart{FunctionCall: &gFunctionCall{Name: c.Name, Args: c.ArgsJSON(), ID: c.ID}, ThoughtSignature: sig})
	}
	u.calls += len(calls)
	return nil
}

func (u *geminiUnits) Execute() error {
	if u.calls == 0 {
		return wire.CannotCarry(geminiName, "an execute with no call")
	}
	return u.model()
}

// model writes the open model content as a response, if it has parts.
func (u *geminiUnits) model() error {
	if len(u.parts) == 0 {
		return nil
	}
	doc := struct {
		Candidates []gCandidate `json:"candidates"`
	}{[]gCandidate{{Content: gContent{Role: "model", Parts: u.parts}, FinishReason: "STOP"}}}
	u.parts, u.calls = nil, 0
	return writeLine(u.w, doc)
}

func (u *geminiUnits) pending() error {
	if u.calls == 0 {
		return nil
	}
	n := u.calls
	u.parts, u.calls = nil, 0
	return wire.CannotCarry(geminiName, "%d call(s) with no execute: a model turn's function calls are executed; the turn is not written", n)
}

func (u *geminiUnits) Results(rs []syntax.Event) error {
	err := errors.Join(u.pending(), u.model())
	parts := make([]gPart, len(rs))
	for i, r := range rs {
		resp := r.ValueJSON()
		switch {
		case r.Status == syntax.Failure:
			resp = wrap("error", resp)
		case jsonscan.Kind(resp) != '{' || jsonscan.Member(resp, "error") != nil || onlyMember(resp, "output"):
			resp = wrap("output", resp) // else it would read back as something else
		}
		parts[i] = gPart{FunctionResponse: &gFunctionResponse{ID: r.ID, Name: r.Tool, Response: resp}}
	}
	doc := struct {
		Contents []gContent `json:"contents"`
	}{[]gContent{{Role: "user", Parts: parts}}}
	return errors.Join(err, writeLine(u.w, doc))
}

// onlyMember reports whether the object obj has key and no other member.
func onlyMember(obj []byte, key string) bool {
	return memberCount(obj) == 1 && jsonscan.Member(obj, key) != nil
}

// memberCount is the number of members of the object obj.
func memberCount(obj []byte) int {
	n := 0
	jsonscan.MembersRaw(obj, func(_, _ []byte) bool { n++; return true })
	return n
}

// wrap returns {"key": v}.
func wrap(key string, v []byte) json.RawMessage {
	b := append(syntax.AppendQuote([]byte{'{'}, key), ':')
	return append(append(b, v...), '}')
}

func (u *geminiUnits) Flush() error { return u.w.Flush() }

func (u *geminiUnits) End() error {
	err := errors.Join(u.pending(), u.model())
	return errors.Join(err, u.w.Flush())
}
