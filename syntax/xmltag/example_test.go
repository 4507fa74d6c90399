package xmltag_test

import (
	"fmt"

	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/xmltag"
)

func Example() {
	input := `<thinking>Both files.</thinking>
<tool:read_files>
<param:path>src/main.rs</param:path>
<param:path>Cargo.toml</param:path>
</tool:read_files>`
	for _, e := range syntax.Parse(xmltag.Syntax, []byte(input), syntax.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// {"type":"think","content":"Both files."}
	// {"type":"call","name":"read_files","args":{"path":["src/main.rs","Cargo.toml"]}}
	// {"type":"execute"}
	// {"type":"end"}
}
