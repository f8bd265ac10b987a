package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sdscgen/sdscgen/internal/filetree"
)

// Issue 10: outputs never destroy what is not sdscgen's, never leave a
// mix, and hostile input costs bounded time and memory.

// TestMain lets a test run this binary as sdscgen itself (for signals).
func TestMain(m *testing.M) {
	if os.Getenv("SDSCGEN_TEST_MAIN") == "1" {
		fileSizeLimit()
		p := mainProcess()
		if at := os.Getenv("SDSCGEN_TEST_SIGNAL_AT"); at != "" {
			p.hook = signalAt(at)
		}
		p.main()
		return
	}
	os.Exit(m.Run())
}

// twoBundles has bundles k and k2; oneBundle only k.
const twoBundles = `graph g {
  buffer x : 128
  buffer t : 256
  buffer u : 64
  buffer y : 128
  buffer z : 128
  input x
  output y, z
  fused k {
    op a reads x writes t
    op b reads t writes y
  }
  fused k2 {
    op c reads y writes u
    op d reads u writes z
  }
}
`

// mkfifo makes a FIFO and opens its read end without blocking; what a
// writer puts in it can then be read back with drain.
func mkfifo(t *testing.T, path string) fifoEnd {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// O_RDWR never blocks on a FIFO and keeps a writer's open from
	// blocking either. Raw syscalls: os.File would park reads in the
	// poller instead of returning EAGAIN.
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	return fifoEnd(fd)
}

type fifoEnd int

func (f fifoEnd) Write(p []byte) (int, error) { return syscall.Write(int(f), p) }

func drain(f fifoEnd) string {
	var out []byte
	buf := make([]byte, 1<<16)
	for {
		n, err := syscall.Read(int(f), buf)
		if n > 0 {
			out = append(out, buf[:n]...)
		}
		if err != nil || n <= 0 {
			return string(out)
		}
	}
}

func isFIFO(t *testing.T, path string) bool {
	t.Helper()
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

// TestOutputFileIntoFIFO: --plan, pack -o and synth -o write into a FIFO
// (as into /dev/null or /dev/stdout) instead of replacing it by a
// regular file.
func TestOutputFileIntoFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	r := mkfifo(t, fifo)

	code, _, errs := runCLI(t, small, "--plan", fifo, "-")
	if code != 0 {
		t.Fatalf("--plan FIFO: exit %d: %s", code, errs)
	}
	if got := drain(r); !strings.HasPrefix(got, "{\n  \"format_version\": 2,\n  \"graph\": \"g\"") {
		t.Errorf("--plan FIFO: the reader got %q", got)
	}
	if !isFIFO(t, fifo) {
		t.Fatalf("--plan replaced the FIFO")
	}

	code, _, errs = runPackCLI(t, trapCSV, "-o", fifo, "-")
	if got := drain(r); code != 0 || !strings.HasPrefix(got, "id,lower,upper,size,offset\n") {
		t.Errorf("pack -o FIFO: exit %d (%s), reader got %q", code, errs, got)
	}
	if !isFIFO(t, fifo) {
		t.Fatalf("pack -o replaced the FIFO")
	}

	var out, serr bytes.Buffer
	code = run([]string{"synth", "--ops", "4", "-o", fifo}, nil, &out, &serr)
	if got := drain(r); code != 0 || !strings.Contains(got, "graph synth {") {
		t.Errorf("synth -o FIFO: exit %d (%s), reader got %q", code, serr.String(), got)
	}
	if !isFIFO(t, fifo) {
		t.Fatalf("synth -o replaced the FIFO")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left beside the FIFO: %v", entries)
	}
}

