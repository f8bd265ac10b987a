package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Issue 26 item 8: the command line's messages.

// TestFlagValueBeforeFileCount: a flag value is checked before the
// count of files, so that `--remarks model.bir` (a value flag that took
// the file) names the bad value, not a missing file.
func TestFlagValueBeforeFileCount(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--remarks", "model.bir"}, `sdscgen: --remarks: unknown remark mode "model.bir" (want missed, passed or all)`},
		{[]string{"--dump-after", "model.bir"}, `sdscgen: --dump-after=model.bir: want check or plan`},
		{[]string{"--emit", "model.bir"}, `sdscgen: --emit=model.bir: want mlir or addresses`},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errs, c.want+"\n") {
			t.Errorf("%q: exit %d, stderr %q; want %q", c.args, code, errs, c.want)
		}
	}
}

// TestUnknownCommand: a misspelt command gets a did-you-mean, as a
// misspelt flag does.
func TestUnknownCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explian", "model.bir", "add"}, `sdscgen: unknown command "explian" (did you mean explain?)`},
		{[]string{"synht", "--ops", "3"}, `sdscgen: unknown command "synht" (did you mean synth?)`},
		{[]string{"pac", "x.csv"}, `sdscgen: unknown command "pac" (did you mean pack?)`},
		{[]string{"verison"}, `sdscgen: unknown command "verison" (did you mean version?)`},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errs, c.want+"\n") {
			t.Errorf("%q: exit %d, stderr %q; want %q", c.args, code, errs, c.want)
		}
	}
}

// TestAllocatorMessage: an unknown allocator lists the valid names as
// text, with a did-you-mean.
func TestAllocatorMessage(t *testing.T) {
	code, _, errs := runCLI(t, small, "--allocator=bestfit", "-")
	want := "sdscgen: --allocator bestfit: unknown allocator; want first-fit, best-fit, size-best-fit or best (did you mean best-fit?)\n"
	if code != exitUsage || errs != want {
		t.Errorf("exit %d, stderr %q; want %q", code, errs, want)
	}
	code, _, errs = runCLI(t, small, "--allocator=zzz", "-")
	if want := "sdscgen: --allocator zzz: unknown allocator; want first-fit, best-fit, size-best-fit or best\n"; code != exitUsage || errs != want {
		t.Errorf("exit %d, stderr %q; want %q", code, errs, want)
	}
}

// TestSearchTimeUnit: a duration without a unit says to write one.
func TestSearchTimeUnit(t *testing.T) {
	code, _, errs := runCLI(t, small, "--search-time", "5", "-")
	want := `sdscgen: invalid value "5" for flag --search-time: a duration needs a unit: write 5s (or ms, m, h)`
	if code != exitUsage || !strings.HasPrefix(errs, want+"\n") {
		t.Errorf("exit %d, stderr %q; want %q", code, errs, want)
	}
	code, _, errs = runCLI(t, small, "--search-time", "soon", "-")
	if code != exitUsage || !strings.HasPrefix(errs, `sdscgen: invalid value "soon" for flag --search-time: not a duration (such as 500ms, 5s or 1m)`) {
		t.Errorf("soon: exit %d, stderr %q", code, errs)
	}
}

// TestExplainWithOutputs: -o, --plan and --svg with --explain, or with
// the explain command, are refused with the same message.
func TestExplainWithOutputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct{ flag, msg string }{
		{"-o", "sdscgen: -o does not apply to explain: it prints on standard output and writes no files\n"},
		{"--plan", "sdscgen: --plan does not apply to explain: it prints on standard output and writes no files\n"},
		{"--svg", "sdscgen: --svg does not apply to explain: it prints on standard output and writes no files\n"},
	} {
		out := filepath.Join(dir, "ox")
		c1, o1, e1 := runCLI(t, small, f.flag, out, "--explain", "t", "-")
		c2, o2, e2 := runCLI(t, small, "explain", f.flag, out, "-", "t")
		if c1 != exitUsage || c2 != exitUsage || o1 != "" || o2 != "" || e1 != f.msg || e2 != f.msg {
			t.Errorf("%s: --explain: exit %d, %q; explain: exit %d, %q; want %q", f.flag, c1, e1, c2, e2, f.msg)
		}
		if _, err := os.Lstat(out); err == nil {
			t.Errorf("%s: %s was written", f.flag, out)
		}
	}
}

