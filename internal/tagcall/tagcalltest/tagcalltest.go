// Package tagcalltest runs a family's golden cases for each member of it:
// the rules the tag-call engine keeps for every format of a form, checked
// on every format that has that form, in its own markers.
//
// A family case is a golden case (package syntaxtest's txtar form) whose
// input names markers by their role, not their spelling:
//
//	{{think}} {{/think}}     Think.Open, Think.Close
//	{{call NAME}}            a call's opener for NAME, as the format writes it:
//	                         Scope.Open and Function.Open NAME NameEnd, or
//	                         Scope.Open NAME NameClose for a word name
//	{{/call}}                the call's closer: Function.Close then Scope.Close
//	{{param KEY}} {{/param}} a parameter's open tag (Param.Open KEY
//	                         Param.KeyClose and Param.ValueOpen) and Param.Close
//	{{result}} {{/result}}   Result.Open, Result.Close
//	{{block}} {{/block}}     a JSON block's Scope.Open and Scope.Close (which
//	                         may be empty: the value's end ends the block)
//	{{obj NAME ARGS}}        a call object in the format's keys, ARGS its JSON
//	                         arguments as written (a JSON value: a "}}" in it
//	                         is its own); {{objopen NAME}} is the object up
//	                         to its arguments, for a call cut off in them
//	{{calls}} {{/calls}}     a token section's first opener and first closer
//	{{tcall K NAME ARGS}}    a call in tokens: the header the format writes for
//	                         the call K (from 0) named NAME, ARGS its JSON
//	                         arguments as written; {{topen K NAME}} and
//	                         {{/tcall}} are its parts before and after ARGS,
//	                         and {{id K NAME}} is the id the format reads
//	                         from its header
//	{{section}} {{/section}} an invoke section's first opener and its closer
//	{{invoke NAME}} {{/invoke}}  an invoke element's open tag (Tags.Tag(NAME))
//	                         and its closer; {{param KEY}} {{/param}} are then
//	                         a parameter element's
//
// The same names may stand in the events' strings (a thought that holds a
// marker), their ARGS there holding no string (escaped in the events' JSON,
// they would be read escaped). A case that names a marker the format does not have (a format
// with no Result) does not apply to it and is skipped. The events are
// compared without what depends on the markers' lengths and wording — the
// positions, spans, raw text and messages of errors — and the kit's
// relations ([syntaxtest.Check]) are checked at every chunking of the
// format's input, which holds the spans to the bytes. A case's description
// may say "family-skip FIELD" to leave out formats that set the named
// field of Format or Param (Reopens, CDATA), or "family-only FIELD" to
// leave out those that do not (Scope.Close): a rule such formats document
// as their own.
package tagcalltest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolparse/toolparse/internal/tagcall"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/syntaxtest"
)

//go:embed testdata
var files embed.FS

// families says which families f belongs to: "params" for raw-string
// parameters (Param), "json" for calls as JSON objects in a block (JSON),
// "invoke" for sections of invoke elements (Invoke), "token" for special
// tokens around a header and JSON arguments (Token).
func families(f *tagcall.Format) []string {
	var fams []string
	switch {
	case f.Invoke != nil:
		return []string{"invoke"}
	case f.Token != nil:
		return []string{"token"}
	}
	if f.Param.Open != "" {
		fams = append(fams, "params")
	}
	if f.JSON != nil {
		fams = append(fams, "json")
	}
	return fams
}

