package native

import (
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// Tools the provider runs itself become hosted_call and hosted_result
// events, never calls: an agent that runs every call must not run them.

// anthropicHostedUse reports whether an Anthropic content block type is a
// call of a tool the provider runs (server_tool_use, mcp_tool_use).
func anthropicHostedUse(typ string) bool { return typ == "server_tool_use" || typ == "mcp_tool_use" }

// anthropicHostedResult reports whether an Anthropic content block type is
// the result of such a call (web_search_tool_result, mcp_tool_result, …).
func anthropicHostedResult(typ string) bool {
	return strings.HasSuffix(typ, "_tool_result") && typ != "tool_result"
}

// hostedResult emits the hosted_result of an Anthropic result block, named
// after the call it answers.
func (p *parser) hostedResult(b fields, span syntax.Span) {
	id := b.s("tool_use_id")
	content := b.get("content")
	status := syntax.Success
	if b.boolean("is_error") || strings.HasSuffix(p.probe(content).s("type"), "_error") {
		status = syntax.Failure
	}
	tool := p.toolName(id)
	if tool == "" {
		tool = b.s("name") // not Anthropic's: the renderer's name for a result whose call had no id
	}
	p.Emit(syntax.Event{Type: syntax.HostedResult, Tool: tool, ID: id, Status: status, Value: contentValue(content), Span: span})
}

// responsesRequest lists, for each built-in tool item of OpenAI Responses
// that the provider runs, the fields that are its request (the hosted
// call's args); its other fields, but id, type and status, are the result.
var responsesRequest = map[string][]string{
	"web_search_call":       {"action"},
	"file_search_call":      {"queries"},
	"code_interpreter_call": {"code", "container_id"},
	"image_generation_call": {"revised_prompt"},
	"mcp_call":              {"arguments"}, // parsed: the MCP tool's own arguments
}

// responsesClientCall names the client-run built-in items of OpenAI
// Responses (calls for the agent to run) and the field that holds their
// arguments.
var responsesClientCall = map[string]string{
	"local_shell_call": "action",
	"shell_call":       "action",
	"apply_patch_call": "operation",
	"custom_tool_call": "input",
}

// responsesItemOpen starts the call of a Responses item other than a
// function_call, when one is added to a stream: it stays open, and becomes
// an error if its item never completes.
func (p *parser) responsesItemOpen(it fields, key string, span syntax.Span) {
	typ := it.s("type")
	if _, hosted := responsesRequest[typ]; hosted {
		c := p.callFor(key, it.s("id"), hostedName(it, typ), span)
		c.hosted, c.unclosed = true, true
	} else if _, ok := responsesClientCall[typ]; ok {
		c := p.callFor(key, it.s("call_id"), clientName(it, typ), span)
		c.unclosed = true
	}
}

func hostedName(it fields, typ string) string {
	if typ == "mcp_call" {
		return it.s("name")
	}
	return strings.TrimSuffix(typ, "_call")
}

func clientName(it fields, typ string) string {
	if typ == "custom_tool_call" {
		return it.s("name")
	}
	return strings.TrimSuffix(typ, "_call")
}

// responsesItem reads a complete Responses output item other than a
// message, reasoning or function_call: a built-in tool's item, or an item
// the parser cannot read (an unsupported error). now says whether a client
// call is emitted at once; otherwise it waits for the message's end.
func (p *parser) responsesItem(it fields, key string, span syntax.Span, now bool) {
	typ := it.s("type")
	if req, hosted := responsesRequest[typ]; hosted {
		p.hostedItem(it, typ, key, req, span)
		return
	}
	field, ok := responsesClientCall[typ]
	if !ok {
		what := "an output item of type " + typ
		if typ == "" {
			what = "an output item with no type"
		}
		p.Errorf(syntax.CodeUnsupported, p.docStart, span, nil, "%s is not read", what)
		return
	}
	c := p.callFor(key, it.s("call_id"), clientName(it, typ), span)
	c.unclosed = false
	if typ == "custom_tool_call" {
		c.custom = true
		if jsonscan.Kind(it.get("input")) == '"' {
			p.setWhole(c, append(append([]byte(`{"input":`), jsonscan.Compact(it.get("input"))...), '}'))
		} else {
			p.setValue(c, it.get("input")) // not a string: reported as arguments that are not an object
		}
	} else {
		p.setValue(c, it.get(field))
	}
	if c.whole == nil {
		p.setWhole(c, []byte("null"))
	}
	if now {
		p.completeCall(c, "")
	}
}

// hostedItem emits a hosted_call and its hosted_result for an item of a
// built-in tool that the provider ran.
func (p *parser) hostedItem(it fields, typ, key string, req []string, span syntax.Span) {
	c := p.callFor(key, it.s("id"), hostedName(it, typ), span)
	c.hosted, c.unclosed = true, false
	skip := func(k string) bool { return k == "id" || k == "type" || k == "status" }
	if typ == "mcp_call" {
		// The MCP tool's own arguments, a JSON string, are the args.
		if jsonscan.Kind(it.get("arguments")) == '"' {
			args, _ := it.text("arguments")
			p.setWhole(c, args)
		} else {
			p.setValue(c, it.get("arguments")) // not a string: read as the arguments themselves
		}
		skip = func(k string) bool {
			return k == "id" || k == "type" || k == "status" || k == "arguments" || k == "name"
		}
	} else {
		p.setWhole(c, pick(it, func(k string) bool { return contains(req, k) }))
		old := skip
		skip = func(k string) bool { return old(k) || contains(req, k) }
	}
	if !p.completeCall(c, "") {
		return
	}
	status := syntax.Success
	if st := it.s("status"); (st != "" && st != "completed") || (it.has("error") && jsonscan.Kind(it.get("error")) != 'n') {
		status = syntax.Failure
	}
	p.Emit(syntax.Event{Type: syntax.HostedResult, Tool: c.name, ID: c.id, Status: status, Value: pick(it, func(k string) bool { return !skip(k) }), Span: span})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pick returns the members of f whose key keep accepts, as a compact JSON
// object.
func pick(f fields, keep func(string) bool) []byte {
	b := []byte{'{'}
	for _, m := range f.m {
		k := string(m.key)
		if !keep(k) {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = syntax.AppendQuote(b, k)
		b = append(b, ':')
		b = append(b, jsonscan.Compact(m.val)...)
	}
	return append(b, '}')
}
