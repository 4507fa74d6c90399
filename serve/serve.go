package serve

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/schema"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/native"
)

// Handler serves the client APIs (see the package documentation). Make it
// with New.
type Handler struct {
	cfg     Config
	streams chan struct{} // a slot per request being served (Config.MaxStreams)
	client  *http.Client
	mux     *http.ServeMux
	log     *slog.Logger
}

// New returns the handler of cfg, which it checks.
func New(cfg Config) (*Handler, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	h := &Handler{cfg: cfg, mux: http.NewServeMux(), log: slog.New(slog.NewTextHandler(io.Discard, nil)), streams: make(chan struct{}, cfg.MaxStreams)}
	dial := min(cfg.FirstByte, 30*time.Second)
	h.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: dial, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   dial,
			ResponseHeaderTimeout: cfg.FirstByte,
			MaxIdleConnsPerHost:   64,
		},
		// The backend is the configured URL, never where it redirects:
		// a redirect would carry the key elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	h.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`)
	})
	h.mux.HandleFunc("HEAD /api/hello", func(w http.ResponseWriter, r *http.Request) {})
	h.mux.HandleFunc("GET /api/hello", func(w http.ResponseWriter, r *http.Request) {})
	h.mux.HandleFunc("GET /v1/models", h.guard(h.models))
	h.mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) { h.serve(w, r, chatAPI) })
	h.mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) { h.serve(w, r, messagesAPI) })
	h.mux.HandleFunc("POST /v1/messages/count_tokens", h.guard(h.countTokens))
	h.mux.HandleFunc("POST /v1/responses", func(w http.ResponseWriter, r *http.Request) { h.serve(w, r, responsesAPI) })
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		api := chatAPI
		if strings.HasPrefix(r.URL.Path, "/v1/messages") || r.Header.Get("anthropic-version") != "" {
			api = messagesAPI
		}
		writeError(w, api, http.StatusNotFound, fmt.Sprintf("no %s %s here", r.Method, r.URL.Path))
	})
	return h, nil
}

// SetLogger makes the handler write one line per request to l.
func (h *Handler) SetLogger(l *slog.Logger) { h.log = l }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// clientAPI is a client's API: how its requests are read and its responses
// written.
type clientAPI struct {
	name string // the native form the responses are written in
	// backendRequest turns the client's request into a Chat Completions
	// request's members (model and stream are set after).
	backendRequest func(req map[string]json.RawMessage, n *notes) (map[string]json.RawMessage, error)
	whole          func(evs []syntax.Event, o native.StreamOptions, n *notes) ([]byte, error)
	// errorBody is an error in the API's shape.
	errorBody func(status int, msg string) []byte
}

var (
	chatAPI      = &clientAPI{name: "openai", backendRequest: chatRequest, whole: wholeChat, errorBody: openaiError}
	messagesAPI  = &clientAPI{name: "anthropic", backendRequest: messagesRequest, whole: wholeMessage, errorBody: anthropicError}
	responsesAPI = &clientAPI{name: "openai-responses", backendRequest: responsesRequest, whole: wholeResponse, errorBody: openaiError}
)

// guard makes f answer only a client that presents the token.
func (h *Handler) guard(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !h.authorized(r) {
			api := chatAPI
			if r.Header.Get("anthropic-version") != "" || strings.HasPrefix(r.URL.Path, "/v1/messages") {
				api = messagesAPI
			}
			writeError(w, api, http.StatusUnauthorized, "a valid token is required (Authorization: Bearer, or x-api-key)")
			return
		}
		f(w, r)
	}
}

// authorized reports whether r presents the configured token (or none is
// configured).
func (h *Handler) authorized(r *http.Request) bool {
	if h.cfg.AuthToken == "" {
		return true
	}
	got := r.Header.Get("x-api-key")
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		got = strings.TrimPrefix(a, "Bearer ")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(h.cfg.AuthToken)) == 1
}

