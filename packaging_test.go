package toolparse_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolparse/toolparse/registry"
)

// TestLicense: the module ships the Apache License 2.0, whole, under the
// project's copyright line (pkg.go.dev shows no docs for a module without a
// license it recognises).
func TestLicense(t *testing.T) {
	b, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{
		"Apache License\n                           Version 2.0, January 2004",
		"TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
		"9. Accepting Warranty or Additional Liability.",
		"END OF TERMS AND CONDITIONS",
		"Copyright 2026 The toolparse Authors",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
}

// TestCIChecksTidinessAndMinimumGo: .ci/run checks go.mod is tidy and runs the
// tests on the Go release go.mod names as the minimum.
func TestCIChecksTidinessAndMinimumGo(t *testing.T) {
	b, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"go mod tidy -diff", `GOTOOLCHAIN="$mintoolchain" go test ./...`} {
		if !strings.Contains(string(b), want) {
			t.Errorf(".ci/run lacks %q", want)
		}
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(mod), "\ntoolchain ") {
		t.Error("go.mod names a toolchain: the go line alone says which Go is needed")
	}
}

// TestRootDocListsEverySyntax: the root package's doc names every built-in
// syntax's package, so that it stays in step with registry.Builtin().
func TestRootDocListsEverySyntax(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range registry.Builtin() {
		if !strings.Contains(string(doc), "syntax/"+s.Name) {
			t.Errorf("doc.go does not name syntax/%s", s.Name)
		}
	}
}

// TestPublicDocsStandAlone: the documentation of the public packages
// points at nothing outside the repository (the shared design notes) and
// names no internal package, which a user cannot import.
func TestPublicDocsStandAlone(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(path, "internal") || d.Name() == "testdata" || path == "sdktest" || path == "bench") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			c := strings.Index(line, "//")
			if c < 0 {
				continue
			}
			comment := line[c:]
			for _, bad := range []string{"MODEL-FORMATS", "../shared", "SPEC §", "internal/"} {
				if strings.Contains(comment, bad) {
					t.Errorf("%s:%d: a comment names %q: %s", path, i+1, bad, strings.TrimSpace(comment))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOnePackageComment: each package has one package comment, so that go
// doc prints one.
func TestOnePackageComment(t *testing.T) {
	comments := map[string][]string{}
	filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		src, err := os.ReadFile(path)
		if err == nil && (strings.HasPrefix(string(src), "// Package ") || strings.Contains(string(src), "\n// Package ")) {
			comments[filepath.Dir(path)] = append(comments[filepath.Dir(path)], path)
		}
		return err
	})
	for dir, files := range comments {
		if len(files) > 1 {
			t.Errorf("%s: package comments in %v", dir, files)
		}
	}
}
