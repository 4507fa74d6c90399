// Package toolparse is the root of a toolkit that reads what a language model
// writes when it calls tools — in any of several syntaxes — and turns it into
// one stream of events.
//
// The packages:
//
//   - syntax: the event model, the Parser and Renderer interfaces, the Syntax descriptor.
//   - syntax/scan: the streaming driver every syntax is built on (for writing your own).
//   - one syntax each: syntax/xmljson, syntax/caret, syntax/delimiter,
//     syntax/native, syntax/xmltag, syntax/harmony, syntax/gemma,
//     syntax/pythonic, syntax/llama3, syntax/mistral, syntax/qwen3coder,
//     syntax/glm, syntax/deepseek, syntax/minimax, syntax/hermes,
//     syntax/kimi, syntax/seedoss, syntax/nemotron, syntax/granite,
//     syntax/cohere, syntax/functools, syntax/hunyuan, syntax/apriel,
//     syntax/longcat, syntax/minimaxm3, syntax/kimik3, syntax/hy,
//     syntax/gigachat, syntax/internlm, syntax/commandr, syntax/gcml,
//     syntax/apertus, syntax/minicpm, syntax/step3, syntax/functionary,
//     syntax/qwen25coder, syntax/kimivl, syntax/functioncall,
//     syntax/solaropen, syntax/solaropen2, syntax/inkling,
//     syntax/glimmer
//     (docs/formats.md has the model formats).
//   - syntax/wire: the shared half of every syntax's renderer.
//   - syntax/syntaxtest: the conformance kit: invariants and golden cases for any syntax.
//   - registry: syntaxes by name, alias and variant, auto-detection, and the
//     syntax for a model name or chat template.
//   - schema: tool definitions, validation against full JSON Schema, conversion of string values.
//   - prompt: the system-prompt text that teaches a model a syntax and your tools.
//   - batch: batches of calls, and a runner for them.
//   - conversation: chat transcripts in and out.
//   - stream: renderers for programs and people (JSON lines, a text view).
//   - serve: an http.Handler that gives OpenAI Chat and Anthropic Messages
//     clients native tool calls from a backend whose model writes them as
//     text (toolparse serve).
//   - cmd/toolparse: the command-line tool.
//
// This package holds no code. Its tests hold every built-in syntax to what a
// syntax must have, and run every renderer on the shipped examples; each
// syntax's golden cases run from its own package.
package toolparse
