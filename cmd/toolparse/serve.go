package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolparse/toolparse/serve"
)

// runServe is "toolparse serve": the package serve's handler on an address,
// from a config file or the flags' one route, until interrupted. ready, if
// set, is called with the address once it listens and a function that
// stops the server (for tests).
func runServe(args []string, stdout, stderr io.Writer, ready func(addr string, stop func())) int {
	fs := pflag.NewFlagSet("toolparse serve", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configFile := fs.String("config", "", "a YAML `FILE` of routes and limits (see the serve package's doc)")
	listen := fs.String("listen", "127.0.0.1:8080", "the `ADDR` to listen on")
	backend := fs.String("backend", "", "the backend's base `URL`, as its API's SDK takes it (with /v1 for OpenAI, without for Anthropic, Gemini, Ollama)")
	api := fs.String("backend-api", "openai", "the backend's `API`: openai (Chat Completions), openai-responses, anthropic, gemini, ollama")
	model := fs.String("model", "", "the model `NAME` sent to the backend, whatever the client asks for")
	syn := fs.String("syntax", "auto", "how the backend model's text is read: auto, none, or a syntax `NAME`")
	toolsIn := fs.String("tools-in", "native", "how the request's tools reach the model: native (the backend's tools parameter) or prompt (a system prompt in the --syntax)")
	keyEnv := fs.String("key-env", "", "the environment `VARIABLE` holding the backend's key (else the client's passes through)")
	hold := fs.Bool("hold", false, "hold each response until its calls are complete and valid (no streaming of arguments), so that a failed call can be asked again")
	retries := fs.Int("retries", 0, "with --hold, ask the model again up to `N` times when a call fails to parse or fails its tool's schema, telling it why")
	maxTokens := fs.Int("max-tokens", 0, "cap the requests' max_tokens at `N` (for a backend with a small context)")
	authEnv := fs.String("auth-token-env", "", "the environment `VARIABLE` holding the token clients must present (for listening beyond loopback)")
	maxStreams := fs.Int("max-streams", 0, "serve at most `N` requests at once (0: 1024); one more gets a 429")
	record := fs.String("record", "", "keep each exchange (the backend's request and raw answer, what the client got) in `DIR`")
	quiet := fs.Bool("quiet", false, "no log line per request")
	help := fs.BoolP("help", "h", false, "show this help")
	err := fs.Parse(args)
	switch {
	case err != nil:
		return flagError(stderr, "toolparse serve", "toolparse help serve", err)
	case *help:
		fmt.Fprintf(stdout, "Usage: toolparse serve --backend URL [flags] | --config FILE\n\nServes OpenAI Chat Completions (/v1/chat/completions), OpenAI Responses\n(/v1/responses) and Anthropic Messages (/v1/messages) clients from a backend of any of those APIs, Gemini's or Ollama's: the calls\nthe backend model writes as text, in any syntax, reach the client as native\ntool calls, streamed as they are written.\n\nFlags:\n%s", fs.FlagUsages())
		return 0
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "toolparse serve: takes no FILE, got %q (see toolparse help serve)\n", fs.Arg(0))
		return 2
	}
	var cfg serve.Config
	if *configFile != "" {
		if cfg, err = serve.LoadConfig(*configFile); err != nil {
			fmt.Fprintf(stderr, "toolparse serve: %v\n", err)
			return 2
		}
	}
	if *backend != "" {
		cfg.Routes = append(cfg.Routes, serve.Route{Backend: *backend, API: *api, Model: *model, Syntax: *syn, ToolsIn: *toolsIn, MaxTokens: *maxTokens, KeyEnv: *keyEnv, Hold: *hold, Retries: *retries})
	}
	if *authEnv != "" {
		if cfg.AuthToken = os.Getenv(*authEnv); cfg.AuthToken == "" {
			fmt.Fprintf(stderr, "toolparse serve: --auth-token-env %s: the variable is empty\n", *authEnv)
			return 2
		}
	}
	if *record != "" {
		cfg.Record = *record
	}
	if *maxStreams > 0 {
		cfg.MaxStreams = *maxStreams
	}
	h, err := serve.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse serve: %v (see toolparse help serve)\n", err)
		return 2
	}
	if !*quiet {
		h.SetLogger(slog.New(slog.NewTextHandler(stderr, nil)))
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "toolparse serve: %v\n", err)
		return 2
	}
	// No write timeout: a stream lasts as long as the model writes (the
	// handler bounds the backend's silences); a request's body must come
	// within five minutes.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second, ReadTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(stderr, "toolparse serve: listening on http://%s\n", ln.Addr())
	if ready != nil {
		ready(ln.Addr().String(), stop)
	}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "toolparse serve: %v\n", err)
		return 1
	}
	return 0
}

// runReplay is "toolparse replay DIR/ID": it runs the command line a
// recording of "toolparse serve --record DIR" wrote in ID.replay.json —
// the backend's answer read as the server read it, written in the
// client's API's stream form — with its files taken from DIR.
func runReplay(args []string, stdin io.Reader, stdout, tty, stderr io.Writer) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "toolparse replay: one recording is needed: DIR/ID, as toolparse serve --record DIR named its files")
		return 2
	}
	base := strings.TrimSuffix(args[0], ".replay.json")
	b, err := os.ReadFile(base + ".replay.json")
	if err != nil {
		fmt.Fprintf(stderr, "toolparse replay: %v\n", err)
		return 2
	}
	var rec struct{ Args []string }
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Args) == 0 {
		fmt.Fprintf(stderr, "toolparse replay: %s.replay.json holds no command line\n", base)
		return 2
	}
	dir := filepath.Dir(base)
	line := slices.Clone(rec.Args)
	for i, a := range line {
		// The files: --tools's value and the backend's answer.
		if i == len(line)-1 || i > 0 && line[i-1] == "--tools" {
			line[i] = filepath.Join(dir, filepath.Base(a))
		}
	}
	return dispatch(line, stdin, stdout, tty, stderr)
}