// TestVersionArguments: --version takes no argument; `version --json`
// prints the version's fields as JSON.
func TestVersionArguments(t *testing.T) {
	code, out, errs := runCLI(t, "", "--version", "extra")
	if code != exitUsage || out != "" || !strings.HasPrefix(errs, `sdscgen: --version takes no arguments (got "extra")`) {
		t.Errorf("--version extra: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "version", "--json")
	var v struct {
		Version, Module, ModuleVersion, Commit, Go string
	}
	if code != exitOK || json.Unmarshal([]byte(out), &v) != nil || v.Version != version || v.Module != "github.com/sdscgen/sdscgen" {
		t.Errorf("version --json: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, _, errs = runCLI(t, "", "version", "extra")
	if code != exitUsage || !strings.HasPrefix(errs, `sdscgen version: unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d, stderr %q", code, errs)
	}
}

// TestOutputDirNotCurrent: -o never names the current directory or one
// that holds it, --force or not: replacing it would delete the folder
// the user is in (and the input with it).
func TestOutputDirNotCurrent(t *testing.T) {
	base := t.TempDir()
	work := filepath.Join(base, "work")
	os.Mkdir(work, 0o755)
	input := filepath.Join(base, "m.bir")
	os.WriteFile(input, []byte(small), 0o644)
	os.WriteFile(filepath.Join(work, "keep.txt"), []byte("mine"), 0o644)
	t.Chdir(work)
	for _, dir := range []string{".", "..", work, base, "./", "../work"} {
		for _, force := range []bool{false, true} {
			args := []string{"-o", dir, input}
			if force {
				args = append([]string{"--force"}, args...)
			}
			code, _, errs := runCLI(t, "", args...)
			want := "sdscgen: -o " + dir + " is the current directory or holds it; sdscgen replaces DIR whole, so it never writes there"
			if code != exitBadInput || !strings.HasPrefix(errs, want) {
				t.Errorf("%q: exit %d, stderr %q; want %q", args, code, errs, want)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(work, "keep.txt")); err != nil || string(b) != "mine" {
		t.Fatalf("the current directory was replaced: %v", err)
	}
	// A folder inside it is fine.
	if code, _, errs := runCLI(t, "", "-o", "out", input); code != exitOK {
		t.Errorf("-o out: exit %d, %s", code, errs)
	}
}

// TestErrorLimit: --error-limit N prints the first N diagnostics and one
// line counting the rest (default 20); 0 prints them all; a negative
// limit is a usage error.
func TestErrorLimit(t *testing.T) {
	// 25 undeclared buffers, one per op, on lines 2 to 26.
	var b strings.Builder
	b.WriteString("graph g {\n")
	for i := range 25 {
		b.WriteString("  op o" + strconv.Itoa(i) + " reads u" + strconv.Itoa(i) + "\n")
	}
	b.WriteString("}\n")
	src := b.String()
	diag := func(i int) string {
		// "  op oI reads uI": uI starts after "  op " (5 bytes), oI
		// (1+len(I)) and " reads " (7), at column 14+len(I).
		n := strconv.Itoa(i)
		return "<stdin>:" + strconv.Itoa(i+2) + ":" + strconv.Itoa(14+len(n)) + ": error: undeclared buffer \"u" + n + "\"\n"
	}
	for _, c := range []struct {
		args  []string
		shown int
	}{{nil, 20}, {[]string{"--error-limit", "3"}, 3}, {[]string{"--error-limit=0"}, 25}, {[]string{"--error-limit", "25"}, 25}, {[]string{"--error-limit", "24"}, 24}} {
		var want strings.Builder
		for i := range c.shown {
			want.WriteString(diag(i))
		}
		if c.shown < 25 {
			want.WriteString("<stdin>: too many errors (" + strconv.Itoa(c.shown) + " shown, " + strconv.Itoa(25-c.shown) + " more not shown)\n")
		}
		code, out, errs := runCLI(t, src, append(c.args, "-")...)
		if code != exitBadInput || out != "" || errs != want.String() {
			t.Errorf("%q: exit %d, stdout %q, stderr\n%s\nwant\n%s", c.args, code, out, errs, want.String())
		}
	}
	code, _, errs := runCLI(t, src, "--error-limit", "-1", "-")
	if want := "sdscgen: --error-limit -1: want 0 (no limit) or more\n"; code != exitUsage || errs != want {
		t.Errorf("-1: exit %d, stderr %q; want %q", code, errs, want)
	}
}
