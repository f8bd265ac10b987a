package golden

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/mlirgen"
)

// requireTool returns the path of an MLIR/LLVM tool. When it is missing
// the test fails if SDSCGEN_REQUIRE_MLIR=1 (scripts/test.sh sets it) and
// is skipped otherwise.
func requireTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("SDSCGEN_REQUIRE_MLIR") == "1" {
		t.Fatalf("%s not found and SDSCGEN_REQUIRE_MLIR=1: %v", name, err)
	}
	t.Skipf("%s not found: %v", name, err)
	return ""
}

// tool runs an external tool on stdin and returns its stdout; it fails the
// test on a nonzero exit, with stderr.
func tool(t testing.TB, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(requireTool(t, name), args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

func genericGoldens(t *testing.T) []string {
	files, err := filepath.Glob("testdata/*/*.generic.mlir.golden")
	if err != nil || len(files) == 0 {
		t.Fatalf("no generic goldens: %v", err)
	}
	return files
}

var (
	addiOp  = regexp.MustCompile(`\barith\.addi\b`)
	applyOp = regexp.MustCompile(`\baffine\.apply\b`)
)

// TestMLIROptVerifyEach: stock mlir-opt accepts every generic golden,
// verifying after each pass.
func TestMLIROptVerifyEach(t *testing.T) {
	for _, f := range genericGoldens(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out := tool(t, src, "mlir-opt-16", "--allow-unregistered-dialect", "--verify-each")
		// The round trip keeps every sdsc_execute.
		if a, b := strings.Count(string(src), "sdscbundle.sdsc_execute"), strings.Count(string(out), "sdscbundle.sdsc_execute"); a != b {
			t.Errorf("%s: %d sdsc_execute in, %d out", f, a, b)
		}
	}
}

// expectedAfterCSE counts the affine.apply ops that survive CSE: an apply
// is redundant when a textually equal one (same map, dims and symbol) is
// visible at its position, i.e. earlier in its block or in an enclosing
// block. The spec (bundle-ir.md §4) gives every strided operand its own %addr_N, so two
// operands with the same stride and base in one loop body are emitted as
// two equal applies; that is the only redundancy allowed.
func expectedAfterCSE(src string) int {
	stack := []map[string]bool{{}}
	n := 0
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "= affine.apply "); i >= 0 {
			rhs := line[i:]
			seen := false
			for _, s := range stack {
				seen = seen || s[rhs]
			}
			if !seen {
				n++
				stack[len(stack)-1][rhs] = true
			}
		}
		if strings.HasSuffix(line, "{") && !strings.HasPrefix(line, "module") {
			stack = append(stack, map[string]bool{})
		}
		if line == "}" && len(stack) > 1 {
			stack = stack[:len(stack)-1]
		}
	}
	return n
}

// TestMLIROptCSE: common-subexpression elimination finds nothing to merge
// among the pool addresses (one arith.addi per distinct offset: the dedup
// is real) and merges only the affine.applys that the spec requires to be
// repeated.
func TestMLIROptCSE(t *testing.T) {
	for _, f := range genericGoldens(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out := string(tool(t, src, "mlir-opt-16", "--allow-unregistered-dialect", "--cse"))
		in := string(src)
		if a, b := len(addiOp.FindAllString(in, -1)), len(addiOp.FindAllString(out, -1)); a != b {
			t.Errorf("%s: --cse changed arith.addi count %d -> %d", f, a, b)
		}
		a, b := len(applyOp.FindAllString(in, -1)), len(applyOp.FindAllString(out, -1))
		if want := expectedAfterCSE(in); b != want {
			t.Errorf("%s: --cse changed affine.apply count %d -> %d, want %d", f, a, b, want)
		}
	}
}

// TestMLIROptSplitInputFile: the whole stdout stream of every case, in
// generic form, passes mlir-opt with --split-input-file.
func TestMLIROptSplitInputFile(t *testing.T) {
	requireTool(t, "mlir-opt-16")
	for _, c := range Cases(t) {
		for _, extra := range [][]string{{"--generic"}, {"--generic", "--frontend-pool-allocation"}} {
			stream := Run(t, c, extra...)
			out := tool(t, stream, "mlir-opt-16", "--allow-unregistered-dialect", "--verify-each", "--split-input-file")
			if a, b := bytes.Count(stream, []byte("sdscbundle.sdsc_execute")), bytes.Count(out, []byte("sdscbundle.sdsc_execute")); a != b {
				t.Errorf("%s %v: %d sdsc_execute in, %d out", c.Name, extra, a, b)
			}
		}
	}
}

// TestFileCheck runs the FileCheck-16 checks in testdata/filecheck/*.bir.
// Each file is an input whose `// CHECK...` comments are the pattern; a
// `// ARGS: ...` line holds the sdscgen flags (space-separated).
func TestFileCheck(t *testing.T) {
	fc := requireTool(t, "FileCheck-16")
	files, err := filepath.Glob("filecheck/*.bir")
	if err != nil || len(files) == 0 {
		t.Fatalf("no FileCheck inputs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var args []string
			for _, line := range strings.Split(string(src), "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "// ARGS:"); ok {
					args = append(args, strings.Fields(rest)...)
				}
			}
			args = append(args, f)
			cmd := exec.Command(binary, args...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("sdscgen %v: %v\n%s", args, err, stderr.String())
			}
			check := exec.Command(fc, f)
			check.Stdin = &stdout
			if out, err := check.CombinedOutput(); err != nil {
				t.Fatalf("FileCheck %s: %v\n%s\n--- input:\n%s", f, err, out, stdout.String())
			}
		})
	}
}

// TestMLIROptV2: the generic module of a v2 bundle (views at offsets,
// multi-core ops with slice, derived and per-core pool symbols), with and
// without --frontend-pool-allocation, passes mlir-opt --verify-each with
// every sdsc_execute kept, and --cse merges no arith.addi (every declared
// value is distinct) and only the affine.applys expectedAfterCSE allows.
func TestMLIROptV2(t *testing.T) {
	requireTool(t, "mlir-opt-16")
	p := planV2(t, "v2", v2Source, v2Handmade.apply)
	for _, fpa := range []bool{false, true} {
		var buf bytes.Buffer
		if err := mlirgen.EmitAll(&buf, p, mlirgen.Options{Generic: true, FrontendPoolAllocation: fpa}); err != nil {
			t.Fatal(err)
		}
		src := buf.String()
		out := string(tool(t, buf.Bytes(), "mlir-opt-16", "--allow-unregistered-dialect", "--verify-each"))
		if a, b := strings.Count(src, "sdscbundle.sdsc_execute"), strings.Count(out, "sdscbundle.sdsc_execute"); a != b || a != 5 {
			t.Errorf("fpa=%v: %d sdsc_execute in, %d out, want 5", fpa, a, b)
		}
		cse := string(tool(t, buf.Bytes(), "mlir-opt-16", "--allow-unregistered-dialect", "--cse"))
		if a, b := len(addiOp.FindAllString(src, -1)), len(addiOp.FindAllString(cse, -1)); a != b {
			t.Errorf("fpa=%v: --cse changed arith.addi count %d -> %d", fpa, a, b)
		}
		if b, want := len(applyOp.FindAllString(cse, -1)), expectedAfterCSE(src); b != want {
			t.Errorf("fpa=%v: --cse left %d affine.apply, want %d", fpa, b, want)
		}
	}
}
