package toolparse_test

import (
	"os"
	"strings"
	"testing"
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
