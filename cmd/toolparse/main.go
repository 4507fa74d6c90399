// Command toolparse reads what a language model wrote when it called tools,
// in any registered syntax, and writes one stream of events.
//
//	toolparse [flags] [FILE...]
//
//	toolparse prompt --syntax NAME --tools FILE
//	toolparse help [prompt]
//
// With no FILE, or with FILE "-", it reads standard input. Each FILE is its
// own stream: its events end with its own "end" event, and with several
// FILEs each event names its FILE in "file". Exit status: 0 done; 1 the input
// had error events and --strict was given; 2 usage or I/O error (a FILE that
// cannot be read, output that cannot be written).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
	"golang.org/x/term"

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
	syntax     string
	output     string
	color      string
	mode       string
	chunkSize  int
	strict     bool
	list       bool
	spans      bool
	version    bool
	maxBlock   int
	maxDepth   int
	multiple   bool
	thinkOpen  bool
	content    string
	to         string
	convo      bool
	tools      string
	noFilename bool
	help       bool
}

// subcommands are the words that, standing first among the arguments that
// are not flags, name a subcommand instead of a FILE.
var subcommands = map[string]bool{"prompt": true, "detect": true, "serve": true, "replay": true, "help": true}

func newFlags(c *config) *pflag.FlagSet {
	fs := pflag.NewFlagSet("toolparse", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.StringVarP(&c.syntax, "syntax", "s", "auto", "the syntax of the input: a name or alias from --list, or auto to detect it")
	fs.StringVarP(&c.output, "output", "o", "jsonl", "output format: jsonl or text")
	fs.StringVar(&c.color, "color", "auto", "color the text output: auto (on a terminal, NO_COLOR unset, TERM not dumb), always or never")
	fs.StringVar(&c.to, "to", "", "write the events back in syntax `NAME` instead (transcode); anthropic, openai, openai-responses, gemini and ollama pick the native form")
	fs.StringVar(&c.mode, "mode", "event", "event (one event per text run) or token (text fragments as they stream)")
	fs.IntVar(&c.chunkSize, "chunk-size", 0, "feed the input in chunks of `N` bytes, to replay streaming (0: as read)")
	fs.StringVar(&c.tools, "tools", "", "validate calls against the tool definitions in `FILE` (OpenAI, Anthropic, MCP or plain JSON), converting caret and xmltag values to their types")
	fs.BoolVar(&c.strict, "strict", false, "exit 1 if there was any error event (or, with --to, anything not carried)")
	fs.BoolVar(&c.spans, "spans", false, "add each event's source byte range as \"span\" (jsonl output)")
	fs.BoolVar(&c.noFilename, "no-filename", false, "with several FILEs, do not add \"file\" to each event (jsonl output)")
	fs.BoolVar(&c.convo, "conversation", false, "the input is a chat transcript (JSON messages); assistant messages are in the syntax, results in user and tool messages")
	fs.IntVar(&c.maxBlock, "max-block", 0, "the most bytes one block may hold (0: the default, 8 MiB)")
	fs.IntVar(&c.maxDepth, "max-depth", 0, "the deepest JSON nesting allowed (0: the default, 512)")
	fs.BoolVar(&c.multiple, "multiple-blocks", false, "allow more than one tool block per message (caret)")
	fs.BoolVar(&c.thinkOpen, "think-open", false, "the prompt opened the reasoning block: the output starts inside it (DeepSeek R1, Qwen3 thinking models)")
	fs.StringVar(&c.content, "content-syntax", "", "with native input: read the text of the model's messages in the syntax `NAME` (or auto), for calls a server left in content")
	fs.BoolVar(&c.list, "list", false, "list the registered syntaxes and exit")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "Usage: toolparse [flags] [FILE...]\n"+
		"       toolparse prompt --syntax NAME --tools FILE\n"+
		"       toolparse serve --backend URL [flags] | --config FILE\n"+
		"       toolparse replay DIR/ID\n"+
		"       toolparse help [prompt|detect|serve]\n\n"+
		"Reads model output (FILEs, or standard input) in a tool-call syntax and\n"+
		"writes its events, one JSON object per line. With several FILEs, each\n"+
		"event names its FILE in \"file\". \"toolparse prompt\" writes a system prompt\n"+
		"that teaches a model the tools in a syntax.\n\nFlags:\n%s\n"+
		"Exit status: 0 done; 1 error events under --strict; 2 usage or I/O error.\n", fs.FlagUsages())
}

