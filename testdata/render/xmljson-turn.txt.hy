<think:opensource>
The user wants the API endpoint changed. Read the config first.
</think:opensource>

<tool_call:opensource>read<tool_sep:opensource>
<arg_key:opensource>file</arg_key:opensource>
<arg_value:opensource>config.json</arg_value:opensource>
</tool_call:opensource>
<tool_response:opensource>
{"api":"old.com"}
</tool_response:opensource>
<think:opensource>
API is old.com; write new.com and read it back.
</think:opensource>

<tool_call:opensource>write<tool_sep:opensource>
<arg_key:opensource>file</arg_key:opensource>
<arg_value:opensource>config.json</arg_value:opensource>
<arg_key:opensource>content</arg_key:opensource>
<arg_value:opensource>{"api": "new.com"}</arg_value:opensource>
</tool_call:opensource>
<tool_call:opensource>read<tool_sep:opensource>
<arg_key:opensource>file</arg_key:opensource>
<arg_value:opensource>config.json</arg_value:opensource>
</tool_call:opensource>
<tool_response:opensource>
{"bytes":19}
</tool_response:opensource>
<tool_response:opensource>
{"api":"new.com"}
</tool_response:opensource>
The API endpoint is now new.com, and I read it back to check.
