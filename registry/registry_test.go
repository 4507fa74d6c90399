package registry_test

import (
	"strings"
	"testing"

	"github.com/toolparse/toolparse/registry"
	"github.com/toolparse/toolparse/syntax"
	"github.com/toolparse/toolparse/syntax/xmljson"
)

func TestLookupNamesAndAliases(t *testing.T) {
	for _, name := range []string{"xmljson", "XMLJSON", "xml", "Cogency", " xml "} {
		s, err := registry.Lookup(name)
		if err != nil || s.Name != "xmljson" {
			t.Errorf("Lookup(%q) = %q, %v", name, s.Name, err)
		}
	}
}

func TestUnknownNameListsKnown(t *testing.T) {
	_, err := registry.Lookup("yaml")
	if err == nil || !strings.Contains(err.Error(), `"yaml"`) || !strings.Contains(err.Error(), "xmljson") {
		t.Fatalf("error %v does not name the input and the known syntaxes", err)
	}
}

func TestRegisterOwnSyntax(t *testing.T) {
	r, err := registry.New(xmljson.Syntax)
	if err != nil {
		t.Fatal(err)
	}
	mine := syntax.Syntax{Name: "mine", Aliases: []string{"M"}, New: xmljson.Syntax.New}
	if err := r.Register(mine); err != nil {
		t.Fatal(err)
	}
	if s, err := r.Lookup("m"); err != nil || s.Name != "mine" {
		t.Fatalf("Lookup(m) = %v, %v", s.Name, err)
	}
	var names []string
	for _, s := range r.List() {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "mine,xmljson" {
		t.Errorf("List = %v, want sorted", names)
	}
	if err := r.Register(syntax.Syntax{Name: "other", Aliases: []string{"XML"}, New: xmljson.Syntax.New}); err == nil {
		t.Error("an alias clash was accepted")
	}
	if err := r.Register(syntax.Syntax{Name: "nonew"}); err == nil {
		t.Error("a syntax without constructor was accepted")
	}
	if _, err := registry.Lookup("mine"); err == nil {
		t.Error("registering in New's registry changed the default one")
	}
}

func TestBuiltinNamesDistinct(t *testing.T) {
	if _, err := registry.New(registry.Builtin()...); err != nil {
		t.Fatal(err)
	}
}

func TestZeroRegistry(t *testing.T) {
	var r registry.Registry
	if _, err := r.Lookup("xmljson"); err == nil {
		t.Error("an empty registry found xmljson")
	}
	if err := r.Register(xmljson.Syntax); err != nil {
		t.Fatal(err)
	}
	if s, err := r.Lookup("xml"); err != nil || s.Name != "xmljson" {
		t.Fatalf("Lookup(xml) = %q, %v", s.Name, err)
	}
	got := syntax.Parse(r.Auto(), []byte("<think>hm</think>"), syntax.Options{})
	want := []syntax.Event{{Type: syntax.Think, Content: "hm"}, {Type: syntax.End}}
	if len(got) != 2 || got[0].Type != want[0].Type || got[0].Content != want[0].Content || got[1].Type != syntax.End {
		t.Errorf("auto over a zero registry: %v, want %v", got, want)
	}
}