// run is the command: it returns the exit status. Every write to stdout goes
// through one writer that keeps the first error, so that a failure to write
// the output exits 2 with a message on every path.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &outWriter{w: stdout}
	code := dispatch(args, stdin, out, stdout, stderr)
	if out.err != nil {
		if !errors.Is(out.err, syscall.EPIPE) { // a reader that went away wants no message
			fmt.Fprintf(stderr, "toolparse: writing output: %v\n", out.err)
		}
		return 2
	}
	return code
}

// outWriter passes writes on until one fails, then keeps that error and
// writes nothing more.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	o.err = err
	return n, err
}

// flagError is the one line a bad flag gets: what is wrong and where help is.
func flagError(stderr io.Writer, cmd, helpCmd string, err error) int {
	msg := err.Error()
	msg = strings.Replace(msg, "unknown flag: ", "unknown flag ", 1)
	msg = strings.Replace(msg, "unknown shorthand flag: ", "unknown flag ", 1)
	fmt.Fprintf(stderr, "%s: %s (see %s)\n", cmd, msg, helpCmd)
	return 2
}

// subcommand finds the first argument that is neither a flag nor a flag's
// value. If it names a subcommand, it returns that name and the arguments
// without it; the flags around it belong to the subcommand. After "--" every
// argument is a FILE (so "toolparse -- prompt" reads a file called prompt).
func subcommand(fs *pflag.FlagSet, args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return "", args
		case strings.HasPrefix(a, "--"):
			if name := a[2:]; !strings.Contains(name, "=") {
				if f := fs.Lookup(name); f != nil && f.NoOptDefVal == "" {
					i++ // the flag's value
				}
			}
		case strings.HasPrefix(a, "-") && a != "-":
			for j := 1; j < len(a); j++ {
				f := fs.ShorthandLookup(a[j : j+1])
				if f == nil {
					break
				}
				if f.NoOptDefVal == "" { // takes a value: the rest, or the next argument
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			if subcommands[a] {
				return a, append(args[:i:i], args[i+1:]...)
			}
			return "", args
		}
	}
	return "", args
}

