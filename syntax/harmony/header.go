package harmony

import (
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax/scan"
)

// The markers, all special tokens of the o200k_harmony vocabulary.
const (
	startTag     = "<|start|>"
	channelTag   = "<|channel|>"
	messageTag   = "<|message|>"
	constrainTag = "<|constrain|>"
	endTag       = "<|end|>"
	callTag      = "<|call|>"
	returnTag    = "<|return|>"
)

// openers begin a message wherever they stand outside one, and end the
// message they stand in (its end marker is missing).
var openers = []string{startTag, channelTag}

// closers end a message.
var closers = []string{endTag, callTag, returnTag}

// enders end a message's body: its closers, or the next message's opener.
var enders = []string{endTag, callTag, returnTag, startTag, channelTag}

// headerMarkers are the markers a header is read up to, or holds.
var headerMarkers = []string{messageTag, channelTag, constrainTag, startTag, endTag, callTag, returnTag}

// startMarkers are the markers that open the header at the very start of
// the output, where the prompt's <|start|>assistant left off.
var startMarkers = []string{channelTag, messageTag, constrainTag}

func isOne(m string, set []string) bool {
	for _, s := range set {
		if m == s {
			return true
		}
	}
	return false
}

// startLimit bounds what the start of the output is looked at for the rest
// of a header: white space, a recipient, then a marker.
const startLimit = 256

type startVerdict uint8

const (
	startUndecided startVerdict = iota
	startHeader
	startText
)

// readStart decides whether the output begins with the rest of a message
// header, the prompt having ended with <|start|>assistant: optional white
// space and " to=RECIPIENT", then <|channel|>, <|constrain|> or <|message|>.
// It returns the offset of that marker, or of a marker cut off at the end
// of data (undecided), else -1. Only the first startLimit bytes are
// looked at, so the verdict does not depend on how the input is cut.
func readStart(data []byte, eof bool) (int, startVerdict) {
	if len(data) >= startLimit {
		data, eof = data[:startLimit], true
	}
	i := jsonscan.SkipSpace(data, 0)
	if full, partial := scan.MatchPrefix(data[i:], "to="); partial {
		if eof {
			return -1, startText
		}
		return -1, startUndecided
	} else if full {
		j := i + 3
		for j < len(data) && !jsonscan.IsSpace(data[j]) && data[j] != '<' {
			j++
		}
		if j == i+3 && j < len(data) { // "to=" names nothing
			return -1, startText
		}
		i = jsonscan.SkipSpace(data, j)
	}
	if i == len(data) {
		if eof {
			return -1, startText
		}
		return -1, startUndecided
	}
	m, partial := scan.MatchAny(data[i:], eof, startMarkers)
	switch {
	case m != "":
		return i, startHeader
	case partial:
		return i, startUndecided
	}
	return -1, startText
}

// header is what a message header says.
type header struct {
	role, channel, recipient string
}

// parseHeader reads a header's text: [<|start|>]ROLE[ to=R]<|channel|>CHANNEL[ to=R][ <|constrain|>TYPE | TYPE].
// The word after <|constrain|> is the content type, as are other words
// after the channel; a "to=" word anywhere is the recipient (the first one
// counts).
func parseHeader(h string) header {
	h = strings.TrimPrefix(strings.TrimLeft(h, " \t\r\n"), startTag)
	h = strings.TrimSuffix(h, messageTag)
	if strings.Contains(h, constrainTag) {
		parts := strings.Split(h, constrainTag)
		for k := 1; k < len(parts); k++ {
			// The content type after <|constrain|> is dropped; so is nothing else.
			rest := strings.TrimLeft(parts[k], " \t\r\n")
			if i := strings.IndexAny(rest, " \t\r\n"); i >= 0 && !strings.HasPrefix(rest, "to=") {
				parts[k] = rest[i:]
			} else if !strings.HasPrefix(rest, "to=") {
				parts[k] = ""
			}
		}
		h = strings.Join(parts, " ")
	}
	rolePart, chanPart, _ := strings.Cut(h, channelTag)
	var hd header
	for f := range strings.FieldsSeq(rolePart) {
		switch {
		case strings.HasPrefix(f, "to="):
			if hd.recipient == "" {
				hd.recipient = f[3:]
			}
		case hd.role == "":
			hd.role = f
		}
	}
	chanPart = strings.ReplaceAll(chanPart, channelTag, " ")
	for f := range strings.FieldsSeq(chanPart) {
		switch {
		case strings.HasPrefix(f, "to="):
			if hd.recipient == "" {
				hd.recipient = f[3:]
			}
		case hd.channel == "":
			hd.channel = f
		}
	}
	return hd
}
