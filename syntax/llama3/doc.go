// Package llama3 parses the tool calls of Llama 3.1, 3.2 and 3.3 (the JSON
// format of Meta's chat template, the built-in tools and the custom
// function form of Llama 3.1), and of the models that write one of them:
// Functionary v3.1's function form, xLAM's and Hammer's JSON arrays.
//
//	{"name": "get_weather", "parameters": {"city": "Paris"}}
//	<|python_tag|>{"name": "get_weather", "arguments": {"city": "Paris"}}; {"name": "get_time", "parameters": {}}
//	<|python_tag|>brave_search.call(query="latest price of 1oz gold")<|eom_id|>
//	<function=get_weather>{"city": "Paris"}</function>
//	[{"name": "get_weather", "arguments": {"city": "Paris"}}]
//	<|python_tag|>import math
//	print(math.factorial(5))<|eom_id|>
//
// The input must be detokenised with special tokens kept
// (<|python_tag|>, <|eom_id|>, <|eot_id|> are special tokens, which
// skip_special_tokens deletes); bare JSON calls are read without them.
//
// # The rules as read
//
//   - A JSON call opens the message: after white space and an optional
//     <|python_tag|>, a JSON object with the keys "name" (a non-empty
//     string) and "parameters" or "arguments" (the first of the two counts;
//     an object, null, "" or a string holding an object, decoded once).
//     Other keys ("type": "function" in Meta's own example) are ignored; a
//     key given twice counts the first time. The object is read JSON-aware:
//     special tokens, ';' and braces inside its strings are content.
//   - A JSON array opening the message whose first element is an object
//     with "name" as its first key is a list of calls (xLAM's form,
//     [{"name": …, "arguments": {…}}, …]; the xlam variant writes it):
//     each element is a call (it needs "name" and "arguments" or
//     "parameters") or an error of its own. Its calls come when the array
//     is complete; one cut off is a truncated error, never calls. Any
//     other array, [] included, is text.
//   - Several calls follow each other separated by white space and ';'
//     ("; ", ";", ";\n", "\n"). Text after the calls is respond; a JSON
//     object that is not a call, or comes after prose, is text (case
//     json-inside-prose-is-text).
//   - <function=NAME>{…}</function>, the custom function form of Meta's
//     Llama 3.1 prompt guide (Functionary v3.1 writes it), is a call
//     wherever it stands in text: the tag, with NAME of 1 to 256 bytes and
//     no white space, '<', '>', braces or quotes, then at once a JSON object
//     (the arguments), then optional white space and </function>. The
//     closer is optional (the call ends at its arguments; a cut inside it
//     leaves its bytes as text); arguments cut off are a truncated error,
//     broken ones an invalid_json error covering the rest of the message.
//     A function tag followed by anything but '{' is text (Qwen3-Coder's
//     <function=NAME><parameter=…>, which the qwen3coder syntax reads).
//   - <|python_tag|> opens a call wherever it stands in text, and what
//     follows it is a call: a JSON object (with a name; arguments may be
//     absent: {}), a built-in call NAME.call(KEY=VALUE, …) with Python
//     keyword arguments (strings in either quote with Python escapes,
//     numbers, True, False, None), or else code, which is a call
//     code_interpreter {"code": …} (Meta's reference decoder reads it so),
//     up to the end of the message, white space trimmed.
//   - The message ends at <|eom_id|> or <|eot_id|> (stop tokens, usually
//     consumed by the server, read when present), at a header
//     <|start_header_id|>ROLE<|end_header_id|>, or at the end of the input.
//     A message with at least one valid call ends with one execute, after
//     the text that followed its calls. A complete body at the end of the
//     input is a complete call (the stop token is not in the text); a cut-off
//     one is a truncated error, never a call; its valid siblings stand.
//   - A transcript goes on after a stop token: an ipython (or tool)
//     message is a result, named after the call in its place in the last
//     batch, its content the JSON value it holds (the chat template writes
//     results with tojson) or else its text as a string; an assistant
//     message is a new message; a message of another role is a not_allowed
//     error.
//   - Errors: a call attempt that is no call (a broken or cut-off JSON
//     object with a call key, arguments that are not an object, a
//     <|python_tag|> with no call after it, a built-in call whose arguments
//     are not keyword literals) is an error whose raw is its text; it also
//     covers the white space and ';' after it. JSON that breaks inside a
//     call attempt makes the rest of the message the error's (there is no
//     end marker to resume at).
//
// Llama 3 has no reasoning block: Options.ThinkOpen changes nothing. Calls
// have no ids; an "id" string a call object holds anyway is kept as the
// call's id (the renderer writes none, and reports it).
//
// # Choices where peers disagree
//
//   - JSON after prose: vLLM's llama3_json parser pulls a call object out
//     of the middle of prose ("Here is the result: {…} Would you like…" is
//     a call there); Ollama's template parser requires the output to start
//     with '{'. We follow Ollama and docs/formats.md, rule 8: a bare call opens
//     the message, so JSON that a user asked for in an answer is never run.
//     SGLang deletes any leading JSON object from the content (its issue
//     #35562); we keep a JSON object that is not a call as text.
//   - xLAM's arrays: vLLM's xlam parser also takes the array after a
//     </think>, out of a ```json fence or a <tool_call> block after prose,
//     or after a [TOOL_CALLS] prefix; here an array opens the message or is
//     text (the rule for JSON after prose, above), and an element without
//     arguments is an error where vLLM skips it. [] is text here; vLLM reads
//     it as no calls and no content.
//   - Functionary v3.1's code after <|python_tag|>: its own parser calls
//     the tool python with the code as a raw string, llama.cpp python with
//     {"code": …}; here it is code_interpreter with {"code": …}, as Meta's
//     decoder reads it (the output does not say which). With tool_choice
//     forcing a call, Functionary's prompt holds the call's start and the
//     output begins inside it ({"location": …}</function>): not read.
//   - A name without arguments: vLLM leaves {"name": "x"} as text; we do
//     too, unless <|python_tag|> came first, where the model said it is
//     calling (then it is a call with {}).
//   - <|python_tag|> after prose: SGLang reads the call after it, Meta's
//     reference decoder only at the start of the message; we read it
//     anywhere in text (it is a special token; prose cannot hold it by
//     chance).
//   - Broken JSON: vLLM returns it as content; we report it (invalid_json)
//     with its text as raw, so that a malformed call is never silent.
//   - Built-in calls: Meta's decoder reads only query="…"; llama.cpp writes
//     code_interpreter.call(code="…") and python.call(code="…"); we read any
//     keyword literals.
//
// # Choices where the spec is silent
//
//   - The spans: a call's span is its JSON object (or NAME.call(…), or the
//     code, trimmed); the execute's span runs from the message's first call
//     (or the <|python_tag|> before it) to the end of the message, its stop
//     token included, so the separators and tokens between calls are its.
//     A result spans its header, content and no stop token.
//   - A JSON object opening a message is held until it is known to be a
//     call or text (at its end, at a JSON error, or at Options.MaxBlock), so
//     in token mode a JSON answer streams only then. One that is not yet a
//     call attempt when it reaches MaxBlock is text from there on; one that
//     is (a call key came) is an over_limit error covering it.
//   - Code after <|python_tag|> has no terminator but the stop token: at
//     the end of the input it is a complete call. Syntax.CompleteAt tells
//     the kit's truncation check that every cut inside code is complete. A
//     name followed by a cut-off ".call(" at the end of the input is a
//     truncated built-in call, not code.
//   - A header role must end within 64 bytes (<|end_header_id|>), or the
//     header token is a malformed error and what follows it a new message.
//   - Token mode streams a JSON call's arguments as compact JSON deltas
//     once both its name and its arguments key have come (before that the
//     object may be something other than a call), so that every call that
//     streamed is followed by its call or an error. Built-in calls, code and
//     arguments given as a string come whole.
//
// # The renderer
//
// NewRenderer writes what Meta's template writes: calls as {"name",
// "parameters"} JSON opening the message ("; " between them,
// <|python_tag|> before them when text came first), brave_search,
// wolfram_alpha and code_interpreter with flat arguments in the built-in
// form, <|eom_id|> for the execute, results as ipython messages (content
// as JSON), and the assistant header before what follows them.
//
// # Not built
//
//   - Pythonic lists ([f(a=1)], Llama 3.2 lightweight and Llama 4) are the
//     pythonic syntax's; Llama 4's <|eom|> and header tokens are not read.
//   - Triple-quoted strings, string prefixes, lists and dicts in built-in
//     call arguments are errors.
//   - Code after <|python_tag|> does not stream in token mode.
//   - The detector looks for a bare JSON call only at the start of the
//     input; later ones are found through the tokens around them.
package llama3