func dispatch(args []string, stdin io.Reader, stdout, tty, stderr io.Writer) int {
	var c config
	fs := newFlags(&c)
	switch cmd, rest := subcommand(fs, args); cmd {
	case "prompt":
		return runPrompt(rest, stdout, stderr)
	case "detect":
		return runDetect(rest, stdout, stderr)
	case "serve":
		return runServe(rest, stdout, stderr, nil)
	case "replay":
		return runReplay(rest, stdin, stdout, tty, stderr)
	case "help":
		return runHelp(rest, fs, stdout, stderr)
	}
	if err := fs.Parse(args); err != nil {
		return flagError(stderr, "toolparse", "toolparse --help", err)
	}
	switch {
	case c.help:
		usage(stdout, fs)
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
	opts := syntax.Options{MaxBlock: c.maxBlock, MaxDepth: c.maxDepth, MultipleBlocks: c.multiple, ThinkOpen: c.thinkOpen}
	if c.content != "" {
		cs, err := registry.Lookup(c.content)
		if err != nil {
			fmt.Fprintf(stderr, "toolparse: --content-syntax: %v\n", err)
			return 2
		}
		opts.Content = &cs
	}
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
	if c.output != "jsonl" && c.output != "text" {
		fmt.Fprintf(stderr, "toolparse: --output must be jsonl or text, not %q\n", c.output)
		return 2
	}
	color, err := useColor(c.color, tty, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse: %v\n", err)
		return 2
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	warnUseless(stderr, fs, &c)

	var tagger *fileTagger
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
		if c.mode == "token" && !to.Streams {
			fmt.Fprintf(stderr, "toolparse: --mode token does nothing with --to %s (its renderer writes whole units: calls, batches, messages; the native forms stream)\n", c.to)
		}
		out = &transcoder{r: to.Render(stdout, opts), stderr: stderr, to: c.to, seen: map[string]bool{}, out: stdout}
	case c.output == "jsonl":
		w := stdout
		if len(files) > 1 && !c.noFilename {
			tagger = &fileTagger{w: stdout}
			w = tagger
		}
		j := stream.NewJSONL(w)
		j.Spans = c.spans
		out = j
	default:
		t := stream.NewText(stdout)
		t.Color = color
		out = t
	}

	sawError := false
	var h syntax.Handler = func(e syntax.Event) {
		if e.Type == syntax.Error {
			sawError = true
		}
		out.Event(e) // a failure to write is kept by stdout's writer
	}
	if c.tools != "" {
		set, err := schema.LoadFile(c.tools)
		if err != nil {
			fmt.Fprintf(stderr, "toolparse: --tools: %v\n", err)
			return 2
		}
		set.MaxDepth = c.maxDepth
		if c.to != "" && c.mode == "token" {
			h = set.CheckStream(h) // a stream never starts a typed value as a string
		} else {
			h = set.Check(h)
		}
	}
	status := 0
	for _, name := range files {
		if failed(stdout) {
			break // the output is gone: reading on would write nothing
		}
		if tagger != nil {
			tagger.setName(name)
		}
		if code := parseFile(name, syn, &c, opts, stdin, h, out, stdout, stderr, &sawError); code > status {
			status = code
		}
		flush(out) // every event of this FILE is written before the next FILE's
	}
	out.Close()
	if t, ok := out.(*transcoder); ok && len(t.seen) > 0 {
		sawError = true
	}
	if status != 0 {
		return status
	}
	if c.strict && sawError {
		return 1
	}
	return 0
}

// parseFile reads one FILE ("-": standard input) to its end and closes it
// before returning, so that no more than one FILE is open at a time. A FILE
// that cannot be opened or read is reported, and its exit status is 2.
func parseFile(name string, syn syntax.Syntax, c *config, opts syntax.Options, stdin io.Reader, h syntax.Handler, out syntax.Renderer, stdout, stderr io.Writer, sawError *bool) int {
	r := stdin
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
		return convo(syn, r, name, c.to, opts, h, stdout, stderr, sawError)
	}
	if err := parse(syn, r, c.chunkSize, opts, h, out); err != nil {
		fmt.Fprintf(stderr, "toolparse: %s\n", readError(name, err))
		return 2
	}
	return 0
}

func failed(w io.Writer) bool {
	o, ok := w.(*outWriter)
	return ok && o.err != nil
}

// warnUseless says on standard error which of the options given do nothing
// together, so that nobody waits for an effect that cannot come.
func warnUseless(stderr io.Writer, fs *pflag.FlagSet, c *config) {
	warn := func(format string, args ...any) {
		fmt.Fprintf(stderr, "toolparse: "+format+"\n", args...)
	}
	switch {
	case c.to != "":
		if fs.Changed("output") {
			warn("-o %s does nothing with --to (the output is the wire form of %s)", c.output, c.to)
		}
		if c.spans {
			warn("--spans does nothing with --to")
		}
		if fs.Changed("color") {
			warn("--color does nothing with --to")
		}
	case c.output == "text":
		if c.spans {
			warn("--spans does nothing with -o text (only jsonl carries spans)")
		}
		if c.noFilename {
			warn("--no-filename does nothing with -o text")
		}
	default:
		if fs.Changed("color") {
			warn("--color does nothing with -o jsonl (only -o text is colored)")
		}
	}
	if c.convo && c.chunkSize > 0 {
		warn("--chunk-size does nothing with --conversation (a transcript is read whole)")
	}
}

