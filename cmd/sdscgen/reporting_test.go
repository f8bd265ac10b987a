package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/filetree"
)

// specInput is the contract's example, from the golden cases.
var specInput = filepath.Join("..", "..", "golden", "testdata", "spec_example", "input.bir")

func cleanEnv(t *testing.T) {
	t.Setenv("HBM_POOL_PLANNING", "")
	t.Setenv("BUNDLE_SYMBOLIC_ARGS", "")
}

// TestStatsAndRemarksOnlyAddStderr: --stats and --remarks leave stdout and
// the exit status as they are and print their text on stderr.
func TestStatsAndRemarksOnlyAddStderr(t *testing.T) {
	cleanEnv(t)
	code0, out0, err0 := runCLI(t, "", specInput)
	if code0 != 0 || err0 != "" {
		t.Fatalf("plain run: exit %d, %s", code0, err0)
	}
	code, out, errs := runCLI(t, "", "--stats", "--remarks=missed", specInput)
	if code != code0 || out != out0 {
		t.Fatalf("--stats/--remarks changed stdout or exit (%d)", code)
	}
	for _, want := range []string{
		"spec_example/input.bir:12:10: remark: t0 not pooled [cpu-read]: CPU node sin4 reads it at ",
		"\nbundle    steps  sdsc files  reusing  candidates  pooled  pool size  lower bound  ratio  budget  fallbacks\n",
		"\nmm_block      3           3        0           1       1      256 B        256 B   1.00   <0.1%  graph-input 2, graph-output 1, cpu-read 1\n",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "remark: acc ") {
		t.Errorf("missed remarks mention the pooled acc:\n%s", errs)
	}
	_, _, errs = runCLI(t, "", "--remarks=passed", specInput)
	if n := strings.Count(errs, "\n"); n != 1 || !strings.Contains(errs, ":14:10: remark: acc pooled in bundle mm_block at offset 0") {
		t.Errorf("passed remarks: %q", errs)
	}
	code, out, errs = runCLI(t, "", "--remarks=some", specInput)
	if code != exitUsage || out != "" || !strings.Contains(errs, `unknown remark mode "some"`) {
		t.Errorf("--remarks=some: exit %d, %q, %q", code, out, errs)
	}
}

// TestExplainCLI: the subcommand and the flag print the same explanation
// on stdout and no MLIR; flags before FILE apply; an unknown name exits 2
// with a did-you-mean that includes rename sources.
func TestExplainCLI(t *testing.T) {
	cleanEnv(t)
	code, out, errs := runCLI(t, "", "explain", specInput, "acc_next")
	if code != 0 || errs != "" {
		t.Fatalf("explain: exit %d, %s", code, errs)
	}
	if !strings.HasPrefix(out, "acc_next is renamed to acc (rename at ") || !strings.Contains(out, "decision: pooled in bundle mm_block\n") ||
		strings.Contains(out, "module") {
		t.Errorf("explain output:\n%s", out)
	}
	_, out2, _ := runCLI(t, "", "--explain", "acc_next", specInput)
	if out2 != out {
		t.Errorf("--explain differs from the subcommand:\n%s\nvs\n%s", out2, out)
	}
	_, out, _ = runCLI(t, "", "explain", "--no-pool", specInput, "acc")
	if !strings.Contains(out, "decision: not pooled [disabled]") {
		t.Errorf("flags of explain ignored:\n%s", out)
	}
	code, out, errs = runCLI(t, "", "explain", specInput, "acc_nxt")
	if code != exitUsage || out != "" || !strings.Contains(errs, `sdscgen: explain: no buffer named "acc_nxt" in graph decoder_block; did you mean "acc_next"?`) {
		t.Errorf("unknown name: exit %d, %q, %q", code, out, errs)
	}
	// A look-alike: Cyrillic a (U+0430) in "acc".
	code, out, errs = runCLI(t, "", "explain", specInput, "\u0430cc")
	if want := "sdscgen: explain: no buffer named \"\u0430cc\" in graph decoder_block; did you mean \"acc\"? (in the name, \"\u0430\" is U+0430, a non-ASCII look-alike of \"a\")\n"; code != exitUsage || out != "" || errs != want {
		t.Errorf("look-alike name: exit %d, %q, %q, want %q", code, out, errs, want)
	}
	// --stats still goes to stderr when explain replaces stdout.
	_, out3, errs := runCLI(t, "", "--stats", "--explain", "acc_next", specInput)
	if out3 != out2 || !strings.Contains(errs, "\nmm_block      3           3        0           1       1      256 B") {
		t.Errorf("--stats with --explain: %q", errs)
	}
	code, _, errs = runCLI(t, "", "explain", specInput)
	if code != exitUsage || !strings.Contains(errs, "want FILE.bir NAME") {
		t.Errorf("explain without NAME: exit %d, %q", code, errs)
	}
	code, out, _ = runCLI(t, small, "explain", "-", "t")
	if code != 0 || !strings.Contains(out, "buffer t: 256 B (256 bytes), declared at <stdin>:3:10\n") {
		t.Errorf("explain from stdin: exit %d\n%s", code, out)
	}
}

