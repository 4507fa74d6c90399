package serve

import (
	"fmt"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolparse/toolparse/registry"
)

// Config is what a Handler is built from: its routes and its limits. A
// YAML file holds it (LoadConfig); the CLI's flags make a one-route config.
type Config struct {
	// Routes are tried in order; a request takes the first whose Models
	// match its model name.
	Routes []Route `yaml:"routes"`
	// MaxBody bounds a request's body, in bytes (0: 32 MiB).
	MaxBody int64 `yaml:"max_body"`
	// MaxStreams bounds the requests served at once (0: 1024); one more is
	// a 429 in the client API's error shape.
	MaxStreams int `yaml:"max_streams"`
	// FirstByte bounds the wait for the backend's response headers, and
	// Idle the wait between two reads of its body (0: 10 minutes, 2 minutes).
	FirstByte time.Duration `yaml:"first_byte"`
	Idle      time.Duration `yaml:"idle"`
	// AuthToken, when set, is the bearer token clients must present
	// (Authorization: Bearer, or x-api-key), for listening beyond loopback.
	// The client's credentials then do not pass through to the backend: a
	// route's KeyEnv gives the backend's.
	AuthToken string `yaml:"auth_token"`
	// Record, when set, is a folder that keeps each exchange: the request
	// sent to the backend, the backend's raw bytes and what the client
	// received, as files named after the response's id.
	Record string `yaml:"record"`
}

// Route says where requests for some models go and how their output is
// read.
type Route struct {
	// Models are patterns of the client's model names ('*' any run of
	// characters), matched in any letter case; none matches every model.
	Models []string `yaml:"models"`
	// Backend is the backend's base URL as its API's official SDK takes
	// it: with /v1 for OpenAI (http://127.0.0.1:8000/v1), without for
	// Anthropic, Gemini and Ollama (http://127.0.0.1:11434).
	Backend string `yaml:"backend"`
	// API is the backend's API: openai (Chat Completions: the default),
	// openai-responses, anthropic, gemini or ollama (its own /api/chat).
	API string `yaml:"api"`
	// Model is the model name sent to the backend, whatever the client
	// asked for ("" sends the client's).
	Model string `yaml:"model"`
	// Syntax is how the backend model's text is read: auto (the default:
	// the syntax of the model's name, else the stream's evidence), none
	// (the backend's own tool calls only), or a syntax's name.
	Syntax string `yaml:"syntax"`
	// ToolsIn says how the request's tools reach the model: native (the
	// default: the backend's tools parameter), or prompt (a system prompt
	// that teaches them in the route's syntax, for models or servers with no
	// tool support; earlier calls and results are then written into the
	// history in that syntax too).
	ToolsIn string `yaml:"tools_in"`
	// MaxTokens caps the request's max_tokens (max_output_tokens) for a
	// backend with a small context (Claude Code asks for up to 128000); 0
	// leaves it as the client asked.
	MaxTokens int `yaml:"max_tokens"`
	// KeyEnv names the environment variable holding the backend's key;
	// without it the client's credentials pass through.
	KeyEnv string `yaml:"key_env"`
	// Hold holds each response until the backend's turn is over, so that
	// its calls reach the client complete and checked (no streaming of
	// arguments); with Retries, a turn whose call failed — malformed, not
	// JSON, or failing its tool's schema — is asked again, up to Retries
	// times, with what the model wrote and why it failed.
	Hold    bool `yaml:"hold"`
	Retries int  `yaml:"retries"`
}

// LoadConfig reads a Config from a YAML file.
func LoadConfig(file string) (Config, error) {
	var c Config
	b, err := os.ReadFile(file)
	if err != nil {
		return c, err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %w", file, err)
	}
	return c, nil
}

func (c *Config) check() error {
	if len(c.Routes) == 0 {
		return fmt.Errorf("serve: no route (a backend is needed)")
	}
	for i := range c.Routes {
		r := &c.Routes[i]
		if r.Backend == "" {
			return fmt.Errorf("serve: route %d has no backend", i+1)
		}
		if !strings.HasPrefix(r.Backend, "http://") && !strings.HasPrefix(r.Backend, "https://") {
			return fmt.Errorf("serve: route %d: backend %q is no http(s) URL", i+1, r.Backend)
		}
		r.Backend = strings.TrimRight(r.Backend, "/")
		if r.API == "" {
			r.API = "openai"
		}
		if backendAPIs[r.API] == nil {
			return fmt.Errorf("serve: route %d: backend API %q: openai, openai-responses, anthropic, gemini or ollama", i+1, r.API)
		}
		switch r.Syntax {
		case "", "auto":
			r.Syntax = "auto"
		case "none":
		default:
			if _, err := registry.Lookup(r.Syntax); err != nil {
				return fmt.Errorf("serve: route %d: %w", i+1, err)
			}
		}
		if r.Retries < 0 || r.Retries > 0 && !r.Hold {
			return fmt.Errorf("serve: route %d: retries %d: a count of 0 or more, with hold", i+1, r.Retries)
		}
		switch r.ToolsIn {
		case "", "native":
			r.ToolsIn = "native"
		case "prompt":
			if r.Syntax == "none" {
				return fmt.Errorf("serve: route %d: tools in a prompt need a syntax to teach (not none)", i+1)
			}
		default:
			return fmt.Errorf("serve: route %d: tools_in %q: native or prompt", i+1, r.ToolsIn)
		}
	}
	if c.MaxBody <= 0 {
		c.MaxBody = 32 << 20
	}
	if c.MaxStreams <= 0 {
		c.MaxStreams = 1024
	}
	if c.FirstByte <= 0 {
		c.FirstByte = 10 * time.Minute
	}
	if c.Idle <= 0 {
		c.Idle = 2 * time.Minute
	}
	return nil
}

// route is the route of a client's model name, or nil.
func (c *Config) route(model string) *Route {
	m := strings.ToLower(model)
	for i := range c.Routes {
		r := &c.Routes[i]
		if len(r.Models) == 0 {
			return r
		}
		for _, p := range r.Models {
			if glob(strings.ToLower(p), m) {
				return r
			}
		}
	}
	return nil
}

// glob reports whether s matches pattern p, whose '*' matches any run of
// characters ('/' included: model names have them).
func glob(p, s string) bool {
	star, next := -1, 0
	i, j := 0, 0
	for j < len(s) {
		switch {
		case i < len(p) && p[i] == '*':
			star, next = i, j
			i++
		case i < len(p) && p[i] == s[j]:
			i++
			j++
		case star >= 0:
			next++
			i, j = star+1, next
		default:
			return false
		}
	}
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}
