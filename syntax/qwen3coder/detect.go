package qwen3coder

import (
	"github.com/toolparse/toolparse/internal/rawdetect"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// Detect makes qwen3coder's detector (see syntax.Detector). Its evidence is
// a call opener as the parser reads it: <tool_call>, white space, then
// <function= (Hermes writes '{' there, GLM a name); or a bare
// <function=NAME> followed, after white space, by <parameter= or
// </function> (Llama 3.1 writes '{' there). <think>, <tool_call> and
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
	Shared:        []string{openToolCall, openFunction},
	CallAt:        callAt,
}

// callAt reports whether b, which starts with '<', starts a call as the
// parser reads it: 1 yes, 0 no, -1 when more input is needed.
// ws is where, in b, white space after the tag was read up to by an
// earlier call that needed more input (0 when none), and callAt returns
// where it read it up to this time, so that a long run of white space is
// read once.
func callAt(b []byte, eof bool, ws int) (int, int) {
	if full, partial := scan.MatchPrefix(b, openToolCall); full {
		i := max(ws, len(openToolCall))
		i += skipSpace(b[i:])
		full, partial := scan.MatchPrefix(b[i:], openFunction)
		switch {
		case full:
			return 1, i
		case (partial || i == len(b)) && !eof:
			return -1, i
		}
		return 0, i
	} else if partial && !eof {
		return -1, 0
	}
	n, _ := functionTag(b, eof)
	switch {
	case n < 0:
		return -1, 0
	case n == 0:
		return 0, 0
	}
	i := max(ws, n)
	i += skipSpace(b[i:])
	full1, partial1 := scan.MatchPrefix(b[i:], openParam)
	full2, partial2 := scan.MatchPrefix(b[i:], closeFunction)
	switch {
	case full1 || full2:
		return 1, i
	case (partial1 || partial2 || i == len(b)) && !eof:
		return -1, i
	}
	return 0, i
}
