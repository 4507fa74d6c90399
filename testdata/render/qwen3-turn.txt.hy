<think:opensource>
The user wants the weather in Paris and in Berlin. I have a get_weather tool; I can call it twice at once.
</think:opensource>

I'll check both cities.
<tool_call:opensource>get_weather<tool_sep:opensource>
<arg_key:opensource>city</arg_key:opensource>
<arg_value:opensource>Paris</arg_value:opensource>
<arg_key:opensource>unit</arg_key:opensource>
<arg_value:opensource>celsius</arg_value:opensource>
</tool_call:opensource>
<tool_call:opensource>get_weather<tool_sep:opensource>
<arg_key:opensource>city</arg_key:opensource>
<arg_value:opensource>Berlin</arg_value:opensource>
<arg_key:opensource>unit</arg_key:opensource>
<arg_value:opensource>celsius</arg_value:opensource>
</tool_call:opensource>
