package golden

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
)

// These tests run sdscgen's MLIR through sdsc-opt, the driver built from
// dialect/ (a clean-room sdscbundle dialect for MLIR 16, docs/dialect.md):
// the custom form is parsed and verified by real MLIR, and the
// --sdsc-check-pool pass checks every pool address against the allocation.
// scripts/test.sh builds sdsc-opt and sets SDSC_OPT and
// SDSCGEN_REQUIRE_MLIR=1, so there a missing binary fails instead of
// skipping.

// sdscOptFlags is the pipeline every module must pass.
var sdscOptFlags = []string{"--split-input-file", "--verify-each", "--sdsc-check-pool"}

// sdscOptPath finds sdsc-opt: $SDSC_OPT, else the fixed build path
// dialect/build/bin/sdsc-opt, else PATH.
func sdscOptPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("SDSC_OPT"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("SDSC_OPT=%s: %v", p, err)
		}
		return p
	}
	if p, err := filepath.Abs(filepath.Join("..", "dialect", "build", "bin", "sdsc-opt")); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return requireTool(t, "sdsc-opt")
}

// sdscOpt runs sdsc-opt on stdin and returns stdout, stderr and the error.
func sdscOpt(t testing.TB, stdin []byte, args ...string) ([]byte, string, error) {
	t.Helper()
	cmd := exec.Command(sdscOptPath(t), args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.Bytes(), stderr.String(), err
}

// mustSdscOpt is sdscOpt that fails the test on a nonzero exit.
func mustSdscOpt(t testing.TB, what string, stdin []byte, args ...string) []byte {
	t.Helper()
	out, stderr, err := sdscOpt(t, stdin, args...)
	if err != nil {
		t.Fatalf("%s: sdsc-opt %s: %v\n%s\n--- input:\n%s", what, strings.Join(args, " "), err, stderr, stdin)
	}
	return out
}

var (
	funcRE    = regexp.MustCompile(`func\.func\s+@sdsc_bundle\s*\(`)
	executeRE = regexp.MustCompile(`\bsdscbundle\.sdsc_execute\b`)
	ssaRE     = regexp.MustCompile(`%[A-Za-z0-9_$.\-]+`)
	mapRE     = regexp.MustCompile(`#map[A-Za-z0-9_]*`)
	spaceRE   = regexp.MustCompile(`\s+`)
)

// verifyStream runs one sdscgen output stream (modules separated by
// "// -----") through sdsc-opt and returns the number of bundle functions
// it holds. The output keeps every function and every sdsc_execute.
func verifyStream(t *testing.T, what string, stream []byte) int {
	t.Helper()
	out := mustSdscOpt(t, what, stream, sdscOptFlags...)
	funcs := len(funcRE.FindAll(stream, -1))
	if got := len(funcRE.FindAll(out, -1)); got != funcs {
		t.Errorf("%s: %d bundle functions in, %d out", what, funcs, got)
	}
	if a, b := len(executeRE.FindAll(stream, -1)), len(executeRE.FindAll(out, -1)); a != b {
		t.Errorf("%s: %d sdsc_execute in, %d out", what, a, b)
	}
	return funcs
}

// normalize reduces MLIR text to what MLIR's printer cannot keep: SSA names
// become "%", map alias names "#map", runs of white space one space; map
// definition lines and "// -----" separators are dropped (MLIR renumbers
// the maps and reorders their expressions: s0 + 256*d0 prints as
// d0 * 256 + s0).
func normalize(text []byte) []string {
	var lines []string
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(spaceRE.ReplaceAllString(line, " "))
		if line == "" || strings.HasPrefix(line, "#map") || strings.HasPrefix(line, "//") {
			continue
		}
		line = ssaRE.ReplaceAllString(line, "%")
		line = mapRE.ReplaceAllString(line, "#map")
		lines = append(lines, line)
	}
	return lines
}

// customGoldens lists the custom-form goldens (not *.generic.*), read at
// run time so that a change of the emitted text is picked up.
func customGoldens(t *testing.T) []string {
	all, err := filepath.Glob("testdata/*/*.mlir.golden")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".generic.mlir.golden") {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatal("no custom-form goldens")
	}
	return files
}

