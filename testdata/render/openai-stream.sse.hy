<tool_call:opensource>read<tool_sep:opensource>
<arg_key:opensource>f</arg_key:opensource>
<arg_value:opensource>a</arg_value:opensource>
</tool_call:opensource>
<tool_call:opensource>read<tool_sep:opensource>
<arg_key:opensource>f</arg_key:opensource>
<arg_value:opensource>b</arg_value:opensource>
</tool_call:opensource>