// useColor decides whether -o text is colored: always, never, or (auto) when
// the output is a terminal, NO_COLOR is unset or empty and TERM is not dumb.
func useColor(mode string, w io.Writer, getenv func(string) string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return isTerminal(w) && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb", nil
	}
	return false, fmt.Errorf("--color must be auto, always or never, not %q", mode)
}

// fileTagger adds "file":NAME to each JSON line written through it, after
// the event's type, as grep -H names the file of each line. It is the CLI's
// output layer: events themselves have no file. Lines are whole when the
// JSON renderer is flushed, which the CLI does before it changes the name.
type fileTagger struct {
	w    io.Writer
	tag  []byte
	line []byte
}

func (t *fileTagger) setName(name string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(name)
	t.tag = append([]byte(`"file":`), bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}

func (t *fileTagger) Write(p []byte) (int, error) {
	t.line = append(t.line, p...)
	for {
		i := bytes.IndexByte(t.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := t.line[:i+1]
		if _, err := t.w.Write(t.tagged(line)); err != nil {
			t.line = t.line[:0]
			return 0, err
		}
		t.line = t.line[i+1:]
	}
}

// tagged inserts the tag after the line's "type" member, or first when the
// line does not start with one.
func (t *fileTagger) tagged(line []byte) []byte {
	const typ = `{"type":"`
	at := 1
	if bytes.HasPrefix(line, []byte(typ)) {
		if end := bytes.IndexByte(line[len(typ):], '"'); end >= 0 {
			at = len(typ) + end + 1
		}
	}
	if len(line) < 2 || line[0] != '{' {
		return line
	}
	var b []byte
	b = append(b, line[:at]...)
	if at == 1 {
		b = append(b, t.tag...)
		if line[1] != '}' {
			b = append(b, ',')
		}
	} else {
		b = append(b, ',')
		b = append(b, t.tag...)
	}
	return append(b, line[at:]...)
}

func runHelp(args []string, fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	topics := []string{}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			topics = append(topics, a)
		}
	}
	switch {
	case len(topics) == 0:
		usage(stdout, fs)
		return 0
	case len(topics) == 1 && topics[0] == "prompt":
		return runPrompt([]string{"--help"}, stdout, stderr)
	case len(topics) == 1 && topics[0] == "detect":
		return runDetect([]string{"--help"}, stdout, stderr)
	case len(topics) == 1 && topics[0] == "serve":
		return runServe([]string{"--help"}, stdout, stderr, nil)
	}
	fmt.Fprintf(stderr, "toolparse help: no help on %q (try toolparse help, toolparse help prompt, toolparse help detect, or toolparse help serve)\n", strings.Join(topics, " "))
	return 2
}

// transcoder writes events through a syntax's renderer. What the syntax
// cannot carry is reported on standard error, once per kind of loss.
type transcoder struct {
	r      syntax.Renderer
	stderr io.Writer
	to     string
	seen   map[string]bool
	out    io.Writer // the output, whose failure is reported once, not as a loss
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
	if err == nil || failed(t.out) {
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
	name := fs.StringP("syntax", "s", registry.Builtin()[0].Name, "the syntax to teach")
	tools := fs.String("tools", "", "the tool definitions (`FILE`: OpenAI, Anthropic, MCP or plain JSON)")
	help := fs.BoolP("help", "h", false, "show this help")
	err := fs.Parse(args)
	switch {
	case err != nil:
		return flagError(stderr, "toolparse prompt", "toolparse help prompt", err)
	case *help:
		fmt.Fprintf(stdout, "Usage: toolparse prompt --syntax NAME --tools FILE\n\nWrites the system-prompt text that teaches a model to call the tools in FILE\nin the syntax NAME, with worked examples.\n\nFlags:\n%s", fs.FlagUsages())
		return 0
	case *tools == "":
		fmt.Fprintf(stderr, "toolparse prompt: --tools FILE is required (see toolparse help prompt)\n")
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "toolparse prompt: takes no FILE, got %q (see toolparse help prompt)\n", fs.Arg(0))
		return 2
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
		fmt.Fprintf(stderr, "toolparse prompt: %s\n", strings.TrimPrefix(err.Error(), "prompt: "))
		return 2
	}
	io.WriteString(stdout, p.Text) // a failure is kept by stdout's writer
	return 0
}