// RunFamily runs, for the format f of the syntax s, the golden cases of
// each family f belongs to, one subtest each. It fails when f belongs to
// none, or when no case of one of its families applies to it.
func RunFamily(t *testing.T, s syntax.Syntax, f *tagcall.Format) {
	t.Helper()
	fams := families(f)
	if len(fams) == 0 {
		t.Fatalf("%s belongs to no family with golden cases", f.Name)
	}
	for _, fam := range fams {
		ran := 0
		dir := path.Join("testdata", fam)
		entries, err := fs.ReadDir(files, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := fs.ReadFile(files, path.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			g, err := syntaxtest.ParseGolden(data)
			if err != nil {
				t.Fatalf("%s/%s: %v", fam, e.Name(), err)
			}
			input, ok := expand(string(g.Input), f, false)
			if !ok || skipped(g.Comment, f) {
				continue
			}
			ran++
			t.Run(fam+"/"+e.Name(), func(t *testing.T) {
				t.Parallel()
				for _, p := range checkCase(s, f, g, []byte(input)) {
					t.Errorf("input:\n%s\n%s", input, p)
				}
			})
		}
		if ran == 0 {
			t.Errorf("no case of the %s family applies to %s", fam, f.Name)
		}
	}
}

// checkCase parses the case's input, in f's markers, with s in each mode
// whose events the case gives, and checks the kit's relations over it:
// what differs, one problem a line.
func checkCase(s syntax.Syntax, f *tagcall.Format, g *syntaxtest.Golden, input []byte) []string {
	var problems []string
	for _, m := range []struct {
		mode syntax.Mode
		want []byte
	}{{syntax.EventMode, g.Events}, {syntax.TokenMode, g.Tokens}} {
		if m.want == nil {
			continue
		}
		text, ok := expand(string(m.want), f, true)
		if !ok {
			return append(problems, "the events name a marker the format does not have")
		}
		want, err := syntaxtest.DecodeJSONL([]byte(text))
		if err != nil {
			return append(problems, err.Error())
		}
		var got []syntax.Event
		opts := g.Options
		opts.Mode = m.mode
		p := s.New(func(e syntax.Event) { got = append(got, e) }, opts)
		p.Write(input)
		p.Close()
		if d := cmp.Diff(want, got, cmpopts.IgnoreFields(syntax.Event{}, "Pos", "Span", "Raw", "Message", "Strings"), cmpopts.EquateEmpty()); d != "" {
			problems = append(problems, fmt.Sprintf("%s: events differ (-want +got):\n%s\ngot:\n%s", m.mode, d, syntaxtest.EncodeJSONL(got)))
		}
	}
	if err := syntaxtest.Check(s, input, syntaxtest.Config{Options: g.Options}); err != nil {
		problems = append(problems, err.Error())
	}
	return problems
}

// skipped reports whether the case's description leaves f out: a line
// "family-skip FIELD" names a field of Format (Reopens, Scope.Close, or of
// its Param: CDATA) that f sets, or a line "family-only FIELD" one it does
// not.
func skipped(comment string, f *tagcall.Format) bool {
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(line)
		if field, ok := strings.CutPrefix(line, "family-skip "); ok && set(f, field) {
			return true
		}
		if field, ok := strings.CutPrefix(line, "family-only "); ok && !set(f, field) {
			return true
		}
	}
	return false
}

// set reports whether f sets the field named by a dotted path, looked up
// in Format and then in its Param.
func set(f *tagcall.Format, field string) bool {
	for _, root := range []reflect.Value{reflect.ValueOf(*f), reflect.ValueOf(f.Param)} {
		v := root
		for _, name := range strings.Split(field, ".") {
			if v.Kind() == reflect.Pointer {
				if v.IsNil() {
					return false // Invoke.…, Token.… of a format of another form
				}
				v = v.Elem()
			}
			if v.Kind() != reflect.Struct {
				v = reflect.Value{}
				break
			}
			v = v.FieldByName(name)
			if !v.IsValid() {
				break
			}
		}
		if v.IsValid() {
			return !v.IsZero()
		}
	}
	panic(fmt.Sprintf("a family case names %q, no field of Format or Param", field))
}

