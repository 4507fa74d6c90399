Okay, let me check.
<tool_call:opensource>get_weather<tool_sep:opensource>
<arg_key:opensource>location</arg_key:opensource>
<arg_value:opensource>San Francisco, CA</arg_value:opensource>
</tool_call:opensource>
