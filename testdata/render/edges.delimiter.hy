<think:opensource>
First thought.
</think:opensource>

<think:opensource>
Second thought, a run of its own.
</think:opensource>

<tool_call:opensource>read<tool_sep:opensource>
<arg_key:opensource>path</arg_key:opensource>
<arg_value:opensource>a.txt</arg_value:opensource>
</tool_call:opensource>
Reading it now.
<tool_response:opensource>
contents of a
</tool_response:opensource>
{"name": broken}

Done.
-- not carried --
hy cannot carry: an error event (invalid_json at 7:1: §call: at 7:18: invalid JSON: invalid character 'b' looking for beginning of value; the text is kept as respond): not written
