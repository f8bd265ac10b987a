package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// small is a graph with one pooled buffer t (256 bytes) in bundle k.
const small = `graph g {
  buffer x : 128
  buffer t : 256
  buffer y : 128
  input x
  output y
  fused k {
    op a reads x writes t
    op b reads t writes y
  }
}
`

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLIIn(t, new(process), stdin, args...)
}

// runCLIIn is runCLI in process p (a test's hooks).
func runCLIIn(t *testing.T, p *process, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = p.run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// run is the command run in-process as the tests run it: in a process
// that leaves the collector alone, with no hooks.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return new(process).run(args, stdin, stdout, stderr)
}

func TestPlanningSwitches(t *testing.T) {
	pooled := `"pool_sizes": {"k": 256}`
	off := `"pool_sizes": {}`
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"default on", nil, nil, pooled},
		{"env 0", map[string]string{"HBM_POOL_PLANNING": "0"}, nil, off},
		{"env FALSE any case", map[string]string{"HBM_POOL_PLANNING": "FALSE"}, nil, off},
		{"env No", map[string]string{"HBM_POOL_PLANNING": "No"}, nil, off},
		{"env yes", map[string]string{"HBM_POOL_PLANNING": "yes"}, nil, pooled},
		{"flag", nil, []string{"--no-pool"}, off},
		{"flag wins over env on", map[string]string{"HBM_POOL_PLANNING": "1"}, []string{"--no-pool"}, off},
		{"flag wins over env off", map[string]string{"HBM_POOL_PLANNING": "0"}, []string{"--no-pool=false"}, pooled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HBM_POOL_PLANNING", "")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			code, out, errs := runCLI(t, small, append(c.args, "--plan", "-", "-")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("want %s in\n%s", c.want, out)
			}
		})
	}
}