// TestOutputFileThroughSymlink: a symlink output is kept; its target
// (existing or not) gets the content.
func TestOutputFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	os.WriteFile(target, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.json")
	os.Symlink("real.json", link)
	if code, _, errs := runCLI(t, small, "--plan", link, "-"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	data, _ := os.ReadFile(target)
	if !strings.HasPrefix(string(data), "{\n  \"format_version\": 2,\n  \"graph\"") {
		t.Errorf("target: %q", data)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want the 0600 it had", fi.Mode().Perm())
	}
	// A dangling link: its target is created.
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink("new.json", dangling)
	if code, _, errs := runCLI(t, small, "--plan", dangling, "-"); code != 0 {
		t.Fatalf("dangling: exit %d: %s", code, errs)
	}
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the dangling symlink was replaced")
	}
	if data, err := os.ReadFile(filepath.Join(dir, "new.json")); err != nil || !strings.HasPrefix(string(data), "{") {
		t.Errorf("dangling target: %v %q", err, data)
	}
}

// fileSizeLimit, in a child run as sdscgen (SDSCGEN_TEST_MAIN=1), makes
// writes to regular files fail with EFBIG past SDSCGEN_TEST_FSIZE bytes
// (RLIMIT_FSIZE, SIGXFSZ ignored): a disk-full stand-in that needs no
// special file system. It is set in the child only: the limit is the
// whole process's, and in the test process it would also stop the
// testing package's own log (testlog.txt, written when go test may cache
// the result) and any test running beside.
func fileSizeLimit() {
	n, err := strconv.ParseUint(os.Getenv("SDSCGEN_TEST_FSIZE"), 10, 64)
	if err != nil {
		return
	}
	signal.Ignore(syscall.SIGXFSZ)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		panic(err)
	}
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		panic(err)
	}
}

// TestWriteErrorNamesTheOutput: a failed write names the file asked for,
// never the temporary, and leaves no temporary behind.
func TestWriteErrorNamesTheOutput(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.json")
	cmd := exec.Command(os.Args[0], "--plan", plan, "-")
	cmd.Env = append(os.Environ(), "SDSCGEN_TEST_MAIN=1", "SDSCGEN_TEST_FSIZE=100")
	cmd.Stdin = strings.NewReader(small)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run()
	code, errs := cmd.ProcessState.ExitCode(), stderr.String()
	if code != exitBadInput || strings.Contains(errs, ".tmp-") || !strings.Contains(errs, plan+": file too large") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// fullWriter fails every write as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestDiskFullIsNotInternal: a write error on standard output is exit 1
// with a message naming it, for synth as for the others.
func TestDiskFullIsNotInternal(t *testing.T) {
	var errs bytes.Buffer
	code := run([]string{"synth", "--ops", "100"}, nil, fullWriter{}, &errs)
	if code != exitBadInput || !strings.Contains(errs.String(), "writing standard output: no space left on device") {
		t.Errorf("synth > full disk: exit %d, %q", code, errs.String())
	}
	errs.Reset()
	code = run([]string{"-"}, strings.NewReader(small), fullWriter{}, &errs)
	if code != exitBadInput || !strings.Contains(errs.String(), "no space left on device") {
		t.Errorf("sdscgen > full disk: exit %d, %q", code, errs.String())
	}
}

// stages lists the staging folders beside dir.
func stages(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".sdscgen-*"))
	return m
}

// TestOutputDirReplacedWhole: a second -o run leaves exactly its own
// tree: no stale bundle folder of the first run survives.
func TestOutputDirReplacedWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, errs := runCLI(t, twoBundles, "-o", dir, "-"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCLI(t, small, "-o", dir, "-"); code != 0 {
		t.Fatal(errs)
	}
	if got := strings.Join(filetree.Names(filetree.Read(t, dir)), " "); got != "k/bundle.mlir plan.json" {
		t.Errorf("after the second run: %s", got)
	}
	if s := stages(t, dir); len(s) != 0 {
		t.Errorf("staging folders left: %v", s)
	}
}

