package syntaxtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

// A Golden is one golden case: a transcript and the events it must give.
//
// On disk it is a txtar archive: free text describing the case, then a
// section "-- input --" with the transcript and a section "-- events --" with
// the expected events as JSON lines, exactly as the toolparse CLI writes them
// (no spans). A section "-- tokens --" holds the token-mode events of the
// whole input given as one chunk (token-mode fragments depend on the
// chunking; at other chunkings the kit checks their invariants instead);
// [RunGoldens] requires it. Lines of the description of the form "option NAME[=VALUE]"
// set parser options:
//
//	option no-final-newline   the input's last newline is not part of it
//	option max-block=N        Options.MaxBlock
//	option max-depth=N        Options.MaxDepth
//	option multiple-blocks    Options.MultipleBlocks
//	option think-open         Options.ThinkOpen
//	option tools=FILE         validate calls against the tool definitions in FILE
//	                          (relative to the golden file's folder)
//	option content-syntax=NAME  Options.Content: the syntax NAME (or auto) of the
//	                          default registry
type Golden struct {
	Path    string
	Comment string
	Input   []byte
	Events  []byte // the expected JSON lines, as in the file
	Tokens  []byte // the expected token-mode JSON lines for the whole input, if the file has a tokens section
	Options syntax.Options
	Tools   string // the tools option, resolved against the file's folder

	section []byte // the input section as in the file (before no-final-newline)
}

// ReadGolden reads a golden case file.
func ReadGolden(path string) (*Golden, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g, err := ParseGolden(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g.Path = path
	if g.Tools != "" {
		g.Tools = filepath.Join(filepath.Dir(path), g.Tools)
	}
	return g, nil
}

// ReadGoldens reads every *.txtar file in dir, sorted by name.
func ReadGoldens(dir string) ([]*Golden, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	var gs []*Golden
	for _, p := range paths {
		g, err := ReadGolden(p)
		if err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// ParseGolden parses a golden case from its txtar text.
func ParseGolden(data []byte) (*Golden, error) {
	comment, files := parseTxtar(data)
	g := &Golden{Comment: comment}
	input, ok := files["input"]
	if !ok {
		return nil, fmt.Errorf("no -- input -- section")
	}
	g.Input, g.section = input, input
	g.Events = files["events"]
	g.Tokens = files["tokens"]
	for _, line := range strings.Split(comment, "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "option ")
		if !ok {
			continue
		}
		name, value, _ := strings.Cut(strings.TrimSpace(name), "=")
		n, _ := strconv.Atoi(value)
		switch name {
		case "no-final-newline":
			g.Input = bytes.TrimSuffix(g.Input, []byte("\n"))
		case "max-block":
			g.Options.MaxBlock = n
		case "max-depth":
			g.Options.MaxDepth = n
		case "multiple-blocks":
			g.Options.MultipleBlocks = true
		case "think-open":
			g.Options.ThinkOpen = true
		case "tools":
			g.Tools = value
		case "content-syntax":
			cs, err := registry.Lookup(value)
			if err != nil {
				return nil, err
			}
			g.Options.Content = &cs
		default:
			return nil, fmt.Errorf("unknown option %q", name)
		}
	}
	return g, nil
}

// WantEvents decodes the expected events.
func (g *Golden) WantEvents() ([]syntax.Event, error) { return DecodeJSONL(g.Events) }

// DecodeJSONL decodes JSON lines of events.
func DecodeJSONL(data []byte) ([]syntax.Event, error) {
	var evs []syntax.Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e syntax.Event
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("events line %d: %v", n, err)
		}
		evs = append(evs, e)
	}
	return evs, sc.Err()
}

// EncodeJSONL writes events as the CLI does by default: one per line, no spans.
func EncodeJSONL(evs []syntax.Event) []byte {
	var b []byte
	for _, e := range evs {
		b = syntax.AppendJSON(b, e, false)
		b = append(b, '\n')
	}
	return b
}

// Format writes g back as txtar text, with events as its expected events
// and tokens, when not nil, as its token-mode events.
func (g *Golden) Format(events, tokens []byte) []byte {
	var b bytes.Buffer
	b.WriteString(g.Comment)
	if g.Comment != "" && !strings.HasSuffix(g.Comment, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("-- input --\n")
	input := g.Input
	if g.section != nil && bytes.Equal(bytes.TrimSuffix(g.section, []byte("\n")), input) {
		input = g.section // as read: no-final-newline takes its newline off again
	}
	b.Write(input)
	if len(input) > 0 && input[len(input)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("-- events --\n")
	b.Write(events)
	if tokens != nil {
		b.WriteString("-- tokens --\n")
		b.Write(tokens)
	}
	return b.Bytes()
}

// parseTxtar splits txtar text into its comment and its files.
func parseTxtar(data []byte) (string, map[string][]byte) {
	files := map[string][]byte{}
	var comment []byte
	name := ""
	var cur []byte
	inFile := false
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		t := bytes.TrimRight(line, "\r\n")
		if bytes.HasPrefix(t, []byte("-- ")) && bytes.HasSuffix(t, []byte(" --")) && len(t) >= 6 {
			if inFile {
				files[name] = cur
			}
			name, cur, inFile = strings.TrimSpace(string(t[3:len(t)-3])), []byte{}, true
			continue
		}
		if inFile {
			cur = append(cur, line...)
		} else {
			comment = append(comment, line...)
		}
	}
	if inFile {
		files[name] = cur
	}
	return string(comment), files
}
