// Package schema reads tool definitions in the shapes users already have,
// validates calls against them, and converts the string values of caret and
// xmltag calls to the declared types (SPEC §4).
//
// Accepted shapes: an OpenAI tools array ({"type":"function","function":
// {name, description, parameters}}), an Anthropic tools array (input_schema),
// an MCP tools/list result ({"tools":[…inputSchema…]}, bare or inside a
// JSON-RPC response), and a plain [{"name","description","parameters"}].
//
// Validation covers the JSON Schema that tool schemas use in practice: type
// (one or a list, null included), properties, required, items, enum,
// additionalProperties (false, true or a schema), nested objects and arrays,
// description. [Set.Check] wraps a handler: every call is still passed on —
// never dropped — but one that fails is marked Invalid, and an error event
// that names the tool, the argument path and the problem follows it.
package schema