// TestOutputDirForeignFiles: a DIR holding anything sdscgen did not
// write is refused (nothing changes) unless --force.
func TestOutputDirForeignFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	code, _, errs := runCLI(t, small, "-o", dir, "-")
	if code != exitBadInput || !strings.Contains(errs, "notes.txt") || !strings.Contains(errs, "--force") {
		t.Errorf("foreign file: exit %d, %q", code, errs)
	}
	if got := strings.Join(filetree.Names(filetree.Read(t, dir)), " "); got != "notes.txt" {
		t.Errorf("refused run changed DIR: %s", got)
	}
	// A run's own tree with one file added is foreign too.
	os.Remove(filepath.Join(dir, "notes.txt"))
	if code, _, errs := runCLI(t, small, "-o", dir, "-"); code != 0 {
		t.Fatalf("empty DIR: exit %d %s", code, errs)
	}
	os.WriteFile(filepath.Join(dir, "k", "notes.txt"), []byte("mine"), 0o644)
	if code, _, errs := runCLI(t, small, "-o", dir, "-"); code != exitBadInput || !strings.Contains(errs, filepath.Join("k", "notes.txt")) {
		t.Errorf("foreign file in a bundle folder: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, small, "--force", "-o", dir, "-"); code != 0 {
		t.Fatalf("--force: exit %d %s", code, errs)
	}
	if got := strings.Join(filetree.Names(filetree.Read(t, dir)), " "); got != "k/bundle.mlir plan.json" {
		t.Errorf("after --force: %s", got)
	}
}

// sameTree reports whether dir holds exactly tree.
func sameTree(t *testing.T, dir string, tree map[string][]byte) bool {
	got := filetree.Read(t, dir)
	if len(got) != len(tree) {
		return false
	}
	for k, v := range tree {
		if !bytes.Equal(got[k], v) {
			return false
		}
	}
	return true
}

// TestOutputDirNeverMixed: a run that cannot move a file into place
// (here a folder where the new bundle.mlir goes, kept with --force)
// leaves DIR entirely old or entirely new.
func TestOutputDirNeverMixed(t *testing.T) {
	base := t.TempDir()
	ref := func(budget string) map[string][]byte {
		d := filepath.Join(base, "ref"+budget)
		if code, _, errs := runCLI(t, twoBundles, "--budget", budget, "-o", d, "-"); code != 0 {
			t.Fatal(errs)
		}
		return filetree.Read(t, d)
	}
	oldTree, newTree := ref("100000"), ref("0")
	dir := filepath.Join(base, "out")
	runCLI(t, twoBundles, "--budget", "100000", "-o", dir, "-")
	// Something in the way of the second bundle's module.
	os.Remove(filepath.Join(dir, "k2", "bundle.mlir"))
	os.Mkdir(filepath.Join(dir, "k2", "bundle.mlir"), 0o755)
	oldTree = filetree.Read(t, dir)
	_ = oldTree
	code, _, errs := runCLI(t, twoBundles, "--force", "--budget", "0", "-o", dir, "-")
	if !sameTree(t, dir, newTree) && !(code != 0 && sameTree(t, dir, oldTree)) {
		t.Errorf("exit %d (%s), DIR is a mix: %v", code, errs, filetree.Names(filetree.Read(t, dir)))
	}
	if s := stages(t, dir); len(s) != 0 {
		t.Errorf("staging folders left: %v", s)
	}
}

// TestOutputDirConcurrentRuns: runs writing the same DIR at once leave
// it holding exactly one of their trees.
func TestOutputDirConcurrentRuns(t *testing.T) {
	base := t.TempDir()
	budgets := []string{"0", "100", "1000", "100000"}
	var refs []map[string][]byte
	for _, b := range budgets {
		d := filepath.Join(base, "ref"+b)
		if code, _, errs := runCLI(t, twoBundles, "--budget", b, "-o", d, "-"); code != 0 {
			t.Fatal(errs)
		}
		refs = append(refs, filetree.Read(t, d))
	}
	dir := filepath.Join(base, "out")
	for round := 0; round < 10; round++ {
		var wg sync.WaitGroup
		for _, b := range budgets {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var out, errs bytes.Buffer
				run([]string{"--budget", b, "-o", dir, "-"}, strings.NewReader(twoBundles), &out, &errs)
			}()
		}
		wg.Wait()
		ok := false
		for _, r := range refs {
			ok = ok || sameTree(t, dir, r)
		}
		if !ok {
			t.Fatalf("round %d: DIR is none of the runs' trees: %v", round, filetree.Names(filetree.Read(t, dir)))
		}
		if s := stages(t, dir); len(s) != 0 {
			t.Fatalf("round %d: staging folders left: %v", round, s)
		}
	}
}

