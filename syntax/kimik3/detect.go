package kimik3

import (
	"github.com/toolparse/toolparse/internal/markup"
	"github.com/toolparse/toolparse/syntax"
)

// detect makes the detector (see syntax.Detector). Every marker the parser
// reads is Kimi K3's own (<|open|>, <|close|> and <|sep|> are its tokens),
// so the first of them is the evidence; in reasoning the prompt opened,
// its closer is one too.
func detect(opts syntax.Options) syntax.Detector {
	if opts.ThinkOpen {
		return markup.OwnMarkers(append([]string{thinkEnd}, textMarkers...), true)
	}
	return markup.OwnMarkers(textMarkers, false)
}