// runDetect is "toolparse detect": the syntax a model writes its calls in,
// from its name or its chat template, as one JSON line.
func runDetect(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("toolparse detect", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	model := fs.String("model", "", "a model `NAME`: a Hugging Face id, an Ollama tag, a GGUF file name, an OpenRouter id, an API model")
	template := fs.String("template", "", "a chat template (`FILE`, its Jinja source)")
	help := fs.BoolP("help", "h", false, "show this help")
	err := fs.Parse(args)
	switch {
	case err != nil:
		return flagError(stderr, "toolparse detect", "toolparse help detect", err)
	case *help:
		fmt.Fprintf(stdout, "Usage: toolparse detect --model NAME | --template FILE\n\nWrites the syntax the model writes its tool calls in, whether its prompt opens\nreasoning (think_open: read with --think-open), and what decided, as one JSON\nline: {\"syntax\":…,\"think_open\":…,\"evidence\":…}. With both, the template\ndecides and the name is the fallback.\n\nFlags:\n%s", fs.FlagUsages())
		return 0
	case *model == "" && *template == "":
		fmt.Fprintf(stderr, "toolparse detect: give --model NAME or --template FILE (see toolparse help detect)\n")
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "toolparse detect: takes no FILE, got %q (see toolparse help detect)\n", fs.Arg(0))
		return 2
	}
	var m registry.Match
	var errs []string
	if *template != "" {
		text, err := os.ReadFile(*template)
		if err != nil {
			fmt.Fprintf(stderr, "toolparse detect: %v\n", err)
			return 2
		}
		if m, err = registry.ForTemplate(string(text)); err != nil {
			errs = append(errs, "template: "+err.Error())
		}
	}
	if m.Syntax.Name == "" && *model != "" {
		var err error
		if m, err = registry.ForModel(*model); err != nil {
			errs = append(errs, "model: "+err.Error())
		}
	}
	if m.Syntax.Name == "" {
		fmt.Fprintf(stderr, "toolparse detect: %s\n", strings.Join(errs, "; "))
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false) // markers as they are
	enc.Encode(struct {
		Syntax    string `json:"syntax"`
		ThinkOpen bool   `json:"think_open"`
		Evidence  string `json:"evidence"`
	}{m.Syntax.Name, m.Options.ThinkOpen, m.Evidence})
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
// back as JSON lines of messages in that syntax (what the syntax cannot
// carry counts as an error under --strict); otherwise its events go to h.
func convo(syn syntax.Syntax, r io.Reader, name, to string, opts syntax.Options, h syntax.Handler, stdout, stderr io.Writer, sawError *bool) int {
	msgs, err := conversation.Decode(r)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse: %s\n", readError(name, err))
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
	for _, e := range c.Events() {
		if e.Type == syntax.Error {
			*sawError = true
		}
	}
	back, err := conversation.Write(c, target, opts)
	if err != nil {
		*sawError = true
		fmt.Fprintf(stderr, "toolparse: --to %s: %v\n", to, err)
	}
	enc := json.NewEncoder(stdout) // one message a line, < and > as they are
	enc.SetEscapeHTML(false)
	for _, m := range back {
		if enc.Encode(m) != nil {
			break
		}
	}
	return 0
}

func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// isTerminal reports whether w is a terminal (/dev/null, a character
// device, is not).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// readError says why a FILE could not be read, naming it once.
func readError(name string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, syscall.EISDIR) {
			return displayName(name) + ": is a directory, not a FILE"
		}
		return displayName(name) + ": " + pe.Err.Error()
	}
	return "reading " + displayName(name) + ": " + err.Error()
}
