// Package schema reads tool definitions in the shapes users already have,
// validates calls against their JSON Schemas, and converts the string values
// of caret and xmltag calls to the declared types.
//
// # Tool definitions
//
// [Load] reads a JSON array of tools, or an object that holds one under
// "tools" (an MCP tools/list result, bare or inside a JSON-RPC response; a
// request body). Each tool may be:
//
//   - OpenAI Chat Completions: {"type":"function","function":{"name","description","parameters"}}
//   - OpenAI Responses: {"type":"function","name","description","parameters"}
//   - Anthropic: {"name","description","input_schema"}
//   - MCP: {"name","description","inputSchema"}
//   - Gemini: {"functionDeclarations":[{"name","description","parameters"}…]}
//     (or function_declarations; a lone such object is read too), whose
//     parameters are an OpenAPI schema object: its upper-case type names
//     ("OBJECT", "STRING") are read as JSON Schema's, and "nullable": true
//     adds "null" to the type. A declaration's "parametersJsonSchema" is
//     read as JSON Schema.
//   - plain: {"name","description","parameters"}
//
// A provider's built-in tool with no name ({"type":"web_search"},
// {"googleSearch":{}}) is skipped: the provider runs it, and its calls are
// hosted calls, which are not checked.
//
// # Validation
//
// Each tool's parameter schema is compiled once, when it is loaded, by
// github.com/santhosh-tekuri/jsonschema/v6. That engine is the dependency
// here because it implements every keyword of every JSON Schema draft
// (passing the official JSON-Schema-Test-Suite), reports each failure with
// its instance location and its kind (which this package turns into its own
// words), and needs nothing but golang.org/x/text.
//
// Schemas are read as draft 2020-12 unless they name another draft with
// "$schema" (draft-04, -06, -07 and 2019-09 are known). A schema without
// "$schema" that uses keywords only draft-07 gives a meaning ("dependencies",
// "additionalItems", "items" as an array) is read as draft-07, one with a
// boolean exclusiveMinimum or exclusiveMaximum as draft-04, and one with
// "$recursiveRef" as draft 2019-09, as tools written for them expect; one
// that mixes those with a later draft's keywords is a load error, since
// either draft would ignore some of them. A "$ref"
// may point anywhere in the tool's own schema ("#/$defs/…", draft-07's
// "#/definitions/…", an anchor); a "$ref" to any other document is a load
// error — nothing is ever fetched, from the network or from files. Every
// keyword the drafts define is checked: "format" (date-time, email, uri,
// uuid, …) and "contentEncoding"/"contentMediaType" are asserted, not left as
// annotations. Keywords no draft defines (extensions, OpenAPI's "nullable"
// outside Gemini declarations) are annotations, as the specification has it.
//
// A schema that does not compile is an error naming the tool and the place:
// "tool 2: read_file: not a valid JSON Schema: parameters.properties.limit.minimum:
// expected number, got string "3"".
//
// [Set.Validate] returns every problem with a call, in the order of the
// arguments it concerns, each as a [Problem]: an argument path and a message
// a model can act on — `argument "limit": expected integer, got string "10"`,
// `argument "range.end": missing (required)`, `argument "name": expected a
// string matching the pattern ^[a-z]+$, got "Fix 17"`. A value that fits no
// branch of an anyOf or oneOf is one problem: "expected integer or null" when
// every branch wanted another type, the problems of the one branch of its
// type, or the problems of each branch, numbered. Arguments that are not a
// JSON object, or nest deeper than [Set.MaxDepth], are one problem; so is a
// number with an exponent beyond ±1000 (1e999999), whose exact arithmetic
// would cost tens of milliseconds and which no tool needs.
//
// Schemas that use only type, properties, required, items, enum,
// additionalProperties and annotations are checked by the package itself on
// the raw JSON (the fast path: several times faster than decoding the call for
// the engine), with the same verdicts and the same words; a test holds the two
// to one answer.
//
// # Conversion
//
// Caret and xmltag give every value as the string the model wrote.
// [Set.Convert] turns such values into the types the schema declares,
// following "$ref" and "allOf", trying the types of a union and the branches
// of "anyOf" and "oneOf" in order (so Optional[int] turns "5" into 5 and
// "null" into null), converting the items of arrays and reading objects and
// arrays written as JSON in a string. A value that reads under no branch
// stays a string, and validation marks the call invalid. JSON in a string
// that would make the arguments nest deeper than [Set.MaxDepth] (512 by
// default, the parsers' limit) is not read; a problem says so.
//
// # Checking a stream
//
// [Set.Check] wraps a handler. Whether a call is converted is decided per
// call, by its Strings field, which the syntaxes whose values are strings set:
// so it works whatever way the syntax was chosen, auto included. Every call is
// still passed on — never dropped — but one that fails is marked Invalid, and
// an error event with code schema, naming the tool, each argument path and
// each problem, follows it.
package schema