// TestDumpAfter: each stage dump goes to stdout alone, is stable across
// runs, and a bad stage name is a usage error.
func TestDumpAfter(t *testing.T) {
	cleanEnv(t)
	for stage, want := range map[string]string{
		"check": "bundle mm_block fused steps=3 loops=1  # 24:9\n",
		"plan":  "group acc size=256 reason=pooled bundle=mm_block range=1..2 offset=0 read=mm_block written=mm_block cpu-read=- cpu-written=-\n",
	} {
		dir := filepath.Join(t.TempDir(), "out")
		code, out, errs := runCLI(t, "", "--dump-after="+stage, "-o", dir, specInput)
		if code != 0 || errs != "" || !strings.Contains(out, want) || strings.Contains(out, "module") {
			t.Errorf("--dump-after=%s: exit %d, %q\n%s", stage, code, errs, out)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("--dump-after=%s wrote -o output", stage)
		}
		_, again, _ := runCLI(t, "", "--dump-after="+stage, specInput)
		if again != out {
			t.Errorf("--dump-after=%s is not stable", stage)
		}
	}
	// The plan dump follows the planning flags.
	_, out, _ := runCLI(t, small, "--dump-after=plan", "--bundle-symbolic-args=false", "-")
	if !strings.Contains(out, "group t size=256 reason=cross-bundle bundle=- range=- offset=- read=b written=a ") {
		t.Errorf("unfused plan dump:\n%s", out)
	}
	code, _, errs := runCLI(t, "", "--dump-after=parse", specInput)
	if code != exitUsage || !strings.Contains(errs, "--dump-after=parse: want check or plan") {
		t.Errorf("bad stage: exit %d, %q", code, errs)
	}
}

// TestSVGFlag: --svg DIR writes one parseable memory map per bundle and
// leaves the -o output byte-for-byte as without it; --svg with the -o DIR
// puts the maps inside it.
func TestSVGFlag(t *testing.T) {
	cleanEnv(t)
	base := t.TempDir()
	plain := filepath.Join(base, "plain")
	if code, _, errs := runCLI(t, "", "-o", plain, specInput); code != 0 {
		t.Fatal(errs)
	}
	withSVG, svgDir := filepath.Join(base, "with"), filepath.Join(base, "svg")
	code, out, errs := runCLI(t, "", "-o", withSVG, "--svg", svgDir, specInput)
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("exit %d, %q, %q", code, out, errs)
	}
	p, w := filetree.Read(t, plain), filetree.Read(t, withSVG)
	if strings.Join(filetree.Names(p), " ") != strings.Join(filetree.Names(w), " ") {
		t.Fatalf("-o files differ with --svg: %v vs %v", filetree.Names(p), filetree.Names(w))
	}
	for k := range p {
		if !bytes.Equal(p[k], w[k]) {
			t.Errorf("%s differs with --svg", k)
		}
	}
	maps := filetree.Read(t, svgDir)
	if got := strings.Join(filetree.Names(maps), " "); got != "k_loop/memory.svg mm_block/memory.svg relu3/memory.svg" {
		t.Fatalf("svg files: %s", got)
	}
	for name, data := range maps {
		if err := xml.Unmarshal(data, new(struct{})); err != nil {
			t.Errorf("%s is not XML: %v", name, err)
		}
	}
	if !bytes.Contains(maps["mm_block/memory.svg"], []byte(`<rect data-buffer="acc" `)) {
		t.Errorf("mm_block map lacks acc")
	}
	if st, _ := os.Stat(filepath.Join(svgDir, "mm_block", "memory.svg")); st.Mode().Perm() != 0o644 {
		t.Errorf("memory.svg mode %v", st.Mode())
	}
	// Stdout mode: the MLIR stream is unchanged by --svg.
	_, out0, _ := runCLI(t, "", specInput)
	_, out1, _ := runCLI(t, "", "--svg", filepath.Join(base, "svg2"), specInput)
	if out0 != out1 {
		t.Errorf("--svg changed stdout")
	}

	// --svg DIR equal to -o DIR: maps inside, the rest unchanged.
	inside := filepath.Join(base, "inside")
	if code, _, errs := runCLI(t, "", "-o", inside, "--svg", inside+"/", specInput); code != 0 {
		t.Fatal(errs)
	}
	in := filetree.Read(t, inside)
	for k := range p {
		if !bytes.Equal(p[k], in[k]) {
			t.Errorf("%s differs with --svg inside -o", k)
		}
	}
	for k, data := range maps {
		if !bytes.Equal(in[k], data) {
			t.Errorf("%s inside -o differs from --svg DIR", k)
		}
	}
	if len(in) != len(p)+len(maps) {
		t.Errorf("inside -o: %v", filetree.Names(in))
	}
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("stray staging file %s", e.Name())
		}
	}
}