// TestOutputDirKilled: SIGTERM at any point leaves DIR old or new and no
// staging folder; after kill -9 the next run removes the staging folder
// the killed one left.
func TestOutputDirKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sdscgen processes")
	}
	base := t.TempDir()
	input := filepath.Join(base, "in.bir")
	var gen, serr bytes.Buffer
	if code := run([]string{"synth", "--ops", "20000", "--bundles", "40"}, nil, &gen, &serr); code != 0 {
		t.Fatal(serr.String())
	}
	os.WriteFile(input, gen.Bytes(), 0o644)
	sdscgen := func(args ...string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "SDSCGEN_TEST_MAIN=1")
		return cmd
	}
	ref := func(budget string) map[string][]byte {
		d := filepath.Join(base, "ref"+budget)
		if out, err := sdscgen("--budget", budget, "-o", d, input).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return filetree.Read(t, d)
	}
	oldTree, newTree := ref("1000000000"), ref("0")
	dir := filepath.Join(base, "out")
	for i, delay := range []time.Duration{0, 5, 20, 50, 100, 150, 200, 300, 400, 600} {
		os.RemoveAll(dir)
		if out, err := sdscgen("--budget", "1000000000", "-o", dir, input).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		sig := syscall.SIGTERM
		if i%3 == 2 {
			sig = syscall.SIGKILL
		}
		cmd := sdscgen("--budget", "0", "-o", dir, input)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay * time.Millisecond)
		cmd.Process.Signal(sig)
		cmd.Wait()
		if !sameTree(t, dir, oldTree) && !sameTree(t, dir, newTree) {
			t.Fatalf("%v after %v: DIR is a mix: %d files", sig, delay*time.Millisecond, len(filetree.Read(t, dir)))
		}
		if sig == syscall.SIGKILL {
			// The next run cleans up after it.
			if out, err := sdscgen("--budget", "0", "-o", dir, input).CombinedOutput(); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
		}
		if s := stages(t, dir); len(s) != 0 {
			t.Fatalf("%v after %v: staging folders left: %v", sig, delay*time.Millisecond, s)
		}
	}
}

