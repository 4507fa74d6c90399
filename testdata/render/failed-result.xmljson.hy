<tool_call:opensource>read<tool_sep:opensource>
<arg_key:opensource>path</arg_key:opensource>
<arg_value:opensource>a.txt</arg_value:opensource>
</tool_call:opensource>
<tool_call:opensource>read<tool_sep:opensource>
<arg_key:opensource>path</arg_key:opensource>
<arg_value:opensource>missing.txt</arg_value:opensource>
</tool_call:opensource>
<tool_response:opensource>
{"text":"alpha"}
</tool_response:opensource>
<tool_response:opensource>
Error: no such file: missing.txt
</tool_response:opensource>
