package caret

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/wire"
)

// newRenderer returns a renderer that writes events in the caret form: text
// as plain lines and each call as a ^^^NAME block. Parameters are written in
// their order: a one-line value as "key: value", an array as "key:" with
// "- item" lines, any other string as a "key: |" block scalar; a multi-line
// "content" that comes last becomes the raw body after "---". Each block is
// parsed back before it is written, to make sure it gives exactly its call.
//
// An empty array, which the draft form cannot write, is written in the
// shipped dialect's form ("key: [" then "]").
//
// Caret cannot carry: thoughts, results (it has no form for them), an execute
// with no call, or a batch of several calls — each call is written as a block
// of its own, which the parser accepts only with Options.MultipleBlocks
// (given to newRenderer, the limit is not reported).
// Values that are not strings are written as their JSON text (a tool schema
// converts them back).
func newRenderer(w io.Writer, opts syntax.Options) syntax.Renderer {
	return wire.New("caret", &units{w: bufio.NewWriter(w), multiple: opts.MultipleBlocks})
}

type units struct {
	w        *bufio.Writer
	multiple bool // the reader allows several blocks per message
	blocks   int
	inBatch  int // calls since the last execute
}

var fenceLine = regexp.MustCompile(`(?m)^\^\^\^[A-Za-z0-9_]+[ \t\r]*$`)

func (u *units) Text(t syntax.Type, s string) error {
	if t == syntax.Think {
		return wire.CannotCarry("caret", "thoughts (caret has no form for them); not written")
	}
	// Text is trimmed when read, so a first line that looks like a fence can
	// be written after a space; a later one cannot be carried.
	first, rest, _ := strings.Cut(s, "\n")
	if fenceLine.MatchString(rest) {
		return wire.CannotCarry("caret", "text holding a line that is a fence; not written")
	}
	lead := ""
	if fenceLine.MatchString(first) {
		lead = " "
	}
	u.w.WriteString(lead + s + "\n")
	if u.inBatch > 0 {
		return wire.CannotCarry("caret", "text between a call and its execute: written after the call's block, which is executed at its closing fence")
	}
	return nil
}

func (u *units) Calls(calls []syntax.Event) error {
	var errs []error
	for _, c := range calls {
		u.blocks++
		u.inBatch++
		b, err := renderBlock(c)
		if err != nil {
			errs = append(errs, err)
		}
		u.w.Write(b)
	}
	if u.blocks > 1 && !u.multiple {
		errs = append(errs, wire.CannotCarry("caret", "more than one tool block in a message: the parser needs the multiple-blocks option"))
	}
	return joinErrs(errs)
}

func (u *units) Execute() error {
	if u.inBatch == 0 {
		return wire.CannotCarry("caret", "an execute with no call: each block is its own batch")
	}
	u.inBatch = 0
	return nil
}

func (u *units) Results(rs []syntax.Event) error {
	return wire.CannotCarry("caret", "%d result(s): caret has no form for results; not written", len(rs))
}

func (u *units) Flush() error { return u.w.Flush() }

func (u *units) End() error {
	if u.inBatch > 0 {
		u.w.Flush()
		return wire.CannotCarry("caret", "calls with no execute: a caret block is always executed")
	}
	return u.w.Flush()
}

func joinErrs(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}

type param struct {
	key   string
	str   string
	list  []string
	isArr bool
}

// renderBlock writes one call as a block, checked by parsing it back.
func renderBlock(c syntax.Event) ([]byte, error) {
	var ps []param
	lossy := false
	jsonscan.Members(c.Args, func(k string, v []byte) bool {
		p := param{key: k}
		switch jsonscan.Kind(v) {
		case '"':
			p.str, _ = jsonscan.Unquote(v)
		case '[':
			p.isArr = true
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				s, ok := jsonscan.Unquote(e)
				if !ok {
					s, lossy = string(e), true
				}
				p.list = append(p.list, s)
				return true
			})
		default:
			p.str, lossy = string(v), true
		}
		ps = append(ps, p)
		return true
	})
	for _, rawBody := range []bool{true, false} {
		b := blockText(c.Name, ps, rawBody)
		if sameCall(b, c) || lossy {
			if lossy {
				return b, wire.CannotCarry("caret", "call %s: values that are not strings, written as their JSON text", c.Name)
			}
			return b, nil
		}
	}
	return blockText(c.Name, ps, false), wire.CannotCarry("caret", "call %s: its arguments do not survive the caret form", c.Name)
}

func blockText(name string, ps []param, rawBody bool) []byte {
	var b bytes.Buffer
	b.WriteString("^^^" + name + "\n")
	body := -1
	if n := len(ps); rawBody && n > 0 && ps[n-1].key == "content" && !ps[n-1].isArr && strings.Contains(ps[n-1].str, "\n") {
		body = n - 1
	}
	for i, p := range ps {
		if i == body {
			continue
		}
		switch {
		case p.isArr && len(p.list) == 0:
			// The draft form has no empty array; the shipped dialect's does.
			b.WriteString(p.key + ": [\n]\n")
		case p.isArr:
			b.WriteString(p.key + ":\n")
			for _, it := range p.list {
				if it == "" {
					b.WriteString("  -\n")
				} else {
					b.WriteString("  - " + it + "\n")
				}
			}
		case plain(p.str):
			if p.str == "" {
				b.WriteString(p.key + ":\n")
			} else {
				b.WriteString(p.key + ": " + p.str + "\n")
			}
		default:
			b.WriteString(p.key + ": " + blockScalarHeader(p.str) + "\n")
			lines := strings.Split(strings.TrimSuffix(p.str, "\n"), "\n")
			if strings.HasSuffix(p.str, "\n\n") {
				lines = strings.Split(p.str[:len(p.str)-1], "\n")
			}
			for _, l := range lines {
				if l == "" {
					b.WriteString("\n")
				} else {
					b.WriteString("  " + l + "\n")
				}
			}
		}
	}
	if body >= 0 {
		b.WriteString("---\n" + ps[body].str + "\n")
	}
	b.WriteString("^^^\n")
	return b.Bytes()
}

// plain reports whether s can be written as "key: s" and read back as is.
func plain(s string) bool {
	return !strings.ContainsAny(s, "\n\r") && strings.TrimSpace(s) == s && !blockHeader.MatchString(s) &&
		s != "[" // "key: [" opens an array in the shipped dialect
}

// blockScalarHeader chooses the literal block scalar's header for s:
// chomping to keep its final newlines, and an indentation indicator when its
// first line starts with a space.
func blockScalarHeader(s string) string {
	h := "|"
	if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\n") {
		h += "2"
	}
	switch {
	case !strings.HasSuffix(s, "\n"):
		h += "-"
	case strings.HasSuffix(s, "\n\n"):
		h += "+"
	}
	return h
}

// sameCall parses block and reports whether it gives c's call: its name
// and the same JSON values (no Args reads back as {}).
func sameCall(block []byte, c syntax.Event) bool {
	var got []syntax.Event
	p := newParser(func(e syntax.Event) { got = append(got, e) }, syntax.Options{MultipleBlocks: true})
	p.Write(block)
	p.Close()
	return len(got) == 3 && got[0].Type == syntax.Call && got[0].Name == c.Name && jsonscan.Equal(got[0].Args, c.ArgsJSON())
}
