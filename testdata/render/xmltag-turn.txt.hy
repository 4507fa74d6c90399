<think:opensource>
I need both files before I can answer.
</think:opensource>

Let me read them.
<tool_call:opensource>read_files<tool_sep:opensource>
<arg_key:opensource>path</arg_key:opensource>
<arg_value:opensource>src/main.rs</arg_value:opensource>
<arg_key:opensource>path</arg_key:opensource>
<arg_value:opensource>Cargo.toml</arg_value:opensource>
</tool_call:opensource>