// expand writes the markers text names in f's spelling, JSON-escaped when
// quoted (the text is inside JSON strings); ok is false when it names one
// f does not have.
func expand(text string, f *tagcall.Format, quoted bool) (string, bool) {
	var b strings.Builder
	for {
		i := strings.Index(text, "{{")
		if i < 0 {
			b.WriteString(text)
			return b.String(), true
		}
		j := refEnd(text[i:])
		if j < 0 {
			panic("an unclosed {{ in a family case: " + text[i:])
		}
		if quoted && strings.Contains(text[i:i+j], `\`) {
			panic("a marker in the events with escaped text in it (write ARGS there with no strings): " + text[i:i+j])
		}
		m, ok := marker(text[i+2:i+j], f)
		if !ok {
			return "", false
		}
		if quoted {
			var q bytes.Buffer
			enc := json.NewEncoder(&q)
			enc.SetEscapeHTML(false) // as the events are written
			enc.Encode(m)
			m = strings.TrimSuffix(q.String(), "\n")
			m = m[1 : len(m)-1]
		}
		b.WriteString(text[:i] + m)
		text = text[i+j+2:]
	}
}

// refEnd returns where the {{…}} at the start of s ends (the index of its
// "}}"), or -1. The ARGS of {{obj NAME ARGS}} and {{tcall K NAME ARGS}}
// are read as a JSON value: a "}}" in a string of theirs, or closing
// nested objects, is theirs.
func refEnd(s string) int {
	w, _, _ := strings.Cut(s[2:], " ")
	spaces := map[string]int{"obj": 2, "tcall": 3}[w] // the spaces before ARGS
	if spaces == 0 {
		return strings.Index(s, "}}")
	}
	i := 2
	for n := 0; n < spaces; i++ {
		if i >= len(s) {
			return -1
		}
		if s[i] == ' ' {
			n++
		}
	}
	depth, str, esc := 0, false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case str:
			esc, str = !esc && c == '\\', esc || c != '"'
			continue
		case c == '"':
			str = true
			continue
		case c == '{' || c == '[':
			depth++
			continue
		case (c == '}' || c == ']') && depth > 0:
			depth--
			continue
		}
		if strings.HasPrefix(s[i:], "}}") {
			return i
		}
	}
	return -1
}

// marker spells the marker named by ref ("call NAME", "/param") in f, or
// reports that f has none.
func marker(ref string, f *tagcall.Format) (string, bool) {
	word, arg, _ := strings.Cut(ref, " ")
	var m string
	switch word {
	case "think":
		m = f.Think.Open
	case "/think":
		m = f.Think.Close
	case "result":
		m = f.Result.Open
	case "/result":
		m = f.Result.Close
	case "call":
		switch {
		case f.Function.Open != "":
			end := f.NameEnd
			if end == "" {
				end = ">"
			}
			m = f.Function.Open + arg + end + "\n"
			if f.Scope.Open != "" {
				m = f.Scope.Open + "\n" + m
			}
		case f.Scope.Open != "":
			m = f.Scope.Open + arg + f.NameClose + "\n"
		}
	case "/call":
		m = f.Function.Close
		if m != "" && f.Scope.Close != "" {
			m += "\n"
		}
		m += f.Scope.Close
	case "block":
		m = f.Scope.Open
	case "/block":
		return f.Scope.Close, true // a block the value's end ends has none
	case "obj", "objopen":
		if f.JSON == nil {
			return "", false
		}
		name, args, _ := strings.Cut(arg, " ")
		k := f.JSON
		if k.NameKey {
			m = string(syntax.AppendQuote([]byte("{"), name)) + ": "
		} else {
			m = string(syntax.AppendQuote([]byte(`{"`+k.Name+`": `), name)) + `, "` + k.Args + `": `
		}
		if word == "obj" {
			m += args + "}"
		}
	case "calls", "/calls":
		if t := f.Token; t != nil {
			m = t.Open[0]
			if word == "/calls" {
				m = t.Close[0]
			}
		}
	case "/tcall":
		if f.Token != nil {
			m = f.Token.Call.Close
		}
	case "tcall", "topen", "id":
		t := f.Token
		if t == nil {
			return "", false
		}
		k, rest, _ := strings.Cut(arg, " ")
		name, args, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(k)
		if err != nil {
			panic(fmt.Sprintf("{{%s}}: K is no number", ref))
		}
		header := t.WriteHeader(name, "", n)
		switch word {
		case "id":
			_, id, _ := t.Header(header)
			return id, true
		case "topen":
			return t.Call.Open + header + t.Sep, true
		}
		m = t.Call.Open + header + t.Sep + args + t.Call.Close
	case "section":
		if f.Invoke != nil {
			m = f.Invoke.Sections[0].Open
		}
	case "/section":
		if f.Invoke != nil {
			m = f.Invoke.Sections[0].Close
		}
	case "invoke":
		if f.Invoke != nil {
			m = f.Invoke.Tags.Tag(arg)
		}
	case "/invoke":
		if f.Invoke != nil {
			m = f.Invoke.Tags.InvokeEnd
		}
	case "param":
		switch {
		case f.Invoke != nil && f.Invoke.Tags.Param != "":
			m = f.Invoke.Tags.Param + ` name="` + arg + `">`
		case f.Param.Open != "":
			m = f.Param.Open + arg + f.Param.KeyClose + f.Param.ValueOpen
		}
	case "/param":
		m = f.Param.Close
		if f.Invoke != nil {
			m = f.Invoke.Tags.ParamEnd
		}
	default:
		panic(fmt.Sprintf("a family case names {{%s}}, which is no marker", ref))
	}
	return m, m != ""
}
