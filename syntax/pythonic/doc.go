// Package pythonic parses tool calls written as a Python list of function
// calls, the form of Llama 4 and Llama 3.2 ("pythonic"), LFM2 and ToolACE
// (docs/formats.md):
//
//	<think>Two cities.</think>Checking both.
//	[get_weather(city='San Francisco', metric='celsius'), get_time(zone="PST")]
//
// optionally between <|python_start|> and <|python_end|> (Llama 4) or
// <|tool_call_start|> and <|tool_call_end|> (LFM2). The input must have been
// detokenised with those special tokens kept; without them the bare list
// still reads. Olmo 3 writes the same calls with no list around them, one
// per line, in a block (the olmo3 variant writes it):
//
//	<function_calls>get_weather(city='Paris')
//	get_time(zone='CET')</function_calls>
//
// and MiniCPM 3 and 4 write them one per line in a ```python fence after
// LFM2's marker, their reasoning in tokens of their own (the minicpm4
// variant writes it):
//
//	<|thought_start|>
//	Two cities.
//	<|thought_end|>
//	<|tool_call_start|>
//	```python
//	get_weather(city="Paris")
//	get_time(zone="CET")
//	```
//	<|tool_call_end|>
//
// # The rules as read
//
//   - A '[' opens a call list when it is followed by optional white space,
//     a name (letters, digits, '_'; dotted names such as mod.fn too) and
//     '(' — within 256 bytes — and does not follow a letter, digit, '_', ')'
//     or ']' (an index such as a[i(0)] or a Markdown link is text). Any
//     other '[' is text. After a call opener the first byte that is not
//     white space must be '['; anything else makes the opener an error and
//     what follows is text.
//   - The end of the list is found by a hand-written splitter in one pass
//     as the bytes arrive: bracket depth, and strings in both quote styles,
//     triple-quoted or not, where a backslash always takes the next byte (as
//     Python's tokenizer reads raw strings too). A closing marker, a ']' or
//     a quote of the other style inside a string is content. A quote of a
//     single-quoted string's own style ends it only when the next byte that
//     is not white space can follow a value (',', ')', ']', '}', ':', a
//     quote) or the input ends; otherwise it is content, so a shell command
//     written 'sed -n '360,450p' f' keeps its inner quotes (vLLM's lfm2
//     tests). The grammar's lexer applies the same rule. A closing
//     bracket of the wrong kind ends the list there as a malformed error;
//     nesting beyond Options.MaxDepth, a list beyond Options.MaxBlock and a
//     list of Python calls of more than MaxBlock/128 tokens (at least
//     1024; 65,536 at the default limit) are over_limit errors. The token
//     limit is ours: the parse below takes 250 to 550 bytes a token, so a
//     list of tiny tokens would take hundreds of times its size; at the
//     limit it takes about 5 times the block limit (BenchmarkTokenLimit).
//   - Only the finished list is parsed, once, by a grammar built with
//     github.com/alecthomas/participle/v2 (grammar.go): this is what the
//     project's participle dependency is for; its lexer is our own
//     (lexer.go), one pass, since participle's regexp lexer read long string
//     arguments at a few MB/s. Error positions are mapped to offsets, lines
//     and columns of the source. When the list as a whole
//     does not parse, each top-level element (the splitter found the commas
//     between them) is parsed on its own, so one broken call does not take
//     its siblings with it.
//   - In a list a marker opened, LFM2 may write JSON call objects instead,
//     [{"name": …, "arguments": {…}}] (SGLang's lfm2 detector reads them):
//     when the first element starts with '{', the list is read as JSON, each
//     element a call or an error of its own (an "id" string is kept).
//     After <|tool_call_start|>, one JSON call object with no list around
//     it, <|tool_call_start|>{"name": …, "arguments": {…}}<|tool_call_end|>,
//     is one call (Ollama's first LFM2 parser reads it).
//   - After <|tool_call_start|> and white space, ```python opens MiniCPM's
//     fence: its body is read as an Olmo 3 block's (below), ``` ending it
//     as </function_calls> does (no Python literal holds '`' outside a
//     string); <|tool_call_end|> may follow, and the end of the input or
//     text in its place leaves the calls standing (a server may drop the
//     special token). Any other fence there makes the opener an error.
//     <|thought_start|> … <|thought_end|> is reasoning, as <think> is.
//   - <function_calls> opens an Olmo 3 block when, after white space, a
//     call's head (a name and '(', as above) or </function_calls> follows
//     it; anything else — minimax's <invoke …> there, prose naming the tag —
//     leaves it text (the minimax syntax reads that section). The block's
//     body is one call per line: a line end outside brackets and strings
//     ends a call, one inside a call's parentheses is white space, blank
//     lines separate nothing. The body ends at </function_calls> anywhere
//     outside a string (no Python literal holds '<'), and a quote followed
//     by white space and the closer ends its string: a call cut off there,
//     its bracket still open, is an error of its own, not a call that runs
//     on over the rest of the output. Each call is read on its own, as the elements of a
//     list that does not parse (vLLM's olmo3 parser and Ollama's read each
//     line). A bracket that does not match is one malformed error for the
//     block (vLLM gives no calls); a block the stream ends in is a truncated
//     error; an empty block gives no event (Ollama: no calls). The closer is
//     required: without a stop token in the way, Olmo 3 writes it.
//   - Each call gives one call event, name and arguments, or one malformed
//     error (raw = the call's text) for that call only: positional
//     arguments, *args/**kwargs, a repeated keyword, bytes literals, f-strings,
//     complex numbers, non-finite numbers (1e999, float('inf'), inf, nan), a
//     name or a call where a literal should be, a dict key that is not a
//     string. Its siblings stand (vLLM's regression tests).
//   - Values: None/True/False are null/true/false; strings in either quote
//     style, triple-quoted, raw (r'…') and u'…', with Python's escapes
//     (\n \t \\ \' \" \a \b \f \v, octal, \xhh, \uXXXX, \UXXXXXXXX,
//     line continuation; unknown escapes kept as written); adjacent string
//     literals are joined, as Python joins them; dicts are objects, lists and
//     tuples arrays, (x) is x, sets arrays in the order written (as vLLM's
//     lfm2 parser makes them). Integers keep every digit, beyond 2^53 too;
//     zero-padded ones (07, a syntax error in Python 3) read as the number;
//     hex, octal and binary ones are written in decimal; '_' separators are
//     dropped. Floats keep their digits as written, put in JSON's shape
//     (.5 → 0.5, 5. → 5.0), so nothing is rounded.
//   - The list is complete at its closing ']': end of input is the
//     terminator when there are no markers (the stop token was consumed).
//     A list the stream ends in is a truncated error, never a call.
//   - The closer that matches the opener (<|python_end|>, <|tool_call_end|>)
//     may follow the list after white space; it is optional (a stop token
//     the server may have consumed). A call's span ends at its list's ']'
//     whether or not the closer follows, so a cut before the closer gives
//     the same call; the closer's bytes belong to the list's last error, or
//     else to the message's execute. A closer anywhere else is text.
//   - Text before, between and after lists is respond. All the lists of a
//     message are one batch: one execute at the end of a message that gave
//     at least one valid call. There are no ids in this format.
//   - <think>…</think> is think (LFM2 writes it; Ollama's lfm2.go reads
//     it); inside it nothing is a marker, so a list written in a thought is
//     thought. With Options.ThinkOpen the output starts in reasoning, which
//     ends at the first </think> or at a call opener, whichever comes first
//     (docs/formats.md, rule 6); a later </think> is text. Reasoning the stream
//     ends in is its think event and a truncated error.
//     The opener written again before any text (a restated opener) is
//     passed over.
//   - Token mode: text streams as soon as it cannot start a marker or a list
//     (a '[' is held only while its head is undecided). Each call is
//     announced as soon as its element of the list is finished (the comma
//     after it has come; the last one at the ']'): a partial event with its
//     name, then its whole arguments as one delta, both with the span of the
//     call's text. Arguments come whole per call, not in smaller deltas. The
//     call events themselves come when the list is finished, since a list
//     cut off is never calls. A JSON list (below) is announced at its end.
//
// # Choices where peers disagree
//
//   - A list in the middle of prose is calls. vLLM's pythonic parser takes
//     calls only when the whole output is the list (text around it makes it
//     all content); Ollama's LFM2 parser only between the markers (a bare
//     list only as a fallback at the end, when tools were given). We read
//     the list wherever it starts a call list, as the brief's rule says, and
//     guard prose with the look-behind rule above.
//   - Unescaped inner quotes: by the quote rule above, f(a='x 'y', b='z')
//     (vLLM's test_good_call_survives_unparsable_sibling) is a call with
//     a = "x 'y"; vLLM drops that call and keeps its sibling. A quote our
//     rule does end early (the one after mul_symbol='\, in vLLM's nested_python_c case)
//     leaves brackets that do not match: an error, where vLLM recovers the
//     call by trying candidate parses. Our rule is decided in one pass.
//   - Mismatched brackets, [foo(x=1])]: vLLM gives no call and logs it; we
//     give one malformed error at the ']' and read what follows as text.
//   - The JSON spellings true, false and null are read as True, False and
//     None (vLLM's olmo3 parser and Ollama's lfm2 parser accept them; vLLM's
//     pythonic parser rejects the call).
//   - Dotted names (mod.fn) are calls named as written. vLLM's pythonic
//     parser rejects them (ast.Name only).
//   - A surrogate pair written as two \u escapes is one character, as a JSON
//     reader of Python's json.dumps output would see it; a lone surrogate is
//     U+FFFD.
//
// # Choices where the spec is silent
//
//   - A line break inside a single-quoted string is taken as written
//     (Python refuses it; models write it).
//   - A dict key given twice keeps its first place and its last value, as a
//     Python dict does.
//   - An empty list after a call opener, <|tool_call_start|>[]<|tool_call_end|>,
//     gives no event (no calls; nothing to report).
//   - A call opener followed by white space and then the end of the stream
//     is a truncated error; one followed by more white space than
//     Options.MaxBlock is a malformed error.
//   - A \N{name} escape is an error for its call: naming Unicode characters
//     would need the whole Unicode name table.
//   - Comments (#) inside a list are not Python comments: the call that
//     holds one is an error.
//
// # The renderer
//
// The renderer writes Python literals that read back to the same JSON and
// reports what it cannot carry; see its doc. The olmo3 variant writes each
// run of calls as an Olmo 3 block, one call per line. Results have no form in the
// model's text (they go back in an ipython or tool message): they are
// reported, not written.
//
// # Not built (TODO)
//
//   - Arguments streamed as deltas while a call is written (they come whole,
//     once the list is finished).
//   - Llama 3.2 pythonic calls with no list brackets (a bare name(...) line)
//     and LFM2's bare-call fallback inside the markers.
//   - A renderer variant writing the markers (<|python_start|> or
//     <|tool_call_start|>); the renderer writes bare lists, which every
//     model of the family reads.
package pythonic
