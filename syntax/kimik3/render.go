package kimik3

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/toolparse/toolparse/internal/jsonscan"
	"github.com/toolparse/toolparse/syntax"
)

// writeInvoke writes call c, the channel's k-th (from 0), as the template
// does: its tool and index (from 1) in the call tag, each argument a tag
// typed as the template types it (a string as written, anything else as
// its JSON text). What it cannot carry: a value holding an argument's
// closer. Attribute values are escaped as the template escapes them (&
// and " only), so that a name holding a marker is written as it is and
// reported by the renderer's read-back.
func writeInvoke(c syntax.Event, k int) ([]byte, string) {
	var b bytes.Buffer
	b.WriteString(callTag + ` tool="` + escape(c.Name) + `" index="` + strconv.Itoa(k+1) + `"` + sep)
	lossy := ""
	jsonscan.Members(c.ArgsJSON(), func(key string, v []byte) bool {
		typ, text := "string", string(v)
		switch jsonscan.Kind(v) {
		case '"':
			text, _ = jsonscan.Unquote(v)
		case '{':
			typ = "object"
		case '[':
			typ = "array"
		case 't', 'f':
			typ = "boolean"
		case 'n':
			typ = "null"
		default:
			typ = "number"
		}
		if strings.Contains(text, argEnd) {
			lossy = "a value holding " + argEnd
		}
		b.WriteString(argTag + ` key="` + escape(key) + `" type="` + typ + `"` + sep + text + argEnd)
		return true
	})
	b.WriteString(callEnd)
	return b.Bytes(), lossy
}

// escape escapes an attribute value as the template does.
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "&", "&amp;"), `"`, "&quot;")
}
