// Package examples holds the shipped .bir programs; its tests run the
// exported PyTorch model zoo (examples/models, written by
// scripts/torch2bir.py through scripts/models.sh) through the whole tool.
package examples

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// zoo is the committed model zoo; scripts/models.sh writes exactly these.
var zoo = []string{
	"densenet121", "efficientnet_b0", "gpt2", "mobilenet_v2", "resnet50",
	"resnet50_b8", "swin_t", "transformer", "vit_b_16",
}

// attention marks the zoo models with a fused qkv projection.
var attention = map[string]bool{"gpt2": true, "swin_t": true, "transformer": true, "vit_b_16": true}

// sdscgen builds the command once per test binary.
func sdscgen(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sdscgen")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/sdscgen/sdscgen/cmd/sdscgen")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func run(t *testing.T, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, firstLines(stderr.String(), 20))
	}
	return stdout.Bytes()
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// mlirOpt returns mlir-opt-16's path; missing, the test fails under
// SDSCGEN_REQUIRE_MLIR=1 (scripts/test.sh) and is skipped otherwise.
func mlirOpt(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("mlir-opt-16")
	if err == nil {
		return path
	}
	if os.Getenv("SDSCGEN_REQUIRE_MLIR") == "1" {
		t.Fatalf("mlir-opt-16 not found and SDSCGEN_REQUIRE_MLIR=1: %v", err)
	}
	t.Skipf("mlir-opt-16 not found: %v", err)
	return ""
}

// model is what the tests read back from an exported file.
type model struct {
	bundles int               // top-level op and fused nodes
	aliases map[string]alias  // view -> root and byte offset
	touched map[string]bool   // names some op reads or writes
	ops     map[string]string // leaf op -> its bundle
	kinds   map[string]string // leaf op -> its kind ("" when it has none)
}

type alias struct {
	root string
	off  int64
}

var (
	aliasLine = regexp.MustCompile(`^alias (\S+) = (\S+)(?: \+ (\d+))?$`)
	leafLine  = regexp.MustCompile(`^(op|cpu) (\S+)(?: kind (\S+))?(?: reads (.*?))?(?: writes (.*))?$`)
	fusedLine = regexp.MustCompile(`^fused (\S+) \{$`)
)