// serve answers one request of api.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, api *clientAPI) {
	start := time.Now()
	if !h.authorized(r) {
		writeError(w, api, http.StatusUnauthorized, "a valid token is required (Authorization: Bearer, or x-api-key)")
		return
	}
	select {
	case h.streams <- struct{}{}:
		defer func() { <-h.streams }()
	default:
		writeError(w, api, http.StatusTooManyRequests, fmt.Sprintf("more than %d requests are open; try again", h.cfg.MaxStreams))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, api, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is longer than %d bytes", h.cfg.MaxBody))
			return
		}
		writeError(w, api, http.StatusBadRequest, "the request body could not be read: "+err.Error())
		return
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil || req == nil {
		writeError(w, api, http.StatusBadRequest, "the request body is not a JSON object")
		return
	}
	var model string
	if err := json.Unmarshal(req["model"], &model); err != nil || model == "" {
		writeError(w, api, http.StatusBadRequest, "model: a model name is required")
		return
	}
	var stream bool
	json.Unmarshal(req["stream"], &stream)
	route := h.cfg.route(model)
	if route == nil {
		writeError(w, api, http.StatusNotFound, fmt.Sprintf("model %q: no route serves it", model))
		return
	}
	var n notes // what is not carried, reported in the request's log line
	// A Chat client's stream has the usage chunk only when it asked for it
	// (a client that reads choices[0] of every chunk breaks on it).
	var so struct {
		IncludeUsage bool `json:"include_usage"`
	}
	json.Unmarshal(req["stream_options"], &so)
	streamUsage := api != chatAPI || so.IncludeUsage
	breq, err := api.backendRequest(req, &n)
	if err != nil {
		writeError(w, api, http.StatusBadRequest, err.Error())
		return
	}
	backendModel := model
	if route.Model != "" {
		backendModel = route.Model
	}
	if mct, ok := breq["max_completion_tokens"]; ok {
		// Chat's newer name for max_tokens: one field for every backend.
		if _, has := breq["max_tokens"]; !has {
			breq["max_tokens"] = mct
		}
		delete(breq, "max_completion_tokens")
	}
	if route.MaxTokens > 0 {
		var n int
		if json.Unmarshal(breq["max_tokens"], &n) != nil || n > route.MaxTokens {
			breq["max_tokens"], _ = json.Marshal(route.MaxTokens)
		}
	}
	textSyntax, evidence := contentSyntax(route.Syntax, backendModel)
	if route.ToolsIn == "prompt" {
		if textSyntax.Name == registry.AutoName {
			textSyntax, _ = registry.Lookup(promptDefault)
		}
		if err := toolsInPrompt(breq, textSyntax, &n); err != nil {
			writeError(w, api, http.StatusBadRequest, err.Error())
			return
		}
	}
	path, out, err := backendAPIs[route.API].build(breq, backendModel, &n)
	if err != nil {
		writeError(w, api, http.StatusBadRequest, err.Error())
		return
	}

	meta := native.StreamOptions{ID: newID(), Model: model, Created: time.Now().Unix()}
	ctx, cancel := context.WithCancel(r.Context()) // a client that goes away cancels the backend's request
	defer cancel()
	var rec *recording
	if h.cfg.Record != "" {
		if rec, err = h.record(meta.ID); err != nil {
			h.log.Info("request", "record_error", err.Error())
		} else {
			defer rec.close()
			w = &teeWriter{ResponseWriter: w, copy: rec.client}
		}
	}

	opts := syntax.Options{Mode: syntax.TokenMode} // a whole response too: a call that fails after it began is told apart
	if route.Syntax != "none" {
		opts.Content = &textSyntax
	}
	// The request's tools convert the values syntaxes read as strings to
	// their declared types (a client refuses "1000" where its schema says
	// number), and hold back a typed value from streaming as a string.
	check := func(h syntax.Handler) syntax.Handler { return h }
	if tools, ok := req["tools"]; ok && len(tools) > 2 {
		if set, err := schema.Load(tools); err == nil {
			check = set.CheckStream
		} else {
			h.log.Info("request", "api", api.name, "model", model, "tools_error", err.Error())
		}
	}
	x := &exchange{h: h, ctx: ctx, cancel: cancel, route: route, client: r, rec: rec}
	attrs := []any{"api", api.name, "model", model, "backend_model", backendModel, "stream", stream}
	if route.Syntax == "none" {
		attrs = append(attrs, "syntax", "none")
	} else {
		attrs = append(attrs, "syntax", textSyntax.Name, "syntax_evidence", evidence)
	}
	switch {
	case stream && !route.Hold:
		body, ok := x.open(w, api, path, out, 0)
		if !ok {
			return
		}
		defer body.Close()
		send, enc := x.openStream(w, api, meta, streamUsage, &n)
		fl := newFolder(api.name) // state the client's API has no field for rides in call ids
		p := native.Syntax.New(check(func(e syntax.Event) {
			e = fl.event(e)
			x.count(e)
			send(e)
		}), opts)
		if err := h.copy(ctx, cancel, p, body, func() {
			if f, ok := enc.(syntax.Flusher); ok {
				f.Flush()
			}
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}); err != nil {
			x.failure = "the backend's stream broke: " + err.Error()
		}
		p.Close()
		n.err(enc.Close())
	default:
		// The whole turn is read before the client gets any of it: a
		// whole response, or a held one (Route.Hold), whose calls are
		// checked and the turn asked again when one failed.
		var evs []syntax.Event
		for attempt := 0; ; attempt++ {
			body, ok := x.open(w, api, path, out, attempt)
			if !ok && attempt > 0 {
				break // a retry the backend refused: the turn read before it stands
			}
			if !ok {
				return
			}
			x.calls, x.errs, x.failure = 0, 0, ""
			evs = evs[:0]
			fl := newFolder(api.name)
			p := native.Syntax.New(check(func(e syntax.Event) { e = fl.event(e); x.count(e); evs = append(evs, e) }), opts)
			err := h.copy(ctx, cancel, p, body, func() {})
			p.Close()
			body.Close()
			if err != nil {
				x.failure = "the backend's stream broke: " + err.Error()
			}
			problem, raw := failedCall(evs)
			if !route.Hold || problem == "" || x.failure != "" || attempt >= route.Retries {
				if attempt > 0 {
					attrs = append(attrs, "retries", attempt)
				}
				break
			}
			// Ask again, with what the model wrote and why it failed.
			retry, err := retryRequest(breq, raw, problem)
			if err == nil {
				path, out, err = backendAPIs[route.API].build(retry, backendModel, &n)
			}
			if err != nil {
				break
			}
			h.log.Info("retry", "api", api.name, "model", model, "attempt", attempt+1, "problem", problem)
		}
		if stream {
			send, enc := x.openStream(w, api, meta, streamUsage, &n)
			for _, e := range evs {
				send(e)
			}
			n.err(enc.Close())
			break
		}
		doc, werr := api.whole(evs, meta, &n)
		switch {
		case x.failure != "":
			writeError(w, api, http.StatusBadGateway, x.failure)
		case werr != nil:
			writeError(w, api, http.StatusBadGateway, werr.Error())
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write(doc)
		}
	}
	if rec != nil {
		if err := rec.replay(api.name, textSyntax.Name, route.Syntax != "none", req["tools"], x.attempts); err != nil {
			h.log.Info("request", "record_error", err.Error())
		}
	}
	attrs = append(attrs, "calls", x.calls, "errors", x.errs, "ms", time.Since(start).Milliseconds())
	if x.failure != "" {
		attrs = append(attrs, "failure", x.failure)
	}
	if len(n.list) > 0 {
		attrs = append(attrs, "not_carried", strings.Join(n.list, "; "))
	}
	h.log.Info("request", attrs...)
}