// signalAt is the hook that sends this process SIGTERM at an exact
// point of an -o run (for TestOutputDirSignalPoints):
//
//   - "swap": the stage is complete, the swap not done;
//   - "swapped": the swap is done, the old tree not yet removed;
//   - "removing": the handler has removed part of the stage (one bundle
//     folder) when the run goes on to swap, as a handler halfway through
//     os.RemoveAll(stage) would. The handler then waits for the swap
//     (which must not happen before it has finished) before removing
//     the rest;
//   - "writing": at "swap", while a writer keeps creating folders and
//     files in the stage by its path, as the run does while it emits
//     (the handler must not give up removing the stage);
//   - "created": a file output's temporary (--plan's, --svg's) exists.
//   - "commit": the commit of every output has begun (the first file is
//     about to be renamed into place); the run goes on (commitAll holds
//     the handler off until every output is in place).
//
// SDSCGEN_TEST_SIGNAL (HUP, INT or TERM) chooses another signal.
func signalAt(at string) func(point, path string) {
	var (
		signalled bool
		stage     string
		removing  = make(chan struct{})
		swapped   = make(chan struct{})
	)
	sig := syscall.SIGTERM
	if s := os.Getenv("SDSCGEN_TEST_SIGNAL"); s != "" {
		sig = map[string]syscall.Signal{"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "TERM": syscall.SIGTERM}[s]
	}
	term := func() { syscall.Kill(os.Getpid(), sig) }
	return func(point, path string) {
		switch {
		case point == "swap" && at == "removing":
			stage = path
			term()
			// Bounded waits only keep a broken run from hanging;
			// the outcome does not depend on them.
			select {
			case <-removing:
			case <-time.After(10 * time.Second):
			}
		case point == "remove" && at == "removing" && path == stage:
			entries, _ := os.ReadDir(path)
			for _, e := range entries {
				if e.IsDir() {
					os.RemoveAll(filepath.Join(path, e.Name()))
					break
				}
			}
			close(removing)
			select {
			case <-swapped:
			case <-time.After(time.Second):
			}
		case point == "swapped" && at == "removing":
			close(swapped)
			time.Sleep(time.Minute) // the handler exits the process
		case point == "remove" && at == "writing" && strings.Contains(path, ".sdscgen-"):
			started := make(chan struct{})
			go func() {
				for i := 0; ; i++ {
					d := filepath.Join(path, fmt.Sprint("w", i))
					if os.Mkdir(d, 0o755) != nil || os.WriteFile(filepath.Join(d, "bundle.mlir"), nil, 0o644) != nil {
						return
					}
					if i == 0 {
						close(started)
					}
				}
			}()
			select {
			case <-started:
			case <-time.After(10 * time.Second):
			}
		case point == "commit" && at == "commit":
			if !signalled {
				signalled = true
				term()
				// Not needed for the outcome: it only gives the
				// handler time to wait for the commit.
				time.Sleep(100 * time.Millisecond)
			}
		case point == "swap" && at == "writing" || point == at:
			term()
			time.Sleep(time.Minute)
		}
	}
}

// TestOutputDirSignalPoints: SIGTERM at each point of the commit of an -o
// run, with DIR existing or not, leaves DIR entirely old (or absent) or
// entirely new, and no staging folder. The "removing" case is the race
// that made TestOutputDirKilled flaky: the handler removing the stage
// while the run swapped it in.
func TestOutputDirSignalPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sdscgen processes")
	}
	base := t.TempDir()
	input := filepath.Join(base, "in.bir")
	os.WriteFile(input, []byte(twoBundles), 0o644)
	ref := func(budget string) map[string][]byte {
		d := filepath.Join(base, "ref"+budget)
		if code, _, errs := runCLI(t, "", "--budget", budget, "-o", d, input); code != 0 {
			t.Fatal(errs)
		}
		return filetree.Read(t, d)
	}
	oldTree, newTree := ref("100000"), ref("0")
	for _, c := range []struct {
		at     string
		exists bool
		want   string // "old", "new" or "none"
	}{
		{"swap", true, "old"},
		{"swap", false, "none"},
		{"removing", true, "old"},
		{"removing", false, "none"},
		{"swapped", true, "new"},
		{"swapped", false, "new"},
		{"writing", true, "old"},
		{"writing", false, "none"},
	} {
		dir := filepath.Join(base, "out")
		os.RemoveAll(dir)
		if c.exists {
			if code, _, errs := runCLI(t, "", "--budget", "100000", "-o", dir, input); code != 0 {
				t.Fatal(errs)
			}
		}
		cmd := exec.Command(os.Args[0], "--budget", "0", "-o", dir, input)
		cmd.Env = append(os.Environ(), "SDSCGEN_TEST_MAIN=1", "SDSCGEN_TEST_SIGNAL_AT="+c.at)
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 128+int(syscall.SIGTERM) {
			t.Errorf("at %s (DIR exists: %v): exit %d, want %d: %s", c.at, c.exists, code, 128+int(syscall.SIGTERM), out)
		}
		var ok bool
		switch c.want {
		case "old":
			ok = sameTree(t, dir, oldTree)
		case "new":
			ok = sameTree(t, dir, newTree)
		case "none":
			_, err := os.Lstat(dir)
			ok = errors.Is(err, os.ErrNotExist)
		}
		if !ok {
			t.Errorf("at %s (DIR exists: %v): want DIR %s, got %v", c.at, c.exists, c.want, filetree.Names(filetree.Read(t, dir)))
		}
		if s := stages(t, dir); len(s) != 0 {
			t.Errorf("at %s (DIR exists: %v): staging folders left: %v", c.at, c.exists, s)
		}
	}
}

