// Package docs holds no code: its test runs every command that README.md
// and the pages of this folder show, and requires the output the page
// shows, so the documentation cannot drift from the tool.
//
// A fenced block whose first line starts with "$ " is a terminal session.
// Each "$ " line is one command, run by bash in a fresh scratch folder that
// links every top-level entry of the repository (so the pages' relative
// paths work and commands write their own files beside them), with the
// freshly built sdscgen first on PATH, then sdsc-opt and the LLVM 16 tools
// ("go run ./cmd/sdscgen" means that binary). The lines after it, up to the
// next "$ " line, are what the command prints on stdout and stderr
// together. In expected output a line "..." stands for any number of
// lines, and a last line "[exit N]" says the command exits with status N
// (0 otherwise). A block preceded by the line "<!-- not run: REASON -->" is
// shown but not run; REASON must say where the command is exercised
// instead.
//
// The sessions are turned into testscript scripts (the way the Go command
// tests its own command line) so a failure prints the script, the command
// and the whole output.
package docs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// session is one fenced block of commands.
type session struct {
	file string
	line int
	cmds []command
}

type command struct {
	line   int
	text   string
	expect []string // expected output lines; "..." matches any lines
	exit   int
}

var exitLine = regexp.MustCompile(`^\[exit (\d+)\]$`)

// sessions extracts the terminal sessions of one Markdown file.
func sessions(t *testing.T, file string) []session {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []session
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		start := i
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
			j++
		}
		body := lines[i+1 : j]
		i = j
		if len(body) == 0 || !strings.HasPrefix(body[0], "$ ") {
			continue
		}
		if start > 0 && strings.HasPrefix(lines[start-1], "<!-- not run:") {
			if strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(lines[start-1], "<!-- not run:"), "-->")) == "" {
				t.Errorf("%s:%d: a block that is not run must say why", file, start)
			}
			continue
		}
		s := session{file: file, line: start + 1}
		for k, l := range body {
			if strings.HasPrefix(l, "$ ") {
				s.cmds = append(s.cmds, command{line: start + 2 + k, text: strings.TrimPrefix(l, "$ ")})
				continue
			}
			c := &s.cmds[len(s.cmds)-1]
			if m := exitLine.FindStringSubmatch(l); m != nil && k == len(body)-1 {
				fmt.Sscan(m[1], &c.exit)
				continue
			}
			c.expect = append(c.expect, l)
		}
		out = append(out, s)
	}
	return out
}

// script renders a session as a testscript file. Each command runs under
// bash with pipefail; a nonzero status is printed as a last "[exit N]"
// line, so the expected output states it exactly.
func script(s session) string {
	var b strings.Builder
	for i, c := range s.cmds {
		cmd := strings.ReplaceAll(c.text, "go run ./cmd/sdscgen", "sdscgen")
		fmt.Fprintf(&b, "# %s:%d\n", filepath.Base(s.file), c.line)
		fmt.Fprintf(&b, "exec bash -o pipefail -c %s\n", quote("{ "+cmd+"; } 2>&1; s=$?; if [ $s -ne 0 ]; then echo \"[exit $s]\"; fi"))
		fmt.Fprintf(&b, "doc stdout expect%d\n", i)
	}
	for i, c := range s.cmds {
		fmt.Fprintf(&b, "-- expect%d --\n", i)
		for _, l := range c.expect {
			b.WriteString(l + "\n")
		}
		if c.exit != 0 {
			fmt.Fprintf(&b, "[exit %d]\n", c.exit)
		}
	}
	return b.String()
}

// match reports whether got (lines) is what the expected lines show, "..."
// standing for any run of lines.
func match(got, expect []string) bool {
	if len(expect) == 0 {
		return len(got) == 0
	}
	if expect[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if match(got[k:], expect[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == expect[0] && match(got[1:], expect[1:])
}

// status is the "[exit N]" last line of an output, or "".
func status(lines []string) string {
	if n := len(lines); n > 0 && exitLine.MatchString(lines[n-1]) {
		return lines[n-1]
	}
	return ""
}

// docCmd is the script command "doc FILE EXPECT": FILE's lines must match
// EXPECT's as match says.
func docCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: doc FILE EXPECT")
	}
	lines := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	}
	got, want := lines(ts.ReadFile(args[0])), lines(ts.ReadFile(args[1]))
	// The status line is never swallowed by a "...": it must be shown.
	if status(got) != status(want) || !match(got, want) {
		ts.Fatalf("the output is not what the documentation shows:\n--- documented\n%s\n--- got\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// quote makes a testscript argument: single quotes, doubled inside.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func TestDocs(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "sdscgen"), "./cmd/sdscgen")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building sdscgen: %v\n%s", err, out)
	}
	// testscript gives a script HOME=/no-home, and with it a Go module
	// cache and build cache of its own, empty on a fresh machine: a
	// script that builds (scripts/poolsave.sh) would print "go:
	// downloading" lines that the page does not show. It gets the
	// caches of the go command that runs this test instead.
	goEnv, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	goVars := strings.Split(strings.TrimSuffix(string(goEnv), "\n"), "\n")
	if len(goVars) != 3 {
		t.Fatalf("go env printed %q, want 3 lines", goEnv)
	}
	files := []string{filepath.Join(root, "README.md")}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, pages...)

	scripts := t.TempDir()
	var all []session
	for _, f := range files {
		for _, s := range sessions(t, f) {
			all = append(all, s)
			name := fmt.Sprintf("%s_%d.txtar", strings.TrimSuffix(filepath.Base(f), ".md"), s.line)
			if err := os.WriteFile(filepath.Join(scripts, name), []byte(script(s)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(all) == 0 {
		t.Fatal("no command sessions found in README.md or docs/")
	}
	testscript.Run(t, testscript.Params{
		Dir: scripts,
		Setup: func(env *testscript.Env) error {
			// sdsc-opt (built by scripts/test.sh into dialect/build/bin)
			// and the LLVM 16 tools are on PATH for the pages that use
			// them.
			path := []string{bin, filepath.Join(root, "dialect", "build", "bin"), "/usr/lib/llvm-16/bin", os.Getenv("PATH")}
			env.Setenv("PATH", strings.Join(path, string(os.PathListSeparator)))
			for i, k := range []string{"GOPATH", "GOMODCACHE", "GOCACHE"} {
				env.Setenv(k, goVars[i])
			}
			// The scratch folder sees every top-level entry of the
			// repository through a symlink (so scripts that build
			// ./cmd/sdscgen work), and commands write their own files
			// (out/, *.bir) beside them.
			entries, err := os.ReadDir(root)
			if err != nil {
				return err
			}
			for _, e := range entries {
				if e.Name() == ".git" {
					continue
				}
				if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(env.WorkDir, e.Name())); err != nil {
					return err
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"doc": docCmd},
	})
}
