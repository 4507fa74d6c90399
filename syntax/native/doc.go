// Package native parses the function-call JSON of provider APIs:
// OpenAI Chat Completions and Responses, Anthropic Messages, Gemini and
// Ollama (/api/chat and /api/generate), as whole responses or as streams — SSE ("data:" and "event:" lines, "data:
// [DONE]") or one JSON object per line — and conversations that carry tool
// results (OpenAI "tool" messages, Anthropic tool_result blocks, Gemini
// functionResponse parts, Responses function_call_output items).
//
// # Shapes read
//
// Each document is read by its shape (its members, not a declared type):
// chat completions and their chunks, Responses responses, items and stream
// events, Anthropic messages and stream events, Gemini responses and
// contents, Ollama /api/chat and /api/generate responses, and chat logs of
// any of them. The list of shapes, with their golden cases, is beside the
// code that dispatches on them (shapes.go); each provider's file (chat.go,
// responses.go, anthropic.go, gemini.go, ollama.go) holds its reading, its
// fast path, its usage, its renderer and its stream encoder.
//
// # Streams
//
// SSE is read as the WHATWG spec says: lines end at LF, CR or CRLF; a
// leading byte order mark is passed over; comments (lines starting with
// ':'), id:, retry: and event: lines, and those field names alone on a
// line (a field with no value) give no event; the data: lines of one event
// are joined with a line feed, so one document may span several of them. A
// blank line ends the event. In SSE and JSON-lines input a document never
// runs past the end of its line (its event): a broken line is one error,
// and the next line is read afresh. Input is taken as JSON lines once a
// document has been read whole on a line of its own; before that a
// document may span lines (a pretty-printed response), and one that breaks
// at the first byte of a line that starts another document is cut there.
//
// The stream is split into JSON documents by the same incremental JSON scanner
// the other syntaxes use, so a chunk boundary may fall anywhere; each document
// is then read by its shape (choices, a "type" of the Responses or Anthropic
// stream, output, candidates, Ollama's "done" beside a message or response,
// messages, contents, or a role). Ollama's tool calls come whole, each a
// call of its own (their positions start again at 0 in every chunk, so they
// are never merged by position), and "done" ends the message. An empty
// string in any text field is no text: it does not end a run of the other
// kind (Ollama sends "content":"" beside each thinking delta).
//
// Reasoning is think, text is respond. Tool calls are assembled per message:
// by index (Chat Completions), by item id or output index (Responses), by
// content block (Anthropic); Gemini's come whole or as partialArgs (see
// below). A call is emitted when it
// is complete — at finish_reason (Chat Completions), at content_block_stop
// (Anthropic), at output_item.done (Responses), at once or at its closing
// part (Gemini) — with its
// provider id; execute follows at the message's end (finish_reason,
// message_delta's stop_reason or message_stop, response.completed, Gemini's
// finishReason, or the end of a whole message) when the message had a valid
// call. Arguments that are not a JSON object are an error naming the call, with
// the arguments as raw. A call still open when the stream ends, or the call
// being written when a message is cut off by its token limit (finish_reason
// "length", stop_reason "max_tokens", response.incomplete), is an error,
// never a call. Calls emitted in a message that never ended get an error
// instead of execute. A message cut off by its token limit while it wrote
// text or a thought, and a stream that ends inside such a message, get a
// truncated error with no raw after the text (kept): a cut is never taken
// for the model's last word.
//
// The tokens a response took, where the provider counts them (Chat's usage,
// in a last chunk when stream_options.include_usage asked for it; Responses'
// response usage; Anthropic's message_start and message_delta usage;
// Gemini's usageMetadata at finishReason; Ollama's prompt_eval_count and
// eval_count), are one usage event after the message (see each provider's file
// for the fields); each stream form writes them back in its own.
//
// Gemini 3 and Vertex may stream a call's arguments: a functionCall part
// with its name and willContinue:true opens the call, parts of partialArgs
// ({jsonPath, stringValue|numberValue|boolValue|nullValue}) build its
// arguments, and the first functionCall part without willContinue closes it
// (its own partialArgs taken first). The call is emitted only then, and
// streams no partial events in token mode (its paths may come in any order);
// one still open when the message or the stream ends is a truncated error.
//
// Tools the provider runs itself are hosted_call and hosted_result events,
// never calls, and no execute follows them: Anthropic server_tool_use and
// mcp_tool_use blocks (input as args; emitted at content_block_stop, or at
// their place in a whole message) and their result blocks (any type ending
// in _tool_result but tool_result, named after the call by tool_use_id,
// failure when is_error is set or the content's type ends in _error); OpenAI
// Responses web_search_call, file_search_call, code_interpreter_call,
// image_generation_call and mcp_call items, each a hosted_call and a
// hosted_result with the item's id, at output_item.done or at the item's
// place in a whole response.
//
// Each Anthropic content block, Responses content part and reasoning summary
// part is a text run of its own, whole as in a stream.
//
// Content given as an array of typed parts (Mistral's text and thinking
// parts, a thinking part's text parts) is read part by part. A refusal is
// respond with Refusal set: Chat message.refusal and delta.refusal,
// Responses refusal content parts and response.refusal.delta, and an
// Anthropic message that stops with stop_reason "refusal", whose
// stop_details.explanation is the refusal text (with none, the message's own
// text stands as it is). Responses custom_tool_call items and Chat
// Completions custom tool calls ({"type":"custom","custom":{"name","input"}},
// documented whole: input sent in pieces is an unsupported error) are calls
// with args {"input": text} and Custom set; local_shell_call, shell_call and
// apply_patch_call items are calls named local_shell, shell and apply_patch,
// their action (apply_patch: operation) object as args. A content block,
// content part, output item or Gemini part of a kind the parser does not
// read is an unsupported error, never nothing.
//
// A field of the wrong type is never silently nothing: each document
// whose members the parser reads with another type than it expects (a
// number where text is, a string where an index is, an element of a list
// of objects that is not one) gives one malformed error naming the first
// such member, after the document's events; what the member held is read
// as absent. A null member is absent. Arguments that are neither a JSON
// string nor an object are the call's malformed error.
//
// # Limits
//
// Memory is bounded by Options.MaxBlock beyond the document being read:
// a message's open calls — their ids, names, arguments and 64 bytes each
// for the parser's record — count against it together, and a call that
// would take them over it is an over_limit error, not kept (each later
// document about it another); a call whose own arguments or name go over
// it is an over_limit error when it ends. The call id → tool name table
// kept to name results is bounded by MaxBlock too: past it the oldest ids
// are forgotten, and one over_limit error says so. The content syntax's
// events that wait for an open provider call before them (Options.Content)
// count against it as well: past it they go out at once, ahead of the call. No per-document cost
// grows with the number of calls or pieces seen: a call's end finds it by
// its key, finished calls are dropped in batches, and a name streamed in
// pieces is appended to, not made anew.
//
// Quirks handled, each with a golden case: arguments absent, "" or {} for a
// parameterless tool (→ {}); a first fragment of ""; an index of -1 or
// starting above 0; the name, or the whole arguments, sent again in later
// chunks (ignored); parallel calls that share an index but have different ids
// (two calls); arguments sent as an object instead of a string; two JSON
// objects glued together (an error). Argument text is kept byte for byte:
// escapes such as \u00e9 are not re-serialised.
//
// Choices where the spec is silent: arguments sent twice — in pieces and
// whole (a Responses stream's done events, a server that follows string
// pieces with an object), or whole twice — make a call when the two are
// the same JSON value (escapes, number forms, member order and white space
// aside; a key given twice counts the first time); when the pieces came, they are the call's args, as token mode
// streamed them. An empty object beside other arguments is a placeholder
// (a first chunk's "arguments":{}). Two that differ make the call a
// malformed error whose raw is the pieces (or the first whole arguments),
// a line feed, then the last whole ones; both count against the limit.
// An SSE line of a field other than
// data, event, id and retry (which SSE would ignore) is an unsupported
// error naming the field, and a line that is neither a field nor JSON an
// invalid_json error: no provider sends one, a proxy or a broken stream
// does, and a line is never dropped silently; a line of only spaces and tabs ends an SSE event as a blank line
// does; a data: line that is not JSON is an error; JSON lines are known
// only once a document has been read on a line of its own (see Streams).
// A second message_start while a message is open (a proxy's retry) ends
// that message, which never ended: its open calls are truncated errors and
// its emitted calls get one truncated error instead of execute. Chat
// reasoning: reasoning_content is read when it is a non-empty string,
// reasoning otherwise (servers that send both send the same text), and
// OpenRouter's reasoning_details, which repeat reasoning, are not read. In
// a Responses conversation a function_call_output or a user, system or
// developer message ends the assistant turn before it: its calls execute,
// then the results come. Only the first choice (or candidate) is
// read, and one error says so when there are others; user and system messages
// give no events (parsers produce no "user" events), except their tool
// results; a message of another role than assistant, user, system,
// developer and tool (OpenAI's old "function" result among them), or with
// a type other than "message" beside its role, is an unsupported error,
// never read as the model's; a result's tool name comes from the call with its id seen earlier
// in the stream ("" when there was none); documents that fit no shape, and
// lines that are not JSON, are errors with their text as raw; an "error"
// event of the Anthropic stream becomes an error event. Gemini's partialArgs:
// the jsonPath forms read are $ followed by .name, [N] and ['name'] steps;
// members and elements come in the order they are first set, an element
// skipped is null; a stringValue is appended to the string already at its
// path, any other value replaces what is there; a path that steps into a
// value of another kind, or that cannot be read, makes the call a malformed
// error; the partialArgs of one call count against MaxBlock; args given whole
// beside partialArgs are its arguments sent twice (above), except an empty
// object, which is none. A Responses
// built-in item is a hosted_call named by its type without _call (an
// mcp_call: its tool's name); its args are its request fields (action,
// queries, code and container_id, revised_prompt; an mcp_call's arguments,
// parsed), its hosted_result's content every other field but id, type and
// status, and its status is success only when the item's is completed (and
// an mcp_call's error is null). Hosted calls stream no partial events in
// token mode. A Responses item added to a stream whose done event never
// comes is a truncated error. Whole Responses function calls are emitted at
// their place among the items, unless the response is incomplete. A refusal
// is gathered as a run of its own and emitted whole when it ends: in token
// mode it streams no fragments. Chat refusal fragments of one message are
// one run. Items of an OpenAI Responses stream that only report progress
// (web_search_call.searching, mcp_call_arguments.delta, …) are not read:
// the item's done event carries all they say. Gemini parts holding only a
// thoughtSignature give nothing; executableCode, codeExecutionResult,
// inlineData and other parts are unsupported.
//
// # Writing
//
// Events are written back in each provider's form by the renderer of a
// variant (the registry's names anthropic, openai, openai-responses, gemini,
// ollama; --to NAME in the CLI): [newRenderer] (Anthropic Messages, the
// default), [newOpenAIRenderer], [newResponsesRenderer], [newGeminiRenderer]
// and [newOllamaRenderer], whose docs say what each form carries and what it
// reports as not carried. Results take each API's shape: an Anthropic
// tool_result's content is a string or content blocks (is_error for a
// failure), a Gemini functionResponse an object ({"error": …} for a
// failure), and an OpenAI, Responses or Ollama result text (a failure
// after "Error: ").
//
// Every form writes back the state its own provider gave for the client to
// send back (Event.Opaque: Anthropic's thinking signatures and redacted
// thinking, Gemini's thoughtSignature on a part, a Responses reasoning
// item's id and encrypted_content and a function_call item's id), and
// reports another provider's state as not carried.
//
// [Chunks] reads a stream given as the raw JSON chunks the providers' Go
// SDKs yield; package conversation reads and writes whole chat logs in
// these forms.
//
// # Streaming encoders
//
// Given Options.Mode TokenMode, each form's renderer writes the provider's
// stream instead (Syntax.Streams; --to NAME --mode token in the CLI), from
// token-mode events as they arrive, holding no call or message:
//
//   - openai: Chat Completions chunks as SSE — a role chunk; content,
//     reasoning_content and refusal deltas; per call a first delta with
//     index, id, type, function.name and arguments "", then argument
//     fragments; a last chunk with finish_reason (tool_calls, stop, length);
//     data: [DONE].
//   - openai-responses: Responses events as SSE, each with its
//     sequence_number — response.created and .in_progress;
//     output_item.added, content_part.added, output_text.delta (refusal,
//     reasoning_summary_part and reasoning_summary_text alike),
//     function_call_arguments.delta and .done, output_item.done with the
//     whole item; response.completed with every item (the protocol repeats
//     them, so the open response's items are kept).
//   - anthropic: Messages events as SSE — message_start; content_block_start
//     (text, thinking, tool_use with input {}), content_block_delta
//     (text_delta, thinking_delta, signature_delta, input_json_delta),
//     content_block_stop; message_delta with stop_reason (end_turn,
//     tool_use, max_tokens, refusal with its stop_details) and usage;
//     message_stop. Blocks come one at a time: what arrives while a call
//     streams (a parallel call's pieces, text) waits for it.
//   - gemini: streamGenerateContent chunks as SSE (text and thought parts,
//     thoughtSignature on the part; calls whole), finishReason on the last.
//   - ollama: /api/chat NDJSON (content and thinking pieces; calls whole),
//     done with done_reason.
//
// Arguments stream as the events give them: JSON fragments, or, for the
// syntaxes whose values are raw text (caret, xmltag, qwen3coder, glm,
// minimax, …), each value as JSON-string fragments as it arrives, so a file
// being written streams into the client's arguments. A fragment once
// written is never taken back: a value whose type a schema changes is held
// back by schema.Check and written with the complete call; the complete
// call's arguments then go out with the streamed keys first.
//
// Choices where the APIs are silent:
//
//   - A call that fails after it began to stream is never finished as a
//     call: cut off (truncated, over_limit) the response ends with the
//     form's truncation (finish_reason length, stop_reason max_tokens,
//     response.incomplete, MAX_TOKENS, done_reason length); malformed, with
//     its error form (an {"error"} data line, an error event,
//     MALFORMED_FUNCTION_CALL, an {"error"} line), never with the calls stop
//     reason. A key given twice in a raw-valued call (an array of its
//     values) cannot be streamed as the string it began as: such a call ends
//     the response in the error form too.
//   - A truncated or over_limit error outside any call (text or a thought
//     cut off) ends the response in the form's truncation too, unless the
//     response holds calls: they are complete, and the calls' stop reason
//     lets the client run them.
//   - A response ends at an execute (the calls' stop reason) or at the end
//     of the events; what follows an execute starts a new response. Results
//     are not in a response stream (they go back in the next request), nor
//     are errors that belong to no streaming call, nor hosted tools: each is
//     reported as not carried.
//   - White space is held until text follows it in the run, so a run of
//     white space alone is never written; white space at a run's end is
//     written only when the whole run keeps it (a signed thought is exact).
//     The white space that starts a signed thought is not in the token-mode
//     fragments, and is reported as not carried.
//   - Forms without blocks (Chat Completions, Gemini, Ollama) join a run to
//     an earlier one of its kind in the response with a blank line, as the
//     whole renderers do; Gemini and Ollama have no refusal, which is
//     written as text and reported.
//   - A call whose id repeats an earlier call's in the response (a model's
//     greedy sampling can repeat its "random" ids) is written with a made
//     id, reported: clients refuse a response that repeats an id (OpenAI's
//     SDK a Responses call_id), and the results could not be told apart.
//     The whole renderers do the same for a call whose id another call of
//     its message has, and give the results that answer the two calls, in
//     their order, the ids written.
//   - Ids, model names and times are fixed (call_N for a call that had no
//     id, "toolparse" for the model, 0 for times), so the same events always
//     give the same bytes: event-mode input gives the same stream at every
//     chunking; token-mode input gives its deltas where its chunks fell, and
//     what a client accumulates is the same.
package native