func readModel(t *testing.T, path string) model {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := model{aliases: map[string]alias{}, touched: map[string]bool{}, ops: map[string]string{}, kinds: map[string]string{}}
	fused := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(strings.SplitN(sc.Text(), "//", 2)[0])
		if g := aliasLine.FindStringSubmatch(line); g != nil {
			var off int64
			if g[3] != "" {
				fmt.Sscan(g[3], &off)
			}
			m.aliases[g[1]] = alias{g[2], off}
		} else if g := fusedLine.FindStringSubmatch(line); g != nil {
			fused = g[1]
			m.bundles++
		} else if line == "}" {
			fused = ""
		} else if g := leafLine.FindStringSubmatch(line); g != nil {
			if g[1] == "op" {
				b := fused
				if b == "" {
					b = g[2]
					m.bundles++
				}
				m.ops[g[2]] = b
				m.kinds[g[2]] = g[3]
			}
			for _, list := range []string{g[4], g[5]} {
				for _, n := range strings.Split(list, ",") {
					if n = strings.TrimSpace(n); n != "" && g[1] == "op" {
						m.touched[n] = true
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

type planJSON struct {
	Bundles []struct {
		Name       string `json:"name"`
		PoolSize   *int64 `json:"pool_size"`
		LowerBound int64  `json:"lower_bound"`
	} `json:"bundles"`
	Buffers []struct {
		Name       string  `json:"name"`
		Bundle     *string `json:"bundle"`
		Offset     *int64  `json:"offset"`
		ViewOffset int64   `json:"view_offset"`
		Reason     *string `json:"reason"`
	} `json:"buffers"`
}

// TestModelZoo plans every committed model with the verifier on, emits its
// MLIR in generic form and runs it through stock mlir-opt, and checks that
// a view at an offset reaches the MLIR as its own address: the pool address
// of its group plus its offset, or its kernel argument's slice.
func TestModelZoo(t *testing.T) {
	bin := sdscgen(t)
	opt := mlirOpt(t)
	files, err := filepath.Glob("models/*.bir")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, strings.TrimSuffix(filepath.Base(f), ".bir"))
	}
	if strings.Join(got, " ") != strings.Join(zoo, " ") {
		t.Fatalf("examples/models holds %v, want %v", got, zoo)
	}
	for _, name := range zoo {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("models", name+".bir")
			m := readModel(t, path)
			var plan planJSON
			if err := json.Unmarshal(run(t, nil, bin, "--verify", "--plan", "-", path), &plan); err != nil {
				t.Fatal(err)
			}
			if len(plan.Bundles) != m.bundles {
				t.Errorf("plan has %d bundles, the file %d top-level op/fused nodes", len(plan.Bundles), m.bundles)
			}
			// The exporter gives every device op a kind (docs/exporter.md).
			for op, k := range m.kinds {
				if k == "" {
					t.Errorf("op %s has no kind", op)
				}
			}
			for _, b := range plan.Bundles {
				if b.PoolSize != nil && *b.PoolSize < b.LowerBound {
					t.Errorf("bundle %s: pool %d below its lower bound %d", b.Name, *b.PoolSize, b.LowerBound)
				}
			}
			mlir := string(run(t, nil, bin, "--verify", "--generic", path))
			out := run(t, []byte(mlir), opt, "--allow-unregistered-dialect", "--verify-each", "--split-input-file")
			if a, b := strings.Count(mlir, `"sdscbundle.sdsc_execute"`), strings.Count(string(out), `"sdscbundle.sdsc_execute"`); a != b || a == 0 {
				t.Errorf("%d sdsc_execute emitted, %d after mlir-opt", a, b)
			}
			// Every view the exporter placed at an offset: the plan resolves
			// the same offset, and when an op touches it, the MLIR holds its
			// own address (not its root's).
			offsets := 0
			for _, b := range plan.Buffers {
				a, ok := m.aliases[b.Name]
				if !ok {
					continue
				}
				if _, chained := m.aliases[a.root]; chained {
					t.Errorf("alias %s = %s: the exporter writes views against their root", b.Name, a.root)
				}
				if b.ViewOffset != a.off {
					t.Errorf("%s: plan view_offset %d, exported offset %d", b.Name, b.ViewOffset, a.off)
				}
				if a.off == 0 || !m.touched[b.Name] {
					continue
				}
				offsets++
				var want string
				if b.Reason == nil && b.Offset != nil { // pooled: the pool address P + v
					v := *b.Offset + a.off
					want = fmt.Sprintf("%%pool_offset_%d = arith.constant %d : index", v, v)
				} else { // a kernel argument plus the slice offset v
					want = fmt.Sprintf("_slice_offset_%d = arith.constant %d : index", a.off, a.off)
				}
				if !strings.Contains(mlir, want) {
					t.Errorf("view %s (%s + %d): no %q in the MLIR", b.Name, a.root, a.off, want)
				}
			}
			// The attention models split one qkv projection into q, k and v,
			// so they must have views at offsets that ops read; the CNNs
			// only view at offset 0 (flatten, weight transposes).
			if attention[name] && offsets == 0 {
				t.Errorf("no view at a nonzero offset is read or written by an op")
			}
			t.Logf("%d bundles, %d views at nonzero offsets touched by ops", m.bundles, offsets)
		})
	}
}

// TestGPT2QKVAddresses: GPT-2's fused qkv projection is split into q, k and
// v, views 768 f16 elements (1536 bytes) apart in the addmm buffer of the
// first block. All three are pooled with addmm in the one fused bundle, so
// the MLIR addresses them at three distinct pool addresses P, P+1536 and
// P+3072, P being addmm's pool offset.
func TestGPT2QKVAddresses(t *testing.T) {
	bin := sdscgen(t)
	path := filepath.Join("models", "gpt2.bir")
	m := readModel(t, path)
	want := map[string]int64{"getitem_3": 0, "getitem_4": 1536, "getitem_5": 3072}
	for n, off := range want {
		if a := m.aliases[n]; a != (alias{"addmm", off}) {
			t.Fatalf("%s = %+v, want addmm + %d", n, a, off)
		}
	}
	var plan planJSON
	if err := json.Unmarshal(run(t, nil, bin, "--plan", "-", path), &plan); err != nil {
		t.Fatal(err)
	}
	var base *int64
	for _, b := range plan.Buffers {
		if b.Name == "addmm" {
			base = b.Offset
		}
	}
	if base == nil {
		t.Fatal("addmm is not pooled")
	}
	mlir := string(run(t, nil, bin, path))
	for _, off := range []int64{0, 1536, 3072} {
		v := *base + off
		if !strings.Contains(mlir, fmt.Sprintf("%%pool_addr_%d = arith.addi %%pool, %%pool_offset_%d : index", v, v)) {
			t.Errorf("no pool address %d (addmm + %d)", v, off)
		}
	}
}

// TestExporterRegenerates runs scripts/models.sh into a temporary folder
// and compares every file byte for byte with the committed zoo. It needs
// /usr/bin/python3 with torch and torchvision (scripts/test.sh installs
// them and sets SDSCGEN_REQUIRE_TORCH=1, which turns a skip into a failure)
// and takes a minute or two; -short skips it.
func TestExporterRegenerates(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the exporter takes a minute or two")
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import torch, torchvision").Run(); err != nil {
		if os.Getenv("SDSCGEN_REQUIRE_TORCH") == "1" {
			t.Fatalf("/usr/bin/python3 cannot import torch and torchvision: %v", err)
		}
		t.Skipf("/usr/bin/python3 cannot import torch and torchvision: %v", err)
	}
	dir := t.TempDir()
	cmd := exec.Command("bash", filepath.Join("..", "scripts", "models.sh"), dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/models.sh: %v\n%s", err, stderr.String())
	}
	t.Logf("export times:\n%s", stderr.String())
	for _, name := range zoo {
		want, err := os.ReadFile(filepath.Join("models", name+".bir"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name+".bir"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.bir: regenerated file differs from the committed one (run scripts/models.sh)", name)
		}
	}
}
