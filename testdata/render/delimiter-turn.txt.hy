<think:opensource>
I should check what files exist first.
</think:opensource>

<tool_call:opensource>file_list<tool_sep:opensource>
<arg_key:opensource>path</arg_key:opensource>
<arg_value:opensource>.</arg_value:opensource>
</tool_call:opensource>
<tool_response:opensource>
Found 3 files: main.py, config.json, README.md
</tool_response:opensource>
I found 3 files: main.py, config.json, README.md
