package registry

import (
	"regexp"
	"strings"
)

// The reasoning blocks a generation prompt may open, and their closers.
var (
	thinkOpeners = []string{"<think>", "<seed:think>", "<mm:think>", "<think{}>", "<|START_THINKING|>", "<thought>",
		"<|channel>thought", "open_tag('think'", "Here are my reasoning steps"}
	thinkClosers = []string{"</think>", "</seed:think>", "</mm:think>", "</think{}>", "<|END_THINKING|>", "</thought>", "<channel|>"}
	// thinkVars are the variables templates switch reasoning with.
	thinkVars = regexp.MustCompile(`\b(enable_thinking|thinking|reasoning|thinking_mode|reasoning_effort|toggle\.enable|thinking_budget)\b`)
	jinjaTag  = regexp.MustCompile(`(?s)\{%-?\s*(\w+)(.*?)-?%\}`)
	setString = regexp.MustCompile(`\{%-?\s*set\s+(\w+)\s*=\s*(['"])(.*?)['"](?:\.format\([^)]*\))?\s*-?%\}`)
	joinStr   = regexp.MustCompile(`['"]\s*[+~]\s*['"]`)
	closedRun = regexp.MustCompile(`(<think>|<seed:think>|<mm:think>|<think\{\}>|<\|START_THINKING\|>|<\|channel>thought)\s*(</think>|</seed:think>|</mm:think>|</think\{\}>|<\|END_THINKING\|>|<channel\|>)`)
	seedSpan  = regexp.MustCompile(`(?s)<seed:think>.*?</seed:think>`)
	condTag   = regexp.MustCompile(`\{%-?\s*(if|elif)\b[^%]*` + thinkVars.String() + `[^%]*%\}`)
)

// thinkOpen reports whether a chat template's generation prompt leaves a
// reasoning block open (so the model's output starts inside it), and, when
// that depends on a variable, which and what its default gives.
//
// The generation prompt is the template's last {% if … add_generation_prompt
// … %} branch. Marker variables set to literals are read as those literals,
// an opener followed by its closer is a closed (empty) block, and what is
// left is searched for an opener. An opener under a condition on a
// reasoning variable (enable_thinking, thinking, …), or beside a closer
// written under one, depends on it: its default is the template's own (a
// {% set %} to true, "is not defined" meaning true), else Jinja's (an
// undefined variable is false), so that "{% if not enable_thinking %}…{%
// else %}<think>" is open by default and "{% if enable_thinking %}<think>"
// is not.
func thinkOpen(t string) (bool, string) {
	open, why := thinkOpenBranch(t)
	// A condition on a reasoning variable in the generation prompt's own
	// tag ({% if add_generation_prompt and enable_thinking %}) decides too.
	if cond := generationCond(t); open && thinkVars.MatchString(cond) {
		v := thinkVars.FindString(cond)
		if !condValue(cond, v, defaultOf(t, v)) {
			return false, "the generation prompt opens reasoning only when " + v + " is set; closed by default"
		}
		if why == "the generation prompt opens reasoning" {
			why = "the generation prompt opens reasoning when " + v + " is set; open by default"
		}
	}
	return open, why
}

// generationCond is the condition of the tag of the template's
// generation prompt (see generationBranch), or "".
func generationCond(t string) string {
	cond := ""
	for _, m := range jinjaTag.FindAllStringSubmatch(t, -1) {
		if m[1] == "if" && strings.Contains(m[2], "add_generation_prompt") && !strings.Contains(m[2], "is defined") && !strings.Contains(m[2], "not add_generation_prompt") {
			cond = m[2]
		}
	}
	return cond
}

func thinkOpenBranch(t string) (bool, string) {
	b := generationBranch(t)
	if b == "" {
		return false, ""
	}
	for _, m := range setString.FindAllStringSubmatch(t, -1) {
		name, val := m[1], m[3]
		if !strings.Contains(val, "<") && !containsAny(val, thinkOpeners) {
			continue // only marker-valued variables
		}
		b = regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).ReplaceAllLiteralString(b, "'"+val+"'")
	}
	flat := joinStr.ReplaceAllString(b, "")
	flat = strings.ReplaceAll(flat, `\n`, "\n")
	flat = closedRun.ReplaceAllString(flat, "")
	flat = seedSpan.ReplaceAllString(flat, "")
	at := indexAny(flat, thinkOpeners)
	if at < 0 {
		return false, ""
	}
	// Where a condition on a reasoning variable decides: a tag before the
	// opener ({% if … %} … {% else %} <think>), an inline one on its line
	// ('</think>' if … else '<think>'), or one over a closer written after
	// an opener that is always written.
	line := flat[strings.LastIndexByte(flat[:at], '\n')+1:]
	if e := strings.IndexByte(line, '\n'); e >= 0 {
		line = line[:e]
	}
	var open bool
	var v string
	if m := inlineCond.FindStringSubmatchIndex(line); m != nil && !strings.Contains(line[:m[0]], "{%") {
		expr := line[m[2]:m[3]]
		v = thinkVars.FindString(expr)
		opener := indexAny(line, thinkOpeners)
		open = condValue(expr, v, defaultOf(t, v)) == (opener < m[0]) // the opener before "if" is written when the condition holds
	} else if tags := condTag.FindAllStringIndex(flat[:at], -1); tags != nil {
		last := tags[len(tags)-1]
		tag := flat[last[0]:last[1]]
		v = thinkVars.FindString(tag)
		expr := tag[strings.Index(tag, "if")+2:]
		inElse := regexp.MustCompile(`\{%-?\s*else\s*-?%\}`).MatchString(flat[last[1]:at])
		open = condValue(expr, v, defaultOf(t, v)) != inElse
	} else if tags := condTag.FindAllStringIndex(flat[at:], -1); tags != nil && containsAny(flat[at:], thinkClosers) {
		tag := flat[at+tags[0][0] : at+tags[0][1]]
		v = thinkVars.FindString(tag)
		open = !condValue(tag[strings.Index(tag, "if")+2:], v, defaultOf(t, v)) // the closer is written when it holds
	} else {
		return true, "the generation prompt opens reasoning"
	}
	state := "closed"
	if open {
		state = "open"
	}
	return open, "the generation prompt's reasoning block depends on " + v + "; " + state + " by default"
}

