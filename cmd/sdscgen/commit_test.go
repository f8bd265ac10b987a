package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/filetree"
)

// Issue 26: the outputs of a run are committed all together or not at
// all, and a failure names exactly which were written; debris of killed
// runs is cleaned, and what cannot be removed is said.

// commitFixture is an -o DIR, a --plan FILE and an --html FILE written
// by a first run (budget 100000), each in a folder of its own, and the
// arguments of a second run (budget 0, whose plan differs) writing them
// all again.
type commitFixture struct {
	out, plan, html string
	oldTree         map[string][]byte
	oldPlan         []byte
	oldHTML         []byte
	args            []string
}

func newCommitFixture(t *testing.T) *commitFixture {
	t.Helper()
	base := t.TempDir()
	input := filepath.Join(base, "in.bir")
	os.WriteFile(input, []byte(twoBundles), 0o644)
	f := &commitFixture{out: filepath.Join(base, "out")}
	for _, d := range []string{"pdir", "hdir"} {
		os.Mkdir(filepath.Join(base, d), 0o755)
	}
	f.plan, f.html = filepath.Join(base, "pdir", "p.json"), filepath.Join(base, "hdir", "v.html")
	if code, _, errs := runCLI(t, "", "--budget", "100000", "-o", f.out, "--plan", f.plan, "--html", f.html, input); code != 0 {
		t.Fatal(errs)
	}
	f.oldTree = filetree.Read(t, f.out)
	f.oldPlan, _ = os.ReadFile(f.plan)
	f.oldHTML, _ = os.ReadFile(f.html)
	f.args = []string{"--budget", "0", "-o", f.out, "--plan", f.plan, "--html", f.html, input}
	return f
}

// withHook is a process whose runs call h at the hook's points.
func withHook(h func(point, path string)) *process { return &process{hook: h} }

// leftovers lists the temporaries and backups left in dir.
func leftovers(dir string) []string {
	var left []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && (strings.Contains(d.Name(), ".tmp-") || strings.Contains(d.Name(), ".old-") || strings.Contains(d.Name(), ".sdscgen-")) {
			left = append(left, path)
		}
		return nil
	})
	return left
}

// TestCommitAllOrNone: --plan's folder removed during the commit (before
// its rename) fails the run before -o DIR or --html is replaced: every
// output is the first run's, and the message names --plan once, not a
// rename of the file onto itself ("rename p.json p.json").
func TestCommitAllOrNone(t *testing.T) {
	f := newCommitFixture(t)
	p := withHook(func(point, path string) {
		if point == "commit" && path == f.plan {
			os.RemoveAll(filepath.Dir(f.plan))
		}
	})
	code, _, errs := runCLIIn(t, p, "", f.args...)
	want := fmt.Sprintf("sdscgen: --plan %s: cannot put %s in place: no such file or directory; no output was written\n", f.plan, f.plan)
	if code != exitBadInput || errs != want {
		t.Fatalf("exit %d, stderr\n%s\nwant exit 1 and\n%s", code, errs, want)
	}
	if !sameTree(t, f.out, f.oldTree) {
		t.Errorf("-o DIR was replaced: %v", filetree.Names(filetree.Read(t, f.out)))
	}
	if b, _ := os.ReadFile(f.html); string(b) != string(f.oldHTML) {
		t.Errorf("--html was replaced")
	}
	if left := leftovers(filepath.Dir(f.out)); len(left) != 0 {
		t.Errorf("left: %v", left)
	}
}

// TestCommitRollsBack: --html's folder removed when --plan is already in
// place: --plan is put back as it was (from its backup), and nothing
// else is replaced.
func TestCommitRollsBack(t *testing.T) {
	f := newCommitFixture(t)
	p := withHook(func(point, path string) {
		if point == "commit" && path == f.html {
			if b, _ := os.ReadFile(f.plan); string(b) == string(f.oldPlan) {
				t.Errorf("--plan is not yet the new plan when --html is committed")
			}
			os.RemoveAll(filepath.Dir(f.html))
		}
	})
	code, _, errs := runCLIIn(t, p, "", f.args...)
	want := fmt.Sprintf("sdscgen: --html %s: cannot put %s in place: no such file or directory; no output was written (the outputs already in place were put back as they were)\n", f.html, f.html)
	if code != exitBadInput || errs != want {
		t.Fatalf("exit %d, stderr\n%s\nwant exit 1 and\n%s", code, errs, want)
	}
	if b, _ := os.ReadFile(f.plan); string(b) != string(f.oldPlan) {
		t.Errorf("--plan was not put back")
	}
	if !sameTree(t, f.out, f.oldTree) {
		t.Errorf("-o DIR was replaced")
	}
	if left := leftovers(filepath.Dir(f.out)); len(left) != 0 {
		t.Errorf("left: %v", left)
	}
}

