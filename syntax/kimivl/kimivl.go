package kimivl

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the kimivl syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "kimivl",
	Aliases:     []string{"kimi-vl"},
	Description: "Kimi-VL Thinking: reasoning in ◁think▷…◁/think▷, then the answer; no tool-call form",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	// No Prompt: there is no form to teach, and prompt.Build says so (serve
	// answers a request with tools for it with that error).
	// Models: see registry.ForModel. No template of the shared set is
	// Kimi-VL's.
	Models: []string{"kimi-vl*", "*/kimi-vl*"},
}

// format is Kimi-VL's, for the tag-call engine: reasoning tags alone, of
// characters no other format writes (◁ U+25C1, ▷ U+25B7), so each is
// evidence of it; there is no call form.
var format = &tagcall.Format{
	Name:     "kimivl",
	Think:    tagcall.Tags{Open: "◁think▷", Close: "◁/think▷"},
	OwnThink: true,
}
