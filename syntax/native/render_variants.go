package native

import (
	"io"

	"github.com/toolparse/toolparse/syntax"
)

// The renderers of the forms that native.go lists as read only: each
// variant gets its Render here, before any registry copies the Syntax.
// (When native.go is next edited, these belong in its Variants literal.)
func init() {
	forms := map[string]struct {
		render      func(io.Writer, syntax.Options) syntax.Renderer
		description string
	}{
		"openai-responses": {NewResponsesRenderer, "OpenAI Responses items"},
		"gemini":           {NewGeminiRenderer, "Gemini contents"},
		"ollama":           {NewOllamaRenderer, "Ollama /api/chat messages (reads /api/generate too)"},
	}
	for i, v := range Syntax.Variants {
		if f, ok := forms[v.Name]; ok && v.Render == nil {
			Syntax.Variants[i].Render, Syntax.Variants[i].Description = f.render, f.description
		}
	}
}
