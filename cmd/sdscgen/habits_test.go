package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
)

// Issue 13 item 7: the command line keeps Go's habits.

// TestHelpOnStdout: --help, -h, -help and `sdscgen help` print the whole
// usage on standard output and exit 0; `help CMD` is `CMD --help`.
func TestHelpOnStdout(t *testing.T) {
	_, want, _ := runCLI(t, "", "--help")
	if !strings.HasPrefix(want, mainShort) || !strings.Contains(want, "\nFlags:\n  --allocator NAME\n") {
		t.Fatalf("--help:\n%s", want)
	}
	for _, args := range [][]string{{"-h"}, {"-help"}, {"help"}, {"--budget", "1", "--help"}} {
		code, out, errs := runCLI(t, "", args...)
		if code != exitOK || errs != "" || out != want {
			t.Errorf("%q: exit %d, stderr %q, stdout differs from --help: %v", args, code, errs, out != want)
		}
	}
	for _, sub := range []string{"pack", "synth", "explain"} {
		code, out, errs := runCLI(t, "", sub, "--help")
		if code != exitOK || errs != "" || !strings.HasPrefix(out, "usage: sdscgen "+sub+" ") || !strings.Contains(out, "\nFlags:\n") {
			t.Errorf("%s --help: exit %d, stderr %q, stdout %q", sub, code, errs, out)
		}
		code, hout, _ := runCLI(t, "", "help", sub)
		if code != exitOK || hout != out {
			t.Errorf("help %s: exit %d, differs from %s --help", sub, code, sub)
		}
	}
	if code, out, errs := runCLI(t, "", "help", "nosuch"); code != exitUsage || out != "" || !strings.Contains(errs, `unknown command "nosuch"`) {
		t.Errorf("help nosuch: exit %d, %q %q", code, out, errs)
	}
}

// TestHelpFollowsAllocatorTable: --help lists the allocators in
// alloc.Table()'s order, each with its description.
func TestHelpFollowsAllocatorTable(t *testing.T) {
	_, out, _ := runCLI(t, "", "help")
	at := -1
	for _, a := range alloc.Table() {
		i := strings.Index(out, "\n  "+a.Name+" ")
		if i <= at || !strings.Contains(out[i:], a.Doc) {
			t.Errorf("%s: at %d (previous %d)", a.Name, i, at)
		}
		at = i
	}
	if !strings.Contains(out, "pool allocator NAME: "+strings.Join(alloc.Names(), ", ")) {
		t.Error("--allocator's flag text does not list the table")
	}
}

// TestCompareFollowsTable: the plan's "compare" lists every allocator in
// table order.
func TestCompareFollowsTable(t *testing.T) {
	code, out, errs := runCLI(t, small, "--compare", "--plan", "-", "-")
	var parts []string
	for _, n := range alloc.Names() {
		parts = append(parts, `"`+n+`": 256`) // t alone: every allocator needs its 256 bytes
	}
	if want := `"compare": {` + strings.Join(parts, ", ") + `}`; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d %s: want %s in\n%s", code, errs, want, out)
	}
}

// TestTypoFlag: a misspelt flag is one error line with the closest flag,
// then the short usage, once; exit 2, nothing on standard output.
func TestTypoFlag(t *testing.T) {
	code, out, errs := runCLI(t, small, "--stat", "-")
	want := "sdscgen: unknown flag --stat (did you mean --stats?)\n" + mainShort + "Run 'sdscgen -h' for details.\n"
	if code != exitUsage || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errs, want)
	}
	// Far from every flag: no suggestion.
	if _, _, errs := runCLI(t, small, "--zzzzzz", "-"); !strings.HasPrefix(errs, "sdscgen: unknown flag --zzzzzz\nusage:") {
		t.Errorf("--zzzzzz: %q", errs)
	}
	// Subcommands too, with their own usage.
	code, _, errs = runCLI(t, small, "explain", "--budgte", "1", "-", "t")
	if code != exitUsage || errs != "sdscgen explain: unknown flag --budgte (did you mean --budget?)\n"+explainShort+"Run 'sdscgen explain -h' for details.\n" {
		t.Errorf("explain --budgte: exit %d, %q", code, errs)
	}
	// A look-alike letter (Cyrillic ie, U+0435, for e) is folded and
	// named.
	code, _, errs = runCLI(t, small, "--budg\u0435t", "1", "-")
	if want := "sdscgen: unknown flag --budg\u0435t (did you mean --budget? \"\u0435\" is U+0435, a non-ASCII look-alike of \"e\")\n"; code != exitUsage || !strings.HasPrefix(errs, want) {
		t.Errorf("--budg\u0435t: exit %d, %q, want prefix %q", code, errs, want)
	}
	if code, _, errs := runPackCLI(t, trapCSV, "--capacty", "5", "-"); code != exitUsage || !strings.HasPrefix(errs, "sdscgen pack: unknown flag --capacty (did you mean --capacity?)\n") {
		t.Errorf("pack --capacty: exit %d, %q", code, errs)
	}
	// A missing file is the short usage too, once.
	code, _, errs = runCLI(t, "")
	if code != exitUsage || strings.Count(errs, "usage: sdscgen [flags]") != 1 || strings.Contains(errs, "-allocator") {
		t.Errorf("no file: exit %d, %q", code, errs)
	}
}

