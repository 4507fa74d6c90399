// Command toolparse reads what a language model wrote when it called tools,
// in any registered syntax, and writes one stream of events.
//
//	toolparse [flags] [FILE...]
//
// With no FILE, or with FILE "-", it reads standard input. Each FILE is its
// own stream: its events end with its own "end" event. Exit status: 0 done;
// 1 the input had error events and --strict was given; 2 usage or I/O error.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/toolparse/toolparse/conversation"
	"github.com/toolparse/toolparse/prompt"
	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/stream"
	"github.com/toolparse/toolparse/syntax"
)

// version, when a packager sets it with -ldflags "-X main.version=…", is
// the version --version prints; otherwise the build says (see buildVersion).
var version string

// buildVersion is the version of this binary as the build recorded it: the
// module version under "go install …@v…" (or a checkout's pseudo-version),
// else the VCS revision of a checkout ("+dirty" when it had changes), else
// "devel".
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

func currentVersion() string {
	if version != "" {
		return version
	}
	return buildVersion(debug.ReadBuildInfo())
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type config struct {
	syntax    string
	output    string
	mode      string
	chunkSize int
	strict    bool
	list      bool
	spans     bool
	version   bool
	maxBlock  int
	maxDepth  int
	multiple  bool
	to        string
	convo     bool
	tools     string
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "prompt" {
		return runPrompt(args[1:], stdout, stderr)
	}
	var c config
	fs := pflag.NewFlagSet("toolparse", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVarP(&c.syntax, "syntax", "s", "auto", "the syntax of the input: a name or alias from --list, or auto to detect it")
	fs.StringVarP(&c.output, "output", "o", "jsonl", "output format: jsonl or text")
	fs.StringVar(&c.to, "to", "", "write the events back in syntax `NAME` instead (transcode); openai and anthropic pick the native form")
	fs.StringVar(&c.mode, "mode", "event", "event (one event per text run) or token (text fragments as they stream)")
	fs.IntVar(&c.chunkSize, "chunk-size", 0, "feed the input in chunks of `N` bytes, to replay streaming (0: as read)")
	fs.BoolVar(&c.strict, "strict", false, "exit 1 if the input produced any error event")
	fs.BoolVar(&c.list, "list", false, "list the registered syntaxes and exit")
	fs.BoolVar(&c.spans, "spans", false, "add each event's source byte range as \"span\" (jsonl output)")
	fs.IntVar(&c.maxBlock, "max-block", 0, "the most bytes one block may hold (0: the default, 8 MiB)")
	fs.IntVar(&c.maxDepth, "max-depth", 0, "the deepest JSON nesting allowed (0: the default, 512)")
	fs.BoolVar(&c.multiple, "multiple-blocks", false, "allow more than one tool block per message (caret)")
	fs.BoolVar(&c.convo, "conversation", false, "the input is a chat transcript (JSON messages); assistant messages are in the syntax, results in user and tool messages")
	fs.StringVar(&c.tools, "tools", "", "validate calls against the tool definitions in `FILE` (OpenAI, Anthropic, MCP or plain JSON), converting caret and xmltag values to their types")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	help := fs.BoolP("help", "h", false, "show this help")
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: toolparse [flags] [FILE...]\n\n"+
			"Reads model output (FILEs, or standard input) in a tool-call syntax and\n"+
			"writes its events, one JSON object per line.\n"+
			"\"toolparse prompt --syntax NAME --tools FILE\" writes a system prompt for the tools.\n\nFlags:\n%s\n"+
			"Exit status: 0 done; 1 error events under --strict; 2 usage or I/O error.\n", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "toolparse: %v\n", err)
		usage(stderr)
		return 2
	}
	switch {
	case *help:
		usage(stdout)
		return 0
	case c.version:
		fmt.Fprintf(stdout, "toolparse %s\n", currentVersion())
		return 0
	case c.list:
		for _, s := range registry.List() {
			aliases := ""
			if len(s.Aliases) > 0 {
				aliases = " (" + strings.Join(s.Aliases, ", ") + ")"
			}
			fmt.Fprintf(stdout, "%s%s\t%s\n", s.Name, aliases, s.Description)
			for _, v := range s.Variants {
				fmt.Fprintf(stdout, "  %s\t%s\n", v.Name, v.Description)
			}
		}
		fmt.Fprintf(stdout, "%s\t%s\n", registry.AutoName, registry.Default().Auto().Description)
		return 0
	}

	syn, err := registry.Lookup(c.syntax)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse: %v\n", err)
		return 2
	}
	opts := syntax.Options{MaxBlock: c.maxBlock, MaxDepth: c.maxDepth, MultipleBlocks: c.multiple}
	switch c.mode {
	case "event":
	case "token":
		opts.Mode = syntax.TokenMode
	default:
		fmt.Fprintf(stderr, "toolparse: --mode must be event or token, not %q\n", c.mode)
		return 2
	}
	if c.chunkSize < 0 || c.maxBlock < 0 || c.maxDepth < 0 {
		fmt.Fprintf(stderr, "toolparse: --chunk-size, --max-block and --max-depth take a number of 0 or more\n")
		return 2
	}
	var out syntax.Renderer
	switch {
	case c.to != "":
		to, err := registry.Lookup(c.to)
		if err != nil {
			fmt.Fprintf(stderr, "toolparse: --to: %v\n", err)
			return 2
		}
		if to.Render == nil {
			fmt.Fprintf(stderr, "toolparse: --to %s: that form of %s cannot be written yet\n", c.to, to.Name)
			return 2
		}
		out = &transcoder{r: to.Render(stdout, opts), stderr: stderr, to: c.to, seen: map[string]bool{}}
	case c.output == "jsonl":
		j := stream.NewJSONL(stdout)
		j.Spans = c.spans
		out = j
	case c.output == "text":
		t := stream.NewText(stdout)
		t.Color = isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
		out = t
	default:
		fmt.Fprintf(stderr, "toolparse: --output must be jsonl or text, not %q\n", c.output)
		return 2
	}

	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	sawError := false
	var writeErr error
	var h syntax.Handler = func(e syntax.Event) {
		if e.Type == syntax.Error {
			sawError = true
		}
		if err := out.Event(e); err != nil && writeErr == nil {
			writeErr = err
		}
	}
	if c.tools != "" {
		set, err := schema.LoadFile(c.tools)
		if err != nil {
			fmt.Fprintf(stderr, "toolparse: --tools: %v\n", err)
			return 2
		}
		set.MaxDepth = c.maxDepth
		h = set.Check(h)
	}
	for _, name := range files {
		var r io.Reader = stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintf(stderr, "toolparse: %v\n", err)
				return 2
			}
			defer f.Close()
			r = f
		}
		if c.convo {
			if code := convo(syn, r, name, c.to, opts, h, stdout, stderr); code != 0 {
				return code
			}
			continue
		}
		if err := parse(syn, r, c.chunkSize, opts, h, out); err != nil {
			flush(out)
			fmt.Fprintf(stderr, "toolparse: reading %s: %v\n", displayName(name), err)
			return 2
		}
	}
	if err := out.Close(); err != nil && writeErr == nil {
		writeErr = err
	}
	if writeErr != nil {
		fmt.Fprintf(stderr, "toolparse: writing output: %v\n", writeErr)
		return 2
	}
	if t, ok := out.(*transcoder); ok && len(t.seen) > 0 {
		sawError = true
	}
	if c.strict && sawError {
		return 1
	}
	return 0
}