// exchange is one client request's traffic with the backend.
type exchange struct {
	h      *Handler
	ctx    context.Context
	cancel context.CancelFunc
	route  *Route
	client *http.Request
	rec    *recording

	calls, errs int
	failure     string // what the backend's stream said of a failure the events do not carry
	attempts    int    // requests sent to the backend
}

// openStream starts the client's stream (SSE) in its API's form, and
// returns the function that passes each event of the backend's turn on to
// it: the usage only when the client's API streams it (usage), and at the
// end the form's error when the backend's stream failed in a way the events
// do not say.
func (x *exchange) openStream(w http.ResponseWriter, api *clientAPI, meta native.StreamOptions, usage bool, n *notes) (send func(syntax.Event), enc syntax.Renderer) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	enc, _ = native.NewStream(api.name, w, meta)
	return func(e syntax.Event) {
		switch {
		case e.Type == syntax.Usage && !usage:
		case e.Type == syntax.End && x.failure != "":
			enc.(native.Failer).Fail(false, x.failure)
		default:
			n.err(enc.Event(e))
		}
	}, enc
}

// count notes what the events of the backend's answer hold.
func (x *exchange) count(e syntax.Event) {
	switch {
	case e.Type == syntax.Call && !e.Partial:
		x.calls++
	case e.Type == syntax.Error:
		x.errs++
		if e.Message == native.ProviderError {
			x.failure = "the backend reported an error: " + e.Raw
		}
	}
}

