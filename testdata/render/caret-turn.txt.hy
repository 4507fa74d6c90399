I'll write the file now.
<tool_call:opensource>write_file<tool_sep:opensource>
<arg_key:opensource>project</arg_key:opensource>
<arg_value:opensource>code-assistant</arg_value:opensource>
<arg_key:opensource>path</arg_key:opensource>
<arg_value:opensource>src/lib.rs</arg_value:opensource>
<arg_key:opensource>content</arg_key:opensource>
<arg_value:opensource>//! hello
fn main() {}
</arg_value:opensource>
</tool_call:opensource>
