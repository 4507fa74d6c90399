// Package serve puts toolparse behind the APIs clients already speak: an
// http.Handler (and `toolparse serve`) that takes a client's request in its
// API, sends it to a backend, reads the backend model's output — its own
// tool calls, and the calls it wrote as text in any syntax — and answers
// with native tool calls in the client's API, streamed as the model writes
// them.
//
// This version serves:
//
//   - POST /v1/chat/completions (OpenAI Chat Completions clients),
//     POST /v1/responses (OpenAI Responses clients, stateless: Codex CLI)
//     and POST /v1/messages (Anthropic Messages clients: Claude Code, the
//     Anthropic SDKs), whole and streamed (SSE), their responses written by
//     native's stream encoders with the response's id, the client's model
//     name and the time;
//   - POST /v1/messages/count_tokens (an estimate: a token for four bytes),
//     GET /v1/models (the routes' model names, and for a route that takes
//     any name its backend's own list, in the client's API's shape), GET /healthz, and HEAD /api/hello (Claude Code's probe);
//   - backends of every API native reads: OpenAI Chat Completions
//     (llama.cpp's server, vLLM, SGLang, Ollama's /v1, LM Studio, any
//     gateway), OpenAI Responses, Anthropic Messages, Gemini
//     (streamGenerateContent) and Ollama's own /api/chat. The request is
//     always sent streamed. A client's request is read into Chat
//     Completions' form (an Anthropic or Responses client's translated:
//     system or instructions, messages or input items with their calls and
//     results, tools — Responses' flat ones nested, hosted ones left out —,
//     tool_choice, the sampling fields), then written in the backend's API
//     (package conversation writes the history in each provider's form), and
//     the backend's stream is read by native whatever its API.
//   - Tools in a prompt (Route.ToolsIn prompt, --tools-in prompt), for a
//     model or server with no tool support: the request's tools leave it, a
//     system prompt teaches them in the route's syntax (package prompt; with
//     auto and a model name that calls for none, Hermes), and the history's
//     calls and results are written in that syntax (package conversation).
//   - The request's tools convert the values a syntax reads as strings to
//     their declared types ("1000" becomes 1000 where the schema says
//     integer), and hold a typed value back from streaming as a string.
//
// # Guarantees
//
//   - Calls arrive native and streamed: the backend's own tool calls pass
//     through, and calls the model wrote as text in its content are read
//     with the route's syntax (auto: the syntax the backend model's name
//     calls for, else the stream's evidence) and written as the client's
//     API's calls, their arguments streaming as they are read.
//   - Never a call the model did not finish: a call cut off or malformed
//     ends the response in the client's API's truncation or error form,
//     never with the calls stop reason.
//   - A bad request is a 4xx in the client's API's error shape; a backend
//     error reaches the client as its API's error with the backend's status
//     and message; a backend that cannot be reached, redirects (never
//     followed: a redirect would carry the key elsewhere) or fails
//     mid-stream (an error in place of the rest of its stream, a broken
//     connection) is a 502 — or, once a stream has begun, the end of the
//     stream in the client's API's error form.
//   - Route.Hold (--hold) holds a response until the backend's turn is
//     over: its calls reach the client complete and checked against the
//     request's tools, arguments unstreamed. With Route.Retries (--retries
//     N) a turn whose call failed to parse or failed its tool's schema is
//     asked again, up to N times: the request goes back with what the model
//     wrote of the call and a user message that says why it failed; the
//     client gets the mended turn (or, when none is left, the failure) and
//     the log line says how many retries it took. A call cut off by the
//     token limit is not asked again.
//   - Config.AuthToken (--auth-token-env) makes clients present a token,
//     for listening beyond loopback; Route.MaxTokens caps max_tokens for a
//     backend with a small context; Config.Record (--record DIR) keeps each
//     exchange: the request sent to the backend, its raw answer, and what
//     the client received (ID.request.json, ID.backend, ID.client; a held
//     call's retries ID.1.request.json, ID.1.backend, …), and ID.replay.json,
//     the toolparse command line that reads the backend's answer as the
//     server did and writes the client's stream ("toolparse replay DIR/ID"
//     runs it; its events are those the client got).
//   - Bounded: the requests served at once (Config.MaxStreams, --max-streams:
//     one more is a 429 in the client API's shape), request bodies
//     (Config.MaxBody), the backend's connection
//     and TLS handshake, the wait for its headers and between its reads (an
//     error body included); a client that goes away cancels its backend
//     request. The backend URL comes only from the configuration.
//     Credentials pass through (or come from the route's KeyEnv) and are
//     never logged.
//
// # Choices where the rules are silent
//
//   - What a translation cannot carry (a request field the backend's API has
//     no field for, a tool the provider runs itself, another provider's
//     state in the history, what the client's API cannot write) is named in
//     the request's log line (not_carried), never dropped without a word.
//
//   - The log line of a request (SetLogger) names the syntax that read the
//     backend's text and why (syntax, syntax_evidence: the route's, the
//     model name's match, or the stream's evidence under auto), the calls,
//     the errors, the retries and the time taken; never a credential.
//
//   - The backend is always asked for a stream, whatever the client asked:
//     a whole response is built from the same events, so both read the
//     model's output alike.
//
//   - Usage crosses: the backend's counts (a Chat backend is asked for
//     them with stream_options.include_usage) reach the client in its API's
//     fields — message_delta's usage, response.completed's, Chat's last
//     chunk, and the whole responses' usage; a backend that gives none
//     gives zeros. The end of a streamed response waits for the usage that
//     follows its stop reason (a Chat backend's last chunk).
//
//   - A backend turn cut off by its token limit while the model wrote text
//     ends with the client API's cut stop reason (length, max_tokens,
//     incomplete), as a call cut off does; a turn that holds complete
//     calls ends with the calls' stop reason, so that the client runs them.
//
//   - Responses are stateless: a request naming previous_response_id is a
//     400 that says to send the whole input (Codex CLI does, store false).
//
//   - A whole response is the first assistant message the events make (one
//     backend turn is one message).
//
//   - State crosses requests statelessly. What a backend's provider needs
//     back with the next request (Anthropic thinking signatures, Gemini
//     thought signatures, Responses' encrypted reasoning) reaches the
//     client in its API's own field when it has one; when it has none (a
//     Chat Completions client of a Gemini backend, a Responses client of an
//     Anthropic one) it rides in the id of the turn's call — "tps_" and the
//     base64url of the call's id, its state and the turn's thoughts that
//     hold state — which every client sends back with the call and its
//     result. The next request's history gives it back to the calls and
//     thoughts, and the calls their own ids, before it is written for the
//     backend; a request is translated through Chat Completions' form the
//     same way, so an Anthropic client's signatures reach an Anthropic
//     backend too. Nothing is kept here: any replica serves the next
//     request.
package serve
