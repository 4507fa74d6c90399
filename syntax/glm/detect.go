package glm

import (
	"github.com/toolparse/toolparse/internal/rawdetect"
	"github.com/toolparse/toolparse/syntax"
)

// Detect makes glm's detector (see syntax.Detector). Its evidence is a
// call opener as the parser reads it: <tool_call>, white space, a NAME,
// then a line end, <arg_key> or </tool_call> (Hermes writes '{' after
// <tool_call>, Qwen3-Coder '<function='). <think>, <tool_call> and
// <tool_response> are shared with other model formats, so they end prose
// but are no evidence by themselves; nothing inside <think> or
// <tool_response> is evidence. With Options.ThinkOpen the input starts in
// reasoning, which a call opener ends as </think> does.
func Detect(opts syntax.Options) syntax.Detector { return rawdetect.New(&detectMarkers, opts) }

var detectMarkers = rawdetect.Markers{
	OpenThink:     openThink,
	CloseThink:    closeThink,
	OpenResponse:  openResponse,
	CloseResponse: closeResponse,
	Shared:        []string{openToolCall},
	CallAt:        callAt,
}

// callAt reports whether b, which starts with '<', starts a call as the
// parser reads it: 1 yes, 0 no, -1 when more input is needed. It reads
// no run of white space to remember, so its second result is always 0.
func callAt(b []byte, eof bool, _ int) (int, int) {
	n, _, _ := callOpener(b, eof)
	switch {
	case n > 0:
		return 1, 0
	case n == -1:
		return -1, 0
	}
	return 0, 0
}