// transcoder writes events through a syntax's renderer. What the syntax
// cannot carry is reported on standard error, once per kind of loss.
type transcoder struct {
	r      syntax.Renderer
	stderr io.Writer
	to     string
	seen   map[string]bool
}

func (t *transcoder) Event(e syntax.Event) error {
	t.report(t.r.Event(e))
	return nil
}

func (t *transcoder) Flush() error { return flush(t.r) }

func (t *transcoder) Close() error {
	t.report(t.r.Close())
	return nil
}

func (t *transcoder) report(err error) {
	if err == nil {
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if !t.seen[line] {
			t.seen[line] = true
			fmt.Fprintf(t.stderr, "toolparse: --to %s: %s\n", t.to, line)
		}
	}
}

// runPrompt is "toolparse prompt": it writes the system-prompt text that
// teaches a model to call the given tools in a syntax.
func runPrompt(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("toolparse prompt", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.StringP("syntax", "s", "xmljson", "the syntax to teach")
	tools := fs.String("tools", "", "the tool definitions (`FILE`: OpenAI, Anthropic, MCP or plain JSON)")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil || *help || *tools == "" || fs.NArg() > 0 {
		w, code := stderr, 2
		if *help {
			w, code = stdout, 0
		} else if err != nil {
			fmt.Fprintf(stderr, "toolparse prompt: %v\n", err)
		} else {
			fmt.Fprintf(stderr, "toolparse prompt: --tools FILE is required\n")
		}
		fmt.Fprintf(w, "Usage: toolparse prompt --syntax NAME --tools FILE\n\nWrites the system-prompt text that teaches a model to call the tools in FILE\nin the syntax NAME, with worked examples.\n\nFlags:\n%s", fs.FlagUsages())
		return code
	}
	syn, err := registry.Lookup(*name)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse prompt: %v\n", err)
		return 2
	}
	set, err := schema.LoadFile(*tools)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse prompt: --tools: %v\n", err)
		return 2
	}
	p, err := prompt.Build(syn, set)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse prompt: %v\n", err)
		return 2
	}
	io.WriteString(stdout, p.Text)
	return 0
}

// flush writes what r has buffered, if it can.
func flush(r syntax.Renderer) error {
	if f, ok := r.(syntax.Flusher); ok {
		return f.Flush()
	}
	return nil
}

// parse feeds r to a new parser, in chunks of chunkSize bytes when it is set,
// flushing the output after every chunk so events appear as they are produced.
func parse(s syntax.Syntax, r io.Reader, chunkSize int, opts syntax.Options, h syntax.Handler, out syntax.Renderer) error {
	p := s.New(h, opts)
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		data := buf[:n]
		for len(data) > 0 {
			k := len(data)
			if chunkSize > 0 && k > chunkSize {
				k = chunkSize
			}
			p.Write(data[:k])
			data = data[k:]
		}
		if n > 0 {
			flush(out)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p.Close()
			return err
		}
	}
	return p.Close()
}

// convo reads a chat transcript. With to set, it writes the conversation
// back as JSON lines of messages in that syntax; otherwise its events go to h.
func convo(syn syntax.Syntax, r io.Reader, name, to string, opts syntax.Options, h syntax.Handler, stdout, stderr io.Writer) int {
	msgs, err := conversation.Decode(r)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse: reading %s: %v\n", displayName(name), err)
		return 2
	}
	c := conversation.Read(msgs, syn, opts)
	if to == "" {
		for _, e := range c.Events() {
			h(e)
		}
		return 0
	}
	target, err := registry.Lookup(to)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse: --to: %v\n", err)
		return 2
	}
	back, err := conversation.Write(c, target, opts)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse: --to %s: %v\n", target.Name, err)
	}
	for _, m := range back {
		b, _ := json.Marshal(m)
		fmt.Fprintf(stdout, "%s\n", b)
	}
	return 0
}

func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
