//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestEachFileClosedBeforeTheNext: more FILEs than the process may hold open
// at once are all read, since each is closed before the next is opened.
func TestEachFileClosedBeforeTheNext(t *testing.T) {
	dir := t.TempDir()
	const n = 200
	var files []string
	for i := range n {
		f := filepath.Join(dir, fmt.Sprintf("f%03d.txt", i))
		os.WriteFile(f, []byte("hi"), 0o644)
		files = append(files, f)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Skip(err)
	}
	low := old
	low.Cur = 64 // fewer than the FILEs, more than the test binary holds open
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	code, out, errs := runCLI(t, "", files...)
	if code != 0 || strings.Count(out, `{"type":"end","file":`) != n {
		t.Errorf("%d FILEs under a limit of %d open files: exit %d, %d ends, stderr %.200q", n, low.Cur, code, strings.Count(out, `"type":"end"`), errs)
	}
}
