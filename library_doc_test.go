package sdscgen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLibraryDoc builds the program of docs/library.md, exactly as
// printed, in a module of its own that requires this one through the
// documented require + replace lines, offline (GOPROXY=off: the module
// cache already holds every dependency); installs the command with the
// documented `go install ./cmd/sdscgen`; and checks that both print the
// same bytes for an example, and for bad input the same diagnostics and
// exit status.
func TestLibraryDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	doc, err := os.ReadFile("docs/library.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	_, after, ok := strings.Cut(text, "<!-- library-program -->\n```go\n")
	prog, _, ok2 := strings.Cut(after, "```\n")
	if !ok || !ok2 {
		t.Fatal("docs/library.md: no program after <!-- library-program -->")
	}
	if n := strings.Count(prog, "\n"); n > 30 {
		t.Errorf("the program has %d lines", n)
	}
	const req = "require github.com/sdscgen/sdscgen v0.0.0\n\nreplace github.com/sdscgen/sdscgen => ../sdscgen\n"
	if !strings.Contains(text, "```\n"+req+"```\n") {
		t.Fatalf("docs/library.md lacks the go.mod lines\n%s", req)
	}
	if !strings.Contains(text, "\ngo install ./cmd/sdscgen\n") {
		t.Fatal("docs/library.md lacks go install ./cmd/sdscgen")
	}
	repo, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	mod := filepath.Join(tmp, "bircompile")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	// The documented lines, with the clone's path for ../sdscgen.
	gomod := "module example.com/bircompile\n\ngo 1.26\n\n" + strings.Replace(req, "../sdscgen", repo, 1)
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": []byte(prog)} {
		if err := os.WriteFile(filepath.Join(mod, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOBIN="+tmp)
	goCmd := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if dir == repo {
			// The clone's own go.mod and go.sum are complete: never
			// let the install touch them.
			cmd.Env = append(cmd.Env, "GOFLAGS=-mod=readonly")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
	}
	goCmd(mod, "build", "-o", filepath.Join(tmp, "bircompile.bin"), ".")
	goCmd(repo, "install", "./cmd/sdscgen")

	bad := filepath.Join(tmp, "bad.bir")
	os.WriteFile(bad, []byte("graph g {\n  op a reads nope\n  op b writes gone\n}\n"), 0o644)
	for _, in := range []string{"examples/decoder_block.bir", "golden/testdata/spec_example/input.bir", bad} {
		run := func(bin string) (string, string, int) {
			cmd := exec.Command(bin, in)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			cmd.Run()
			return out.String(), errb.String(), cmd.ProcessState.ExitCode()
		}
		lo, le, lc := run(filepath.Join(tmp, "bircompile.bin"))
		co, ce, cc := run(filepath.Join(tmp, "sdscgen"))
		if lo != co || le != ce || lc != cc {
			t.Errorf("%s: the program and the command differ: exit %d vs %d\nstderr %q vs %q\nstdout equal: %v", in, lc, cc, le, ce, lo == co)
		}
		if in != bad && (lc != 0 || !strings.Contains(lo, "module {\n") || !strings.Contains(lo, "func.func @sdsc_bundle")) {
			t.Errorf("%s: exit %d, %q", in, lc, le)
		}
		if in == bad && (lc != 1 || !strings.HasPrefix(le, bad+":2:") || strings.Count(le, "\n") != 2) {
			t.Errorf("bad input: exit %d, %q", lc, le)
		}
	}
}