// TestCommitSaysWhatWasWritten: when --plan cannot be put back either
// (its folder is gone too), the message lists what was written (--plan,
// new) and what was not (--html and -o, still old).
func TestCommitSaysWhatWasWritten(t *testing.T) {
	f := newCommitFixture(t)
	p := withHook(func(point, path string) {
		if point == "commit" && path == f.html {
			// The new p.json goes with its folder: its backup cannot
			// be renamed back.
			os.RemoveAll(filepath.Dir(f.html))
			os.RemoveAll(filepath.Dir(f.plan))
		}
	})
	code, _, errs := runCLIIn(t, p, "", f.args...)
	want := fmt.Sprintf("sdscgen: --html %s: cannot put %s in place: no such file or directory; written: --plan %s; not written: --html %s, -o %s\n", f.html, f.html, f.plan, f.html, f.out)
	if code != exitBadInput || errs != want {
		t.Fatalf("exit %d, stderr\n%s\nwant exit 1 and\n%s", code, errs, want)
	}
	if !sameTree(t, f.out, f.oldTree) {
		t.Errorf("-o DIR was replaced")
	}
}

// deadPid is the id of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	pid := cmd.Process.Pid
	if processAlive(pid) {
		t.Skipf("pid %d was reused", pid)
	}
	return pid
}

// TestDebrisCleaned: a run writing p.json removes the temporaries and
// backups of p.json left by a dead process (SIGKILLed), and keeps those
// of a live one (pid 1) and files that only look alike.
func TestDebrisCleaned(t *testing.T) {
	dir := t.TempDir()
	dead := strconv.Itoa(deadPid(t))
	gone := []string{".p.json.tmp-" + dead + "-123", ".p.json.old-" + dead + "-0"}
	kept := []string{".p.json.tmp-1-123", ".p.json.tmp-123", ".q.json.tmp-" + dead + "-1", ".p.json.tmp-x-1"}
	for _, n := range append(append([]string{}, gone...), kept...) {
		os.WriteFile(filepath.Join(dir, n), []byte("debris"), 0o644)
	}
	if code, _, errs := runCLI(t, small, "--plan", filepath.Join(dir, "p.json"), "-"); code != 0 {
		t.Fatal(errs)
	}
	for _, n := range gone {
		if _, err := os.Lstat(filepath.Join(dir, n)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s (a dead process's) was not removed", n)
		}
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
}

// TestTreeNotRemovedIsReported: an old -o tree that cannot be removed
// after the swap (root-owned, run as nobody; here removeTree fails) is
// named in a warning; the run, whose outputs are all written, exits 0.
// A later run that cannot remove it either says so again.
func TestTreeNotRemovedIsReported(t *testing.T) {
	f := newCommitFixture(t)
	p := &process{removeTree: func(path string) error {
		if strings.Contains(filepath.Base(path), ".sdscgen-") {
			return &os.PathError{Op: "unlinkat", Path: path, Err: os.ErrPermission}
		}
		return os.RemoveAll(path)
	}}
	code, _, errs := runCLIIn(t, p, "", f.args...)
	st := stages(t, f.out)
	if code != exitOK || len(st) != 1 {
		t.Fatalf("exit %d, stages %v: %s", code, st, errs)
	}
	want := fmt.Sprintf("sdscgen: warning: -o %s: the old tree could not be removed (unlinkat %s: permission denied); it is left in %s (remove it by hand)\n", f.out, st[0], st[0])
	if errs != want {
		t.Errorf("stderr\n%s\nwant\n%s", errs, want)
	}
	if !sameTree(t, st[0], f.oldTree) {
		t.Errorf("the folder left is not the old tree")
	}
	code, _, errs = runCLIIn(t, p, "", f.args...)
	if code != exitOK || !strings.Contains(errs, fmt.Sprintf("sdscgen: warning: -o %s: %s, left by an earlier run, could not be removed", f.out, st[0])) {
		t.Errorf("second run: exit %d: %s", code, errs)
	}
}

// TestSignalDuringCommit: SIGTERM once the commit has begun (the first
// output about to be renamed) waits for it: -o DIR, --plan and --html
// are all the new run's, never DIR new and --plan old, and nothing is
// left beside them. The run then exits 143, or 0 if it ended before the
// handler ran.
func TestSignalDuringCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sdscgen processes")
	}
	f := newCommitFixture(t)
	cmd := exec.Command(os.Args[0], f.args...)
	cmd.Env = append(os.Environ(), "SDSCGEN_TEST_MAIN=1", "SDSCGEN_TEST_SIGNAL_AT=commit")
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 143 && code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if left := leftovers(filepath.Dir(f.out)); len(left) != 0 {
		t.Errorf("left: %v", left)
	}
	tree := filetree.Read(t, f.out)
	plan, _ := os.ReadFile(f.plan)
	html, _ := os.ReadFile(f.html)
	// The same run, uninterrupted, writes the new outputs again.
	if code, _, errs := runCLI(t, "", f.args...); code != 0 {
		t.Fatal(errs)
	}
	if sameTree(t, f.out, f.oldTree) || !sameTree(t, f.out, tree) {
		t.Errorf("-o DIR is not the new tree")
	}
	if b, _ := os.ReadFile(f.plan); string(plan) == string(f.oldPlan) || string(b) != string(plan) {
		t.Errorf("--plan is not the new plan")
	}
	if b, _ := os.ReadFile(f.html); string(html) == string(f.oldHTML) || string(b) != string(html) {
		t.Errorf("--html is not the new page")
	}
}
