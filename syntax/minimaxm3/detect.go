package minimaxm3

import (
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
)

// detect makes the detector (see syntax.Detector). Every marker the parser
// reads is MiniMax M3's own — <mm:think>, ns<tool_call>, and, in reasoning
// the prompt opened, </mm:think> — so the first of them is the evidence.
func detect(opts syntax.Options) syntax.Detector {
	if opts.ThinkOpen {
		return markup.OwnMarkers([]string{openThink, openBlock, closeThink}, true)
	}
	return markup.OwnMarkers([]string{openThink, openBlock}, false)
}