// open sends the request body out to path on the backend and returns its
// answer's body (recorded when the server records), or, when the backend
// cannot be reached or answers with an error, writes the error the client
// gets and returns false. attempt numbers the request within the
// exchange (a held call's retries).
func (x *exchange) open(w http.ResponseWriter, api *clientAPI, path string, out []byte, attempt int) (io.ReadCloser, bool) {
	h := x.h
	if attempt > 0 {
		w = nil // a retry's failure is logged, not the client's: the turn before it stands
	}
	x.attempts = attempt + 1
	bres, err := h.backend(x.ctx, x.route, x.client, path, out)
	if err != nil {
		if w != nil {
			writeError(w, api, http.StatusBadGateway, "the backend could not be reached: "+err.Error())
		}
		h.log.Info("request", "api", api.name, "backend_error", err.Error())
		return nil, false
	}
	body := io.ReadCloser(bres.Body)
	if x.rec != nil {
		if copy, err := x.rec.attempt(attempt, out); err != nil {
			h.log.Info("request", "record_error", err.Error())
		} else {
			body = teeBody{io.TeeReader(bres.Body, copy), bres.Body}
		}
	}
	if bres.StatusCode/100 != 2 {
		defer body.Close()
		stall := time.AfterFunc(h.cfg.Idle, x.cancel) // an error body that stalls is cut at the idle limit
		msg, _ := io.ReadAll(io.LimitReader(body, 64<<10))
		stall.Stop()
		status := bres.StatusCode
		if status < 400 {
			status = http.StatusBadGateway // a redirect (not followed) or an answer no client API has
		}
		if w != nil {
			writeError(w, api, status, "the backend answered "+bres.Status+": "+backendMessage(msg))
		}
		h.log.Info("request", "api", api.name, "backend_status", bres.StatusCode)
		return nil, false
	}
	return body, true
}

// teeBody is a backend's body read through a copy.
type teeBody struct {
	io.Reader
	io.Closer
}

// copy feeds the backend's body to p as it arrives, calling flushed after
// each piece; a read that waits longer than the idle limit ends it.
func (h *Handler) copy(ctx context.Context, cancel context.CancelFunc, p syntax.Parser, body io.Reader, flushed func()) error {
	idle := time.AfterFunc(h.cfg.Idle, cancel)
	defer idle.Stop()
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		idle.Reset(h.cfg.Idle)
		if n > 0 {
			p.Write(buf[:n])
			flushed()
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
	}
}

// backend sends the request body to path on the route's backend, with the
// route's key or the client's credentials, as the backend's API takes a key.
func (h *Handler) backend(ctx context.Context, route *Route, client *http.Request, path string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, route.Backend+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	backendAPIs[route.API].auth(req, h.key(route, client))
	return h.client.Do(req)
}

