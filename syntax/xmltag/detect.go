package xmltag

import (
	"bytes"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/scan"
)

// detect makes xmltag's detector (see syntax.Detector). Its evidence is a
// complete <tool:NAME> tag, or <thinking> once its </thinking> has come (a
// lone "<thinking>" is common in prose and prompts): until then, and at a
// tag cut off at the end of the input so far, it is pending.
func detect(syntax.Options) syntax.Detector { return &detector{at: -1, thinking: -1} }

type detector struct {
	pos      int // every tag that starts before pos is decided (in a thought: where to look for its end)
	thinking int // the open <thinking>, or -1
	at       int // the evidence, once found; -1 before
}

func (d *detector) Look(seen []byte, eof bool) syntax.Evidence {
	for d.at < 0 && d.pos < len(seen) {
		if d.thinking >= 0 {
			if k := bytes.Index(seen[d.pos:], []byte(closeThinking)); k >= 0 {
				d.at = d.thinking
				break
			}
			d.pos = max(d.pos, len(seen)-len(closeThinking)+1)
			break
		}
		j := bytes.IndexByte(seen[d.pos:], '<')
		if j < 0 {
			d.pos = len(seen)
			break
		}
		i := d.pos + j
		d.pos = i
		full, partial := scan.MatchPrefix(seen[i:], openThinking)
		if full {
			d.thinking = i
			d.pos = i + len(openThinking)
			continue
		}
		n, _ := openTool(seen[i:], eof)
		if n > 0 {
			d.at = i
			break
		}
		if (partial || n < 0) && !eof {
			return syntax.Evidence{At: -1, Pending: i, Prose: i}
		}
		d.pos = i + 1
	}
	switch {
	case d.at >= 0:
		return syntax.Evidence{At: d.at, Pending: -1, Prose: d.at}
	case d.thinking >= 0:
		pending := d.thinking
		if eof { // a thought to the end: xmltag's reading, but no evidence
			pending = -1
		}
		return syntax.Evidence{At: -1, Pending: pending, Prose: d.thinking}
	}
	return syntax.NoEvidence(d.pos)
}