// TestOutputDirMessages: a dangling symlink, a file, a missing parent.
// Parents are created neither for -o nor for --svg.
func TestOutputDirMessages(t *testing.T) {
	base := t.TempDir()
	link := filepath.Join(base, "link")
	os.Symlink("nowhere", link)
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", link}, "-o " + link + " is a symbolic link to nowhere, which does not exist"},
		{[]string{"-o", file}, "-o " + file + " exists and is not a directory"},
		{[]string{"-o", filepath.Join(base, "a", "b")}, "directory " + filepath.Join(base, "a") + " does not exist"},
		{[]string{"--svg", filepath.Join(base, "a", "b")}, "directory " + filepath.Join(base, "a") + " does not exist"},
		{[]string{"--svg", file}, "--svg " + file + " exists and is not a directory"},
	} {
		code, out, errs := runCLI(t, small, append(c.args, "-")...)
		if code != exitBadInput || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want %q", c.args, code, len(out), errs, c.want)
		}
	}
	if entries, _ := os.ReadDir(base); len(entries) != 2 {
		t.Errorf("created: %v", entries)
	}
}

// TestNothingWrittenOnFailure: every destination is checked before the
// first byte is written.
func TestNothingWrittenOnFailure(t *testing.T) {
	planJSON := "graph g {\n  buffer x : 128\n  op plan.json reads x\n}\n"
	base := t.TempDir()
	x := filepath.Join(base, "X")
	for _, c := range []struct {
		name, src string
		args      []string
		want      string
	}{
		{"svg at the -o DIR by another name", planJSON, []string{"-o", x, "--svg", x + "/."}, `bundle "plan.json" would collide`},
		{"relative -o, absolute --svg", planJSON, []string{"-o", "X", "--svg", x}, `bundle "plan.json" would collide`},
		{"failing --plan", small, []string{"-o", x, "--svg", filepath.Join(base, "svg"), "--plan", filepath.Join(base, "no", "plan.json")}, "does not exist"},
		{"--plan inside -o", small, []string{"-o", x, "--plan", filepath.Join(x, "k", "bundle.mlir")}, "inside the -o DIR"},
		{"--svg inside -o", small, []string{"-o", x, "--svg", filepath.Join(x, "maps")}, "inside the -o DIR"},
		{"--plan is a folder", small, []string{"-o", x, "--plan", base}, "is a directory"},
	} {
		cmd := exec.Command(os.Args[0], append(c.args, "-")...)
		cmd.Dir = base
		cmd.Env = append(os.Environ(), "SDSCGEN_TEST_MAIN=1")
		cmd.Stdin = strings.NewReader(c.src)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != exitBadInput || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: exit %d, %q; want %q", c.name, cmd.ProcessState.ExitCode(), out, c.want)
		}
		if entries, _ := os.ReadDir(base); len(entries) != 0 {
			t.Errorf("%s: wrote %v", c.name, entries)
			for _, e := range entries {
				os.RemoveAll(filepath.Join(base, e.Name()))
			}
		}
	}
	// --plan at DIR/plan.json is the one -o writes: fine.
	if code, _, errs := runCLI(t, small, "-o", x, "--plan", filepath.Join(x, "plan.json"), "-"); code != 0 {
		t.Errorf("--plan DIR/plan.json: exit %d %s", code, errs)
	}
}

// endless is /dev/zero: it never ends; it fails the read after far more
// than the limit so that a reader without a limit stops too.
type endless struct{ n, max int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n > e.max {
		return 0, errors.New("read far past the limit")
	}
	clear(p)
	e.n += int64(len(p))
	return len(p), nil
}