// inlineCond is an inline condition: "… if EXPR else …".
var inlineCond = regexp.MustCompile(`\bif\s+(\(?[^%}]*?` + thinkVars.String() + `[^%}]*?)\s+else\b`)

// condValue is the value of a template's condition expr when the
// reasoning variable v has its default (def: the literal the template
// gives it, or "" when it is undefined). It reads the forms templates use:
// v, not v, v is [not] defined, v is undefined, v is true/false, v ==/!= a
// literal, v | default(literal), joined by and and or; anything else about
// v is v's truth.
func condValue(expr, v, def string) bool {
	e := strings.TrimSpace(strings.Trim(strings.TrimSpace(expr), "()%-"))
	e = strings.TrimSpace(strings.TrimPrefix(e, "add_generation_prompt and"))
	if ors := splitTop(e, " or "); len(ors) > 1 {
		for _, x := range ors {
			if condValue(x, v, def) {
				return true
			}
		}
		return false
	}
	if ands := splitTop(e, " and "); len(ands) > 1 {
		for _, x := range ands {
			if !condValue(x, v, def) {
				return false
			}
		}
		return true
	}
	if rest, ok := strings.CutPrefix(e, "not "); ok {
		return !condValue(rest, v, def)
	}
	val := def // the variable's value: a literal, or "" when undefined
	if m := regexp.MustCompile(`\|\s*default\(\s*([^)]*?)\s*\)`).FindStringSubmatch(e); m != nil && def == "" {
		val = strings.ToLower(strings.Trim(m[1], `'"`))
	}
	truth := val != "" && val != "false" && val != "none" && val != "0"
	q := regexp.QuoteMeta(v)
	switch {
	case v == "" || !strings.Contains(e, v):
		return true // a condition on something else (add_generation_prompt): taken as holding
	case regexp.MustCompile(q + `\s+is\s+defined`).MatchString(e):
		return val != ""
	case regexp.MustCompile(q + `\s+is\s+(not\s+defined|undefined)`).MatchString(e):
		return val == ""
	case regexp.MustCompile(q + `\s+is\s+false`).MatchString(e):
		return val == "false" // an undefined variable is not false
	case regexp.MustCompile(q + `\s+is\s+true`).MatchString(e):
		return val == "true"
	}
	if m := regexp.MustCompile(q + `(?:\s*\|[^=!]*)?\s*(==|!=)\s*['"]?([^'")\s]*)['"]?`).FindStringSubmatch(e); m != nil {
		eq := val == strings.ToLower(m[2])
		if m[1] == "!=" {
			return !eq
		}
		return eq
	}
	return truth
}

// splitTop splits e at sep outside parentheses.
func splitTop(e, sep string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth == 0 && strings.HasPrefix(e[i:], sep) {
			out = append(out, e[from:i])
			from = i + len(sep)
			i += len(sep) - 1
		}
	}
	return append(out, e[from:])
}

// defaultOf is the default the template gives the variable v, as a literal
// lower-cased ("true", "enabled"), or "" when it leaves v undefined (false
// in Jinja): a {% set v = … %} to a literal, or to v | default(literal).
func defaultOf(t, v string) string {
	if v == "" {
		return ""
	}
	q := regexp.QuoteMeta(v)
	if m := regexp.MustCompile(`set\s+` + q + `\s*=\s*` + q + `\s*\|\s*default\(\s*([^)]*?)\s*\)`).FindStringSubmatch(t); m != nil {
		return strings.ToLower(strings.Trim(m[1], `'"`))
	}
	if m := regexp.MustCompile(`(?i)set\s+` + q + `\s*=[^%]*\b(true|false)\b[^%]*%\}`).FindStringSubmatch(t); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// generationBranch returns the source of the template's last
// add_generation_prompt branch, up to its else, elif or endif.
func generationBranch(t string) string {
	tags := jinjaTag.FindAllStringSubmatchIndex(t, -1)
	start := -1
	for i, m := range tags {
		kind, cond := t[m[2]:m[3]], t[m[4]:m[5]]
		if kind == "if" && strings.Contains(cond, "add_generation_prompt") && !strings.Contains(cond, "is defined") && !strings.Contains(cond, "not add_generation_prompt") {
			start = i
		}
	}
	if start < 0 {
		return ""
	}
	from := tags[start][1]
	depth := 0
	for _, m := range tags[start+1:] {
		switch t[m[2]:m[3]] {
		case "if", "for", "macro", "filter", "call":
			depth++
		case "endif", "endfor", "endmacro", "endfilter", "endcall":
			if depth == 0 {
				return t[from:m[0]]
			}
			depth--
		case "else", "elif":
			if depth == 0 {
				return t[from:m[0]]
			}
		}
	}
	return t[from:]
}

func containsAny(s string, subs []string) bool { return indexAny(s, subs) >= 0 }

// indexAny is where the first of subs in s starts, or -1.
func indexAny(s string, subs []string) int {
	at := -1
	for _, sub := range subs {
		if i := strings.Index(s, sub); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	return at
}