// TestExplainFlagsAnywhere: explain takes its flags before, between or
// after FILE and NAME, as the main command does.
func TestExplainFlagsAnywhere(t *testing.T) {
	// 128 bytes of budget cannot hold t's 256: over-budget.
	_, want, _ := runCLI(t, small, "--explain", "t", "--budget", "128", "-")
	if !strings.Contains(want, "decision: not pooled [over-budget]") {
		t.Fatalf("--explain t --budget 128:\n%s", want)
	}
	for _, args := range [][]string{
		{"explain", "-", "t", "--budget", "128"},
		{"explain", "--budget", "128", "-", "t"},
		{"explain", "-", "--budget=128", "t"},
		{"explain", "--budget", "128", "--", "-", "t"},
	} {
		code, out, errs := runCLI(t, small, args...)
		if code != exitOK || out != want {
			t.Errorf("%q: exit %d, %s\n%s", args, code, errs, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "-"}, "sdscgen explain: want FILE.bir NAME, got 1 arguments\n" + explainShort},
		{[]string{"explain", "-", "t", "u"}, "sdscgen explain: want FILE.bir NAME, got 3 arguments\n"},
		{[]string{"explain", "-", "t", "--budget"}, "sdscgen explain: flag needs an argument: --budget\n"},
		{[]string{"explain", "-o", "d", "-", "t"}, "sdscgen: -o does not apply to explain: it prints on standard output and writes no files\n"},
	} {
		code, out, errs := runCLI(t, small, c.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
}

// TestStatsWithDumpAfter: --stats (and --remarks) report on the plan:
// honoured with --dump-after=plan, an error with --dump-after=check
// (which stops before planning), never dropped silently.
func TestStatsWithDumpAfter(t *testing.T) {
	code, out, errs := runCLI(t, small, "--stats", "--dump-after=plan", "-")
	if code != 0 || !strings.HasPrefix(out, "plan g ") || !strings.Contains(errs, "total") {
		t.Errorf("plan: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	for _, args := range [][]string{{"--stats", "--dump-after=check", "-"}, {"--remarks=all", "--dump-after", "check", "-"}} {
		code, out, errs := runCLI(t, small, args...)
		if code != exitUsage || out != "" || errs != "sdscgen: --stats and --remarks report on the plan: combine them with --dump-after=plan, not check\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

// TestVersionText: the build's module version and VCS commit.
func TestVersionText(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/sdscgen/sdscgen", Version: "v0.0.0-20261130210000-0123456789ab"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-30T21:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	want := "sdscgen " + version + "\nmodule github.com/sdscgen/sdscgen v0.0.0-20261130210000-0123456789ab\n" +
		"commit 0123456789abcdef0123456789abcdef01234567 (2026-11-30T21:00:00Z) with uncommitted changes\nbuilt with go1.26.8\n"
	if got := versionText(bi, true); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	bi.Settings = nil
	if got := versionText(bi, true); !strings.Contains(got, "\ncommit unknown (built without VCS information)\n") {
		t.Errorf("no VCS: %s", got)
	}
	if got := versionText(nil, false); got != "sdscgen "+version+"\nno build information\n" {
		t.Errorf("no build info: %q", got)
	}
	_, v1, _ := runCLI(t, "", "--version")
	code, v2, _ := runCLI(t, "", "version")
	if code != 0 || v1 != v2 {
		t.Errorf("version: exit %d, %q vs --version %q", code, v2, v1)
	}
}

// TestVersionBinary: a binary built from this checkout names its commit.
func TestVersionBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !fi.IsDir() {
		// The go command stamps VCS information only where .git is a
		// folder: not in a `git worktree` checkout.
		t.Skip("a git worktree: go build records no commit here")
	}
	bin := filepath.Join(t.TempDir(), "sdscgen")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "\ncommit "+strings.TrimSpace(string(head))) {
		t.Errorf("--version:\n%s\nwant commit %s", out, head)
	}
}