// TestInputLimit: the size limit is checked while reading, for a stream
// without end as for a big file, with the limit in the message; exit 1.
func TestInputLimit(t *testing.T) {
	p := &process{inputLimit: 1000}
	want := "input is larger than the limit of 1000 bytes"
	z := &endless{max: 1 << 20}
	var out, errs bytes.Buffer
	if code := p.run([]string{"-"}, z, &out, &errs); code != exitBadInput || !strings.Contains(errs.String(), "<stdin>: "+want) || z.n > 1<<16 {
		t.Errorf("endless stdin: exit %d, read %d bytes, %q", code, z.n, errs.String())
	}
	big := writeTemp(t, "big.bir", strings.Repeat("# comment\n", 200))
	code, _, serr := runCLIIn(t, p, "", big)
	if code != exitBadInput || !strings.Contains(serr, big+": "+want) {
		t.Errorf("big file: exit %d, %q", code, serr)
	}
	// A FIFO has no size: the limit holds while reading it.
	fifo := filepath.Join(t.TempDir(), "in")
	w := mkfifo(t, fifo)
	go func() { w.Write(bytes.Repeat([]byte("# comment\n"), 200)) }()
	code, _, serr = runCLIIn(t, p, "", fifo)
	if code != exitBadInput || !strings.Contains(serr, want) {
		t.Errorf("FIFO: exit %d, %q", code, serr)
	}
}

