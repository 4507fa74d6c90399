package minimaxm3

import (
	"bytes"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// writeInvoke writes one call as the template does: each parameter a tag
// of its own name, an object's members as tags inside it, an array's
// elements as <item> tags. What it cannot carry: values that are not
// strings (written as their text: a tool schema types them back), nulls
// (left out, as the template does), empty objects and arrays, keys that are
// no tag name, values holding ns.
func writeInvoke(c syntax.Event, _ int) ([]byte, string) {
	var b bytes.Buffer
	if c.Name == "" || strings.ContainsAny(c.Name, `"'<>`) || strings.Contains(c.Name, ns) {
		return nil, "a name the invoke tag cannot hold"
	}
	b.WriteString(invokeTag + ` name="` + c.Name + `">`)
	lossy := ""
	var write func(v []byte)
	write = func(v []byte) {
		switch jsonscan.Kind(v) {
		case '"':
			s, _ := jsonscan.Unquote(v)
			if strings.Contains(s, ns) {
				lossy = "a value holding " + ns
			}
			b.WriteString(s)
		case '{':
			n := 0
			jsonscan.Members(v, func(k string, e []byte) bool {
				n++
				if !isKey(k) {
					lossy = "a key that is no tag name"
				}
				if jsonscan.Kind(e) == 'n' {
					lossy = "a null (left out, as the template does)"
					return true
				}
				b.WriteString(ns + "<" + k + ">")
				write(e)
				b.WriteString(ns + "</" + k + ">")
				return true
			})
			if n == 0 {
				lossy = "an empty object, which reads back as an empty string"
			}
		case '[':
			n := 0
			jsonscan.Elements(v, func(e []byte, _ int) bool {
				n++
				b.WriteString(ns + "<" + itemTag + ">")
				write(e)
				b.WriteString(ns + "</" + itemTag + ">")
				return true
			})
			if n == 0 {
				lossy = "an empty array, which reads back as an empty string"
			}
		default:
			b.Write(v)
			lossy = "values that are not strings, written as their text (a tool schema types them back)"
		}
	}
	if len(c.ArgsJSON()) > 2 {
		write(c.ArgsJSON())
	}
	b.WriteString(invokeEnd + "\n")
	return b.Bytes(), lossy
}

// isKey reports whether k can be a tag's name.
func isKey(k string) bool {
	return k != "" && !strings.ContainsAny(k, "<>/ \t\r\n")
}
