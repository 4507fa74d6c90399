package toolparse_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeProgram builds and runs the README's "use it from Go" program in
// a module of its own that requires this one (through a replace directive),
// as a user's module would, and checks it prints what the README says.
func TestReadmeProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	text := readme(t)
	m := regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README has no ```go block holding a whole program (package main)")
	}
	want := regexp.MustCompile("It prints `([^`]*)`").FindStringSubmatch(text)
	if want == nil {
		t.Fatal("README does not say what its program prints (\"It prints `…`\")")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module readmecheck\n\ngo 1.25\n\nrequire github.com/toolparse/toolparse v0.0.0\n\nreplace github.com/toolparse/toolparse => " + root + "\n"
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": []byte(m[1])} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(gobin, "run", "-mod=mod", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's program does not build and run: %v\n%s\n%s", err, out, m[1])
	}
	if got := strings.TrimSpace(string(out)); got != want[1] {
		t.Errorf("the README's program prints %q, the README says %q", got, want[1])
	}
}

// TestReadmeInstall: the README says how to install the binary, both ways,
// and which Go it needs, the go line of go.mod.
func TestReadmeInstall(t *testing.T) {
	text := readme(t)
	for _, want := range []string{
		"go install ./cmd/toolparse",
		"go install github.com/toolparse/toolparse/cmd/toolparse@latest",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README lacks %q", want)
		}
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if goLine == nil {
		t.Fatal("go.mod has no go line")
	}
	if want := "Go " + string(goLine[1]) + " or later"; !strings.Contains(text, want) {
		t.Errorf("README does not say %q, the go line of go.mod", want)
	}
}

// TestReadmeLinksStayInRepo: every link in the README points inside the
// repository (a reader offline, or on a mirror, can follow all of them).
var loopback = regexp.MustCompile(`^https?://(127\.0\.0\.1|localhost)(:[0-9]+)?(/|$)`)

func TestReadmeLinksStayInRepo(t *testing.T) {
	text := readme(t)
	for _, re := range []string{`https?://[^\s)>\]]+`, `\]\(([^)]+)\)`} {
		for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(text, -1) {
			link := m[len(m)-1]
			if loopback.MatchString(link) {
				continue // an address on the reader's own machine (toolparse serve's), no link
			}
			if strings.Contains(link, "://") || strings.HasPrefix(link, "//") {
				t.Errorf("README links outside the repository: %s", link)
				continue
			}
			if re != `\]\(([^)]+)\)` || strings.HasPrefix(link, "#") {
				continue
			}
			if _, err := os.Stat(strings.SplitN(link, "#", 2)[0]); err != nil {
				t.Errorf("README links to %s, which is not in the repository", link)
			}
		}
	}
}