// key is the backend's key for a client's request: the route's, or the
// client's own when this server asks for none.
func (h *Handler) key(route *Route, client *http.Request) string {
	switch {
	case route.KeyEnv != "":
		return os.Getenv(route.KeyEnv)
	case h.cfg.AuthToken != "":
		return "" // the client's token is this server's, not the backend's
	case strings.HasPrefix(client.Header.Get("Authorization"), "Bearer "):
		return strings.TrimPrefix(client.Header.Get("Authorization"), "Bearer ")
	}
	return client.Header.Get("x-api-key")
}

// contentSyntax is the syntax the backend model's text is read in: the
// route's, or (auto) the syntax its name calls for, else auto-detection.
// evidence says why, for the log.
func contentSyntax(name, model string) (s syntax.Syntax, evidence string) {
	if name == "auto" {
		if m, err := registry.ForModel(model); err == nil && m.Syntax.Name != native.Syntax.Name {
			return m.Syntax, m.Evidence
		}
		s, _ = registry.Lookup(name)
		return s, "none from the model's name: the stream's evidence decides"
	}
	s, _ = registry.Lookup(name)
	return s, "the route's"
}

// backendMessage is the message of a backend's error body: its
// error.message, or its text.
func backendMessage(b []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && len(e.Error) > 0 {
		var m struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &m) == nil && m.Message != "" {
			return m.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return s
		}
	}
	return strings.TrimSpace(string(b))
}

// writeError writes an error in api's shape.
func writeError(w http.ResponseWriter, api *clientAPI, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(api.errorBody(status, msg))
}

// anthropicError is an error as Anthropic's API writes one.
func anthropicError(status int, msg string) []byte {
	typ := "invalid_request_error"
	switch {
	case status == http.StatusNotFound:
		typ = "not_found_error"
	case status == http.StatusRequestEntityTooLarge:
		typ = "request_too_large"
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status >= 500:
		typ = "api_error"
	case status == http.StatusUnauthorized:
		typ = "authentication_error"
	}
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
	return b
}

