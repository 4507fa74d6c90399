package seedoss

import (
	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
)

// Syntax describes the seedoss syntax for the registry.
var Syntax = syntax.Syntax{
	Name:        "seedoss",
	Aliases:     []string{"seed-oss", "seed_oss"},
	Description: "ByteDance Seed-OSS: <seed:tool_call><function=NAME><parameter=K>v</parameter></function></seed:tool_call>",
	New:         format.New,
	Detect:      format.Detect,
	Render:      format.Render,
	Prompt:      promptRules,
	// Models and Templates: see registry.ForModel and registry.ForTemplate.
	Models: []string{"seed-oss*"},
	Templates: []syntax.Fingerprint{
		{All: []string{"<seed:tool_call>", "<function=", "<parameter="}},
	},
}

// format is the Seed-OSS form, for the tag-call engine: Qwen3-Coder's
// function and parameter tags under Seed's own think and scope tags, no
// bare function tag, and no result block (results come back in messages
// of their own, as the template writes them). The seed: tags are Seed's
// alone, so auto-detection takes each as evidence: a call the model quotes
// in its thought is then never read as a Qwen3-Coder call.
var format = &tagcall.Format{
	Name:     "seedoss",
	Think:    tagcall.Tags{Open: "<seed:think>", Close: "</seed:think>"},
	Scope:    tagcall.Tags{Open: "<seed:tool_call>", Close: "</seed:tool_call>"},
	Function: tagcall.Tags{Open: "<function=", Close: "</function>"},
	Param:    tagcall.Param{Open: "<parameter=", KeyClose: ">", Close: "</parameter>", TrimNewline: true},
	Own:      true,
}

const promptRules = `To call a function, reply in the following format:
<seed:tool_call>
<function=example_function_name>
<parameter=example_parameter_1>value_1</parameter>
<parameter=example_parameter_2>This is the value for the second parameter
that can span
multiple lines</parameter>
</function>
</seed:tool_call>
- Values are plain text, taken verbatim (no escaping); one newline at the start and one at the end of a value are not part of it.
- One <seed:tool_call> block per call; several blocks call several tools.
- Think inside <seed:think>...</seed:think> (optional). Text outside blocks is your answer to the user.`