// TestSdscOptGoldens: every custom-form golden parses and verifies in real
// MLIR with the sdscbundle dialect and passes --sdsc-check-pool; MLIR
// prints it back line for line the same up to SSA names, map names and
// white space (so the custom printers reproduce our spelling); printing is
// a fixpoint; and the generic golden of the same bundle is the same IR
// (sdsc-opt prints both identically).
func TestSdscOptGoldens(t *testing.T) {
	sdscOptPath(t)
	var modules atomic.Int64
	t.Run("each", func(t *testing.T) {
		for _, f := range customGoldens(t) {
			t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
				t.Parallel()
				modules.Add(int64(checkGolden(t, f)))
			})
		}
	})
	if t.Failed() {
		return
	}
	if modules.Load() == 0 {
		t.Fatal("no bundle functions verified")
	}
	t.Logf("sdsc-opt verified %d golden modules", modules.Load())
}

// checkGolden runs the checks of TestSdscOptGoldens on one custom golden
// and returns its number of bundle functions.
func checkGolden(t *testing.T, f string) int {
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	n := verifyStream(t, f, src)
	out := mustSdscOpt(t, f, src)
	if want, got := normalize(src), normalize(out); strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("%s: sdsc-opt does not re-print the module line for line (up to SSA/map names):\n--- in:\n%s\n--- out:\n%s",
			f, strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	if again := mustSdscOpt(t, f+" (re-read)", out); !bytes.Equal(again, out) {
		t.Errorf("%s: printing is not a fixpoint:\n%s\n--- then:\n%s", f, out, again)
	}
	generic := strings.TrimSuffix(f, ".mlir.golden") + ".generic.mlir.golden"
	gsrc, err := os.ReadFile(generic)
	if err != nil {
		t.Fatalf("%s: no generic golden: %v", f, err)
	}
	if gout := mustSdscOpt(t, generic, gsrc); !bytes.Equal(gout, out) {
		t.Errorf("%s and %s are different IR:\n%s\n--- generic:\n%s", f, generic, out, gout)
	}
	return n
}

// sdscgenStream runs the built sdscgen on stdin (FILE "-") with args and
// returns its stdout.
func sdscgenStream(t *testing.T, what string, src []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(binary, append(append([]string{}, args...), "-")...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	cmd.Stdin = bytes.NewReader(src)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: sdscgen %s -: %v\n%s", what, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// sdscgenModes are the flag sets every input is emitted with: the default,
// the caller-provided pool, fusion off, the generic form, and a tight
// budget (so that some buffers fall back).
var sdscgenModes = [][]string{
	nil,
	{"--frontend-pool-allocation"},
	{"--bundle-symbolic-args=false"},
	{"--generic"},
	{"--budget", "4096"},
}

// TestSdscOptExamples: sdscgen's output for every examples/**/*.bir and for
// random graphs, in every mode, passes sdsc-opt --verify-each
// --sdsc-check-pool.
func TestSdscOptExamples(t *testing.T) {
	sdscOptPath(t)
	var inputs []string
	err := filepath.WalkDir(filepath.Join("..", "examples"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".bir") {
			inputs = append(inputs, path)
		}
		return err
	})
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no examples/**/*.bir: %v", err)
	}
	modules := 0
	for _, path := range inputs {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range sdscgenModes {
			what := fmt.Sprintf("%s %v", path, mode)
			modules += verifyStream(t, what, sdscgenStream(t, what, src, mode...))
		}
	}
	if modules == 0 {
		t.Fatal("no bundle functions verified")
	}
	t.Logf("sdsc-opt verified %d modules from %d examples in %d modes", modules, len(inputs), len(sdscgenModes))
}

// TestSdscOptRandomGraphs: the same for random graphs. Every step of a
// graph randgraph writes keeps the contract's bounds rule (section 1.2), so
// every tiled pool address stays inside its buffer and --sdsc-check-pool
// must accept every module; a graph breaking the rule must be rejected by
// sdscgen itself, never reach the MLIR.
func TestSdscOptRandomGraphs(t *testing.T) {
	sdscOptPath(t)
	const seeds = 12
	modules := 0
	for seed := int64(1); seed <= seeds; seed++ {
		src := randgraph.Generate(rand.New(rand.NewSource(seed)), randgraph.Default)
		for _, mode := range sdscgenModes {
			what := fmt.Sprintf("random seed %d %v", seed, mode)
			modules += verifyStream(t, what, sdscgenStream(t, what, []byte(src), mode...))
		}
	}
	if modules == 0 {
		t.Fatal("no bundle functions verified")
	}
	t.Logf("sdsc-opt verified %d modules from %d random graphs in %d modes", modules, seeds, len(sdscgenModes))
}

var allocRE = regexp.MustCompile(`device_mem_allocate\s+(\d+)\s+bytes`)

// shrinkPool rewrites the (single) allocation of a module to size bytes.
func shrinkPool(t *testing.T, module []byte, size int64) []byte {
	t.Helper()
	if n := len(allocRE.FindAll(module, -1)); n != 1 {
		t.Fatalf("want one device_mem_allocate, found %d in:\n%s", n, module)
	}
	return allocRE.ReplaceAll(module, []byte("device_mem_allocate "+strconv.FormatInt(size, 10)+" bytes"))
}

// TestSdscOptCatchesPoolOverflow: with the allocation shrunk below what
// sdscgen planned, the real binary rejects the module and names the
// offending offset and the allocation size; at the exact size it passes.
func TestSdscOptCatchesPoolOverflow(t *testing.T) {
	sdscOptPath(t)
	// t0 and t1 are live together in bundle b, so the first-fit plan puts
	// t0 at pool offset 0 and t1 at 1024 in a 2048-byte pool.
	twoBuffers := []byte(`graph g {
  buffer x : 1024
  buffer t0 : 1024
  buffer t1 : 1024
  buffer y : 1024
  input x
  output y
  fused b {
    op p reads x writes t0, t1
    op q reads t0, t1 writes y
  }
}
`)
	// t is pooled at offset 0 (1024 bytes) and read in 4 tiles of 256: the
	// last tile starts at pool offset 3*256 = 768.
	tiled := []byte(`graph g {
  buffer x : 1024
  buffer t : 1024
  buffer y : 1024
  input x
  output y
  fused b {
    op p reads x writes t
    loop l count 4 {
      op q reads t step 256 writes y
    }
  }
}
`)
	cases := []struct {
		name    string
		src     []byte
		planned int64 // the pool size sdscgen must plan
		fits    int64 // the smallest size that holds every address
		diag    string
	}{
		{"constant_offset", twoBuffers, 2048, 1025, "pool offset 1024 lies outside the 1024-byte pool allocation"},
		{"last_tile", tiled, 1024, 769, "last tile start: pool offset 768 (base offset 0, every loop at its last iteration) lies outside the 768-byte pool allocation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			module := sdscgenStream(t, c.name, c.src)
			m := allocRE.FindSubmatch(module)
			if m == nil || string(m[1]) != strconv.FormatInt(c.planned, 10) {
				t.Fatalf("want a %d-byte pool, got:\n%s", c.planned, module)
			}
			mustSdscOpt(t, c.name+" as planned", module, sdscOptFlags...)
			mustSdscOpt(t, c.name+" at the smallest fitting size", shrinkPool(t, module, c.fits), sdscOptFlags...)
			bad := shrinkPool(t, module, c.fits-1)
			_, stderr, err := sdscOpt(t, bad, sdscOptFlags...)
			if err == nil {
				t.Fatalf("sdsc-opt accepted a %d-byte pool:\n%s", c.fits-1, bad)
			}
			if !strings.Contains(stderr, c.diag) {
				t.Errorf("diagnostic %q missing from:\n%s", c.diag, stderr)
			}
			// Without the pass the same module is valid IR: the check is
			// the pass's, not the verifier's.
			mustSdscOpt(t, c.name+" without the pass", bad, "--split-input-file", "--verify-each")
		})
	}
}