// openaiError is an error as OpenAI's APIs write one.
func openaiError(status int, msg string) []byte {
	typ := "invalid_request_error"
	if status >= 500 {
		typ = "server_error"
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}})
	return b
}

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// models lists the models the routes name (patterns without '*'), in the
// client's API's shape (Anthropic's when the request says anthropic-version).
func (h *Handler) models(w http.ResponseWriter, r *http.Request) {
	var ids []string
	seen := map[string]bool{}
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for i := range h.cfg.Routes {
		rt := &h.cfg.Routes[i]
		for _, p := range rt.Models {
			if !strings.Contains(p, "*") {
				add(p)
			}
		}
		if len(rt.Models) == 0 || slices.Contains(rt.Models, "*") {
			// A route that takes any name serves what its backend lists
			// (or the one model it maps every name to).
			if rt.Model != "" {
				add(rt.Model)
			} else {
				for _, id := range h.backendModels(r.Context(), rt, r) {
					add(id)
				}
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("anthropic-version") != "" {
		data := []map[string]any{}
		for _, id := range ids {
			data = append(data, map[string]any{"type": "model", "id": id, "display_name": id, "created_at": "1970-01-01T00:00:00Z"})
		}
		first, last := "", ""
		if len(ids) > 0 {
			first, last = ids[0], ids[len(ids)-1]
		}
		b, _ := json.Marshal(map[string]any{"data": data, "has_more": false, "first_id": first, "last_id": last})
		w.Write(b)
		return
	}
	data := []map[string]any{}
	for _, id := range ids {
		data = append(data, map[string]any{"id": id, "object": "model", "created": 0, "owned_by": "toolparse"})
	}
	b, _ := json.Marshal(map[string]any{"object": "list", "data": data})
	w.Write(b)
}

// countTokens answers Anthropic's count_tokens with an estimate: a token
// for every four bytes of the request's messages, system and tools.
func (h *Handler) countTokens(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBody))
	if err != nil {
		writeError(w, messagesAPI, http.StatusRequestEntityTooLarge, "the request body is too long")
		return
	}
	var req map[string]json.RawMessage
	if json.Unmarshal(body, &req) != nil {
		writeError(w, messagesAPI, http.StatusBadRequest, "the request body is not a JSON object")
		return
	}
	n := (len(req["messages"]) + len(req["system"]) + len(req["tools"]) + 3) / 4
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"input_tokens":%d}`, n)
}

// recording is one exchange's files.
type recording struct {
	base   string
	client *os.File
	files  []*os.File
}

// record makes the files of the exchange id: id.client (what the client
// received) now, and for each request sent to the backend (see attempt)
// id.request.json and id.backend (its raw answer) — id.1.request.json and
// id.1.backend for the first retry of a held call, and so on.
func (h *Handler) record(id string) (*recording, error) {
	if err := os.MkdirAll(h.cfg.Record, 0o755); err != nil {
		return nil, err
	}
	base := filepath.Join(h.cfg.Record, id)
	c, err := os.Create(base + ".client")
	if err != nil {
		return nil, err
	}
	return &recording{base: base, client: c}, nil
}

// attempt records the request of the given attempt and returns the file
// its answer goes to.
func (r *recording) attempt(n int, request []byte) (io.Writer, error) {
	base := r.base
	if n > 0 {
		base += "." + strconv.Itoa(n)
	}
	if err := os.WriteFile(base+".request.json", request, 0o644); err != nil {
		return nil, err
	}
	f, err := os.Create(base + ".backend")
	if err != nil {
		return nil, err
	}
	r.files = append(r.files, f)
	return f, nil
}

// replay writes ID.replay.json: the arguments of the toolparse command
// line that reads the backend's last answer as the server did and writes
// it in the client's API's stream form (files named relative to the
// recording's folder; "toolparse replay DIR/ID" runs it), and ID.tools.json,
// the request's tools, when it had some.
func (r *recording) replay(form, syntaxName string, content bool, tools json.RawMessage, attempts int) error {
	id := filepath.Base(r.base)
	args := []string{"--syntax", "native", "--mode", "token", "--to", form}
	if content {
		args = append(args, "--content-syntax", syntaxName)
	}
	if len(tools) > 2 {
		if err := os.WriteFile(r.base+".tools.json", tools, 0o644); err != nil {
			return err
		}
		args = append(args, "--tools", id+".tools.json")
	}
	last := id
	if attempts > 1 {
		last += "." + strconv.Itoa(attempts-1)
	}
	b, _ := json.Marshal(map[string]any{"args": append(args, last+".backend")})
	return os.WriteFile(r.base+".replay.json", append(b, '\n'), 0o644)
}

func (r *recording) close() {
	for _, f := range r.files {
		f.Close()
	}
	r.client.Close()
}

// teeWriter copies what a ResponseWriter writes.
type teeWriter struct {
	http.ResponseWriter
	copy io.Writer
}

func (t *teeWriter) Write(b []byte) (int, error) {
	t.copy.Write(b)
	return t.ResponseWriter.Write(b)
}

func (t *teeWriter) Flush() {
	if f, ok := t.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// backendModels asks a route's backend for its models (within five
// seconds); a backend that does not answer lists none.
func (h *Handler) backendModels(ctx context.Context, rt *Route, client *http.Request) []string {
	ml := backendAPIs[rt.API].models
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rt.Backend+ml.path, nil)
	if err != nil {
		return nil
	}
	backendAPIs[rt.API].auth(req, h.key(rt, client))
	res, err := h.client.Do(req)
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	var doc map[string]json.RawMessage
	if res.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(res.Body, 4<<20)).Decode(&doc) != nil {
		return nil
	}
	var items []map[string]json.RawMessage
	json.Unmarshal(doc[ml.list], &items)
	var ids []string
	for _, it := range items {
		var id string
		if json.Unmarshal(it[ml.id], &id) == nil {
			ids = append(ids, strings.TrimPrefix(id, "models/"))
		}
	}
	return ids
}