// TestIntegerFlags: decimal only (leading zeros are decimal, as in
// .bir), no negatives, no wrapping subtraction.
func TestIntegerFlags(t *testing.T) {
	code, out, errs := runCLI(t, small, "--budget", "065536", "--plan", "-", "-")
	if code != 0 || !strings.Contains(out, `"budget": 65536,`) {
		t.Errorf("--budget 065536: exit %d %s", code, errs)
	}
	for _, args := range [][]string{
		{"--budget", "0x10000"}, {"--budget", "0o17"}, {"--budget", "1_000"}, {"--budget", "-1"}, {"--budget", ""},
		{"--segment-size=-9223372036854775808", "--reserve=1"}, {"--segment-size=-5"}, {"--reserve=-1"},
		{"--segment-size=100", "--reserve=200"}, {"--budget", "9223372036854775808"},
	} {
		code, out, errs := runCLI(t, small, append(args, "--plan", "-", "-")...)
		if code != exitUsage || out != "" {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
	if code, _, errs := runPackCLI(t, trapCSV, "--capacity", "0x10", "-"); code != exitUsage || !strings.Contains(errs, "decimal") {
		t.Errorf("pack --capacity 0x10: exit %d %s", code, errs)
	}
	var o, e bytes.Buffer
	if code := run([]string{"synth", "--seed", "0x10"}, nil, &o, &e); code != exitUsage {
		t.Errorf("synth --seed 0x10: exit %d", code)
	}
}

// TestExplainEmptyName: an empty NAME is an error, not the MLIR.
func TestExplainEmptyName(t *testing.T) {
	for _, args := range [][]string{{"explain", "-", ""}, {"--explain", "", "-"}, {"--explain=", "-"}} {
		code, out, errs := runCLI(t, small, args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, "name") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

var _ = io.EOF

// runCLIBounded is runCLI for a run that could block forever on a
// FIFO: it fails the test instead of hanging it. The limit is generous;
// a run that returns never waits for it.
func runCLIBounded(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		c := run(args, strings.NewReader(stdin), &out, &errb)
		done <- result{c, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("%v: still running after 2 minutes (blocked on a FIFO?)", args)
		return
	}
}

// TestOutputDirSpecialPlanJSON: a plan.json in an existing -o DIR that
// is not a regular file (a FIFO, or a symlink to one) is foreign: it is
// refused with the usual hint, never opened (opening a FIFO with no
// writer blocks forever; one with a writer would be read and then
// destroyed with the rest of DIR).
func TestOutputDirSpecialPlanJSON(t *testing.T) {
	base := t.TempDir()
	// No writer: opening it for reading would block.
	lone := filepath.Join(base, "lone")
	os.Mkdir(lone, 0o755)
	if err := syscall.Mkfifo(filepath.Join(lone, "plan.json"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// A writer holding a valid plan: reading it would accept DIR.
	fed := filepath.Join(base, "fed")
	os.Mkdir(fed, 0o755)
	w := mkfifo(t, filepath.Join(fed, "plan.json"))
	if _, err := w.Write([]byte(`{"bundles": []}`)); err != nil {
		t.Fatal(err)
	}
	// A symlink to the FIFO.
	linked := filepath.Join(base, "linked")
	os.Mkdir(linked, 0o755)
	os.Symlink(filepath.Join(lone, "plan.json"), filepath.Join(linked, "plan.json"))
	for _, dir := range []string{lone, fed, linked} {
		code, out, errs := runCLIBounded(t, small, "-o", dir, "-")
		want := "-o " + dir + ": its plan.json is not a regular file"
		if code != exitBadInput || out != "" || !strings.Contains(errs, want) || !strings.Contains(errs, "--force") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q with the --force hint", dir, code, out, errs, exitBadInput, want)
		}
	}
	if !isFIFO(t, filepath.Join(lone, "plan.json")) || !isFIFO(t, filepath.Join(fed, "plan.json")) {
		t.Errorf("a refused run removed a FIFO")
	}
	if got := drain(w); got != `{"bundles": []}` {
		t.Errorf("the FIFO was read: %q left of it", got)
	}
}

// TestOutputDirStageFIFO: a FIFO named like a staging folder beside
// -o DIR is not opened by the sweep of stale stages (it would block).
func TestOutputDirStageFIFO(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	stale := filepath.Join(base, stagePrefix(dir)+"x")
	if err := syscall.Mkfifo(stale, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if code, _, errs := runCLIBounded(t, small, "-o", dir, "-"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !isFIFO(t, stale) {
		t.Errorf("the FIFO was removed")
	}
}

// TestSignalsLeaveNoTemporaries: SIGHUP (a closed terminal), SIGINT and
// SIGTERM, delivered while a --plan or --svg temporary exists, remove it
// and exit 128+signal; nothing is left beside the outputs. SIGHUP was
// not handled: the process died with its temporaries in place.
func TestSignalsLeaveNoTemporaries(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sdscgen processes")
	}
	base := t.TempDir()
	input := filepath.Join(base, "in.bir")
	os.WriteFile(input, []byte(twoBundles), 0o644)
	for _, sig := range []struct {
		name string
		sig  syscall.Signal
	}{{"HUP", syscall.SIGHUP}, {"INT", syscall.SIGINT}, {"TERM", syscall.SIGTERM}} {
		for i, flag := range []string{"--plan", "--svg"} {
			dir := filepath.Join(base, sig.name+flag)
			os.Mkdir(dir, 0o755)
			args := []string{flag, filepath.Join(dir, []string{"p.json", "svg"}[i])}
			cmd := exec.Command(os.Args[0], append(args, input)...)
			cmd.Env = append(os.Environ(), "SDSCGEN_TEST_MAIN=1", "SDSCGEN_TEST_SIGNAL_AT=created", "SDSCGEN_TEST_SIGNAL="+sig.name)
			out, _ := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig.sig) {
				t.Errorf("SIG%s during %v: exit %d (%v), want %d: %s", sig.name, args, code, cmd.ProcessState, 128+int(sig.sig), out)
			}
			var left []string
			filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && strings.Contains(d.Name(), ".tmp-") {
					left = append(left, path)
				}
				return nil
			})
			if len(left) != 0 {
				t.Errorf("SIG%s during %v: temporaries left: %v", sig.name, args, left)
			}
		}
	}
}