func TestSymbolicArgsSwitch(t *testing.T) {
	// With fusion off, a and b are bundles of their own and t is
	// cross-bundle: the table is empty and the bundles are named a, b.
	for _, c := range []struct {
		env  string
		args []string
	}{{"0", nil}, {"false", nil}, {"", []string{"--bundle-symbolic-args=false"}}, {"1", []string{"--bundle-symbolic-args=false"}}} {
		t.Setenv("BUNDLE_SYMBOLIC_ARGS", c.env)
		code, out, errs := runCLI(t, small, append(c.args, "--plan", "-", "-")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(out, `"pool_sizes": {}`) || !strings.Contains(out, `{"name": "a", "steps": 1`) {
			t.Errorf("env %q args %v: fusion still on:\n%s", c.env, c.args, out)
		}
	}
	t.Setenv("BUNDLE_SYMBOLIC_ARGS", "0")
	_, out, _ := runCLI(t, small, "--bundle-symbolic-args=true", "--plan", "-", "-")
	if !strings.Contains(out, `"pool_sizes": {"k": 256}`) {
		t.Errorf("--bundle-symbolic-args=true did not win over the environment:\n%s", out)
	}
}

func TestBudgetFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, `"budget": 15032385536`},
		{[]string{"--budget", "4096"}, `"budget": 4096`},
		{[]string{"--segment-size=10000", "--reserve=1000"}, `"budget": 9000`},
		{[]string{"--reserve=17179869184"}, `"budget": 0`},
		// 255 bytes of budget cannot hold t's 256: over-budget, entry 0.
		{[]string{"--budget=255"}, `"pool_sizes": {"k": 0}`},
	} {
		code, out, errs := runCLI(t, small, append(c.args, "--plan", "-", "-")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("%v: want %s in\n%s", c.args, c.want, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args    []string
		env     map[string]string
		wantErr string
	}{
		{nil, nil, "want exactly one input file, got 0"},
		{[]string{"a.bir", "b.bir"}, nil, "want exactly one input file, got 2"},
		{[]string{"--budget=1", "--reserve=1", "-"}, nil, "--budget cannot be combined"},
		{[]string{"--budget=-1", "-"}, nil, "must not be negative"},
		{[]string{"--allocator=worst-fit", "-"}, nil, `--allocator worst-fit: unknown allocator; want first-fit, best-fit, size-best-fit or best (did you mean first-fit?)`},
		{[]string{"--no-such-flag", "-"}, nil, "unknown flag --no-such-flag"},
		{[]string{"-"}, map[string]string{"HBM_POOL_PLANNING": "maybe"}, `HBM_POOL_PLANNING="maybe"`},
		{[]string{"-"}, map[string]string{"BUNDLE_SYMBOLIC_ARGS": "2"}, `BUNDLE_SYMBOLIC_ARGS="2"`},
	} {
		t.Setenv("HBM_POOL_PLANNING", "")
		t.Setenv("BUNDLE_SYMBOLIC_ARGS", "")
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		code, out, errs := runCLI(t, small, c.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d", c.args, code, exitUsage)
		}
		if out != "" {
			t.Errorf("%v: wrote to stdout: %q", c.args, out)
		}
		if !strings.Contains(errs, c.wantErr) {
			t.Errorf("%v: stderr %q lacks %q", c.args, errs, c.wantErr)
		}
	}
}

func TestVersionAndHelp(t *testing.T) {
	// The test binary carries no VCS stamp; TestVersionBinary checks a
	// built one.
	code, out, _ := runCLI(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "sdscgen "+version+"\nmodule ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	code, out, errs := runCLI(t, "", "--help")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: sdscgen") || !strings.Contains(out, "-allocator") {
		t.Errorf("--help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestFlagsAfterFile: flags may follow the input file, as compiler users
// type them.
func TestFlagsAfterFile(t *testing.T) {
	code, out, errs := runCLI(t, small, "-", "--plan", "-", "--budget", "128")
	if code != 0 || !strings.Contains(out, `"budget": 128`) {
		t.Errorf("exit %d, %s %s", code, out, errs)
	}
}

func TestOutputDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errs := runCLI(t, small, "-o", dir, "-")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "k", "bundle.mlir"))
	if err != nil || !strings.Contains(string(mod), "device_mem_allocate 256 bytes") {
		t.Fatalf("bundle.mlir: %v\n%s", err, mod)
	}
	if _, err := os.Stat(filepath.Join(dir, "plan.json")); err != nil {
		t.Fatal(err)
	}
	// Nothing but the outputs: the staging directory is gone.
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("stray files beside -o DIR: %v", entries)
	}

	// A second run with a bad input leaves DIR exactly as it was.
	before, _ := os.ReadFile(filepath.Join(dir, "plan.json"))
	code, out, errs = runCLI(t, "graph g { op a reads nope }", "-o", dir, "-")
	if code != exitBadInput || out != "" {
		t.Fatalf("bad input: exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errs, `<stdin>:1:22: error: undeclared buffer "nope"`) {
		t.Errorf("diagnostic: %q", errs)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "plan.json"))
	if !bytes.Equal(before, after) {
		t.Errorf("plan.json changed by a failed run")
	}
}

func TestPlanFileWrittenAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.json")
	code, out, errs := runCLI(t, small, "--plan", path, "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Without -o and with --plan FILE, the MLIR still goes to stdout.
	if !strings.Contains(out, "func.func @sdsc_bundle") {
		t.Errorf("no MLIR on stdout: %q", out)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), "{\n  \"format_version\": 2,\n  \"graph\": \"g\"") {
		t.Fatalf("plan: %v %q", err, data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestBundleNamedPlanJSON(t *testing.T) {
	src := "graph g {\n  buffer x : 128\n  op plan.json reads x\n}\n"
	dir := filepath.Join(t.TempDir(), "out")
	code, _, errs := runCLI(t, src, "-o", dir, "-")
	if code != exitBadInput || !strings.Contains(errs, `<stdin>:3:6: error: bundle "plan.json" would collide`) {
		t.Errorf("exit %d, %q", code, errs)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("-o DIR created by a failed run")
	}
}

// TestCompare: --compare adds every allocator's pool size per bundle.
// In bundle k, a (128 B, steps 0..1) and b (256 B, 0..2) are placed first;
// c (384 B, 2..3) cannot use a's freed 128 bytes, so first-fit and
// best-fit (b stays live at the top) bump to 128+256+384 = 768. Placing by
// size instead puts c at 0, b above it at 384 and a at 0 beside c in time:
// 640 bytes, which is the lower bound (b+c live at step 2), so best gets
// there too.
func TestCompare(t *testing.T) {
	src := `graph g {
  buffer a : 128
  buffer b : 256
  buffer c : 384
  buffer y : 128
  output y
  fused k {
    op s0 writes a, b
    op s1 reads a
    op s2 reads b writes c
    op s3 reads c writes y
  }
}
`
	code, out, errs := runCLI(t, src, "--compare", "--plan", "-", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var plan struct {
		Bundles []struct {
			PoolSize   int64            `json:"pool_size"`
			LowerBound int64            `json:"lower_bound"`
			Compare    map[string]int64 `json:"compare"`
		}
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	b := plan.Bundles[0]
	want := map[string]int64{"first-fit": 768, "best-fit": 768, "size-best-fit": 640, "best": 640}
	for name, size := range want {
		if got, ok := b.Compare[name]; !ok || got != size {
			t.Errorf("compare[%s] = %d (present %v), want %d", name, got, ok, size)
		}
	}
	if len(b.Compare) != len(want) || b.PoolSize != 768 || b.LowerBound != 640 {
		t.Errorf("bundle: %+v", b)
	}
	// Without --compare the key is absent.
	_, out, _ = runCLI(t, src, "--plan", "-", "-")
	if strings.Contains(out, "compare") {
		t.Errorf("compare without --compare:\n%s", out)
	}
}

// TestOutputFileModes: atomically written files are 0644 like any output,
// not the 0600 of a temporary file.
func TestOutputFileModes(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.json")
	out := filepath.Join(dir, "out")
	if code, _, errs := runCLI(t, small, "--plan", plan, "-o", out, "-"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// A new -o DIR is the staging folder renamed: it must not keep
	// MkdirTemp's 0700.
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("-o DIR: %v mode %v, want 0755", err, st.Mode().Perm())
	}
	for _, p := range []string{plan, filepath.Join(out, "plan.json"), filepath.Join(out, "k", "bundle.mlir")} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", p, st.Mode().Perm())
		}
	}
}

// TestSDSCCacheSwitch: the SDSC cache is on by default; --sdsc-cache and
// SPYRE_INDUCTOR_SDSC_CACHE turn it off (0/false/no, any case) or on, the
// flag winning over the environment; a bad value is a usage error. a and
// b are both relu, read %arg_0 and write %arg_1 (same storage and shape):
// with the cache b names a's file sdsc_0.json, without it sdsc_1.json.
func TestSDSCCacheSwitch(t *testing.T) {
	src := `graph g {
  buffer x : 128
  buffer y : 128
  input x
  output y
  fused k {
    op a kind relu reads x writes y
    op b kind relu reads x writes y
  }
}
`
	on := `sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
		sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`
	off := `sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
		sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-3, -4]}`
	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", nil, on},
		{"0", nil, off},
		{"False", nil, off},
		{"no", nil, off},
		{"yes", nil, on},
		{"", []string{"--sdsc-cache=false"}, off},
		{"0", []string{"--sdsc-cache"}, on},
		{"1", []string{"--sdsc-cache=false"}, off},
	} {
		t.Setenv("SPYRE_INDUCTOR_SDSC_CACHE", c.env)
		code, out, errs := runCLI(t, src, append(c.args, "-")...)
		if code != 0 {
			t.Fatalf("env %q %v: exit %d: %s", c.env, c.args, code, errs)
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("env %q %v: want\n%s\nin\n%s", c.env, c.args, c.want, out)
		}
	}
	t.Setenv("SPYRE_INDUCTOR_SDSC_CACHE", "maybe")
	if code, _, errs := runCLI(t, src, "-"); code != exitUsage || !strings.Contains(errs, `SPYRE_INDUCTOR_SDSC_CACHE="maybe"`) {
		t.Errorf("bad value: exit %d, %q", code, errs)
	}
}
