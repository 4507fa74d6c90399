// Package gcml parses the tool calls of Sber's GigaChat 3.5, written in
// GCML: typed invokes in a section of their own, each tag carrying GCML's
// prefix of fullwidth bars (｜, U+FF5C).
//
//	I will check.<｜GCML｜tool_calls><｜GCML｜invoke name="get_weather">
//	<｜GCML｜parameter name="city" string="true">Tokyo</｜GCML｜parameter>
//	<｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>
//	</｜GCML｜invoke></｜GCML｜tool_calls>
//
// The invokes are DeepSeek's DSML (syntax/deepseek) under another prefix,
// read by the module's invoke reader with the same rules. GigaChat 3 and
// 3.1 write another format (syntax/gigachat).
//
// # Rules as read
//
//   - Text outside markers is respond. <think>…</think> is reasoning; with
//     Options.ThinkOpen the output starts in it, and a section's opener
//     ends it.
//   - <｜GCML｜tool_calls> … </｜GCML｜tool_calls> holds invokes, white
//     space between them; a closer missing at the end of the input is
//     tolerated, text after an invoke ends the section, and a section with
//     no invoke is an error.
//   - <｜GCML｜invoke name="N"> holds parameters <｜GCML｜parameter name="K"
//     string="true|false">V</｜GCML｜parameter>: string="true" (or no
//     string attribute) is V as written; string="false" is V's JSON (kept
//     as the string when it is not JSON, as vLLM keeps it). A parameter's
//     closer ends its value only when the next parameter or the invoke's
//     closer follows it. An invoke that closes itself is a call with no
//     arguments. An invoke is a call only at its closer: cut off, it is a
//     truncated error, never a call.
//   - The calls of a message are one batch: one execute at the end of the
//     input. No ids; no results (GigaChat's come in messages of their own).
//
// # Where peers disagree
//
//   - vLLM gives the whole output back as text when no invoke parses; here
//     each invoke stands or is an error by itself.
package gcml
