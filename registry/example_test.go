package registry_test

import (
	"fmt"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
)

func Example() {
	s, err := registry.Lookup("cogency") // an alias of xmljson
	if err != nil {
		panic(err)
	}
	for _, e := range syntax.Parse(s, []byte(`<execute>[{"name": "ls"}]</execute>`), syntax.Options{}) {
		fmt.Println(e)
	}
	_, err = registry.Lookup("yaml")
	fmt.Println(err != nil)
	// Output:
	// {"type":"call","name":"ls","args":{}}
	// {"type":"execute"}
	// {"type":"end"}
	// true
}
