package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/llinterp"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
)

// lowerToLLVM lowers one address-function module with stock MLIR and
// returns LLVM IR with typed pointers (what llir/llvm parses).
func lowerToLLVM(t *testing.T, module []byte) string {
	t.Helper()
	llvmDialect := tool(t, module, "mlir-opt-16", "--lower-affine", "--convert-scf-to-cf",
		"--convert-arith-to-llvm", "--convert-func-to-llvm", "--reconcile-unrealized-casts")
	return string(tool(t, llvmDialect, "mlir-translate-16", "--opaque-pointers=0", "--mlir-to-llvmir"))
}

// planDoc is the part of the plan JSON the address check reads.
type planDoc struct {
	Buffers []struct {
		Name   string  `json:"name"`
		Bundle *string `json:"bundle"`
		Offset *int64  `json:"offset"`
	} `json:"buffers"`
}

// expectedAddresses computes, from the graph and the plan JSON alone (spec
// §3), every sdsc_execute operand address of bundle b in emission order,
// for the given pool base, kernel-argument bases (by %arg_N) and
// induction values (by loop index). It also returns the number of kernel
// arguments.
func expectedAddresses(g *ir.Graph, doc *planDoc, b *ir.Bundle, pool int64, argBase func(n int) int64, iv []int64) ([]int64, int) {
	pooledAt := func(gi int) (int64, bool) {
		jb := doc.Buffers[g.Groups[gi].Members[0]]
		if jb.Offset != nil && jb.Bundle != nil && *jb.Bundle == b.Name {
			return *jb.Offset, true
		}
		return 0, false
	}
	argOf := map[int]int{}
	for _, op := range b.Ops {
		for _, a := range append(append([]ir.Access(nil), op.Reads...), op.Writes...) {
			if _, pooled := pooledAt(a.Group); !pooled && !g.Groups[a.Group].LX {
				if _, ok := argOf[a.Group]; !ok {
					argOf[a.Group] = len(argOf)
				}
			}
		}
	}
	var out []int64
	for _, op := range b.Ops {
		for _, a := range append(append([]ir.Access(nil), op.Reads...), op.Writes...) {
			if g.Groups[a.Group].LX {
				continue
			}
			var addr int64
			if off, pooled := pooledAt(a.Group); pooled {
				addr = pool + off
			} else {
				addr = argBase(argOf[a.Group])
			}
			for k, s := range a.Strides {
				addr += s * iv[op.Loops[k]]
			}
			out = append(out, addr)
		}
	}
	return out, len(argOf)
}

// checkAddresses lowers every bundle's address function of one input
// (run with args) to LLVM IR, evaluates it with llinterp for several pool
// bases, argument bases and induction values, and compares each result
// with the address the plan implies.
func checkAddresses(t *testing.T, name string, input string, env []string, args []string, unfused bool) {
	t.Helper()
	run := func(extra ...string) []byte {
		all := append(append(append([]string{}, args...), extra...), input)
		cmd := exec.Command(binary, all...)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("sdscgen %v: %v\n%s", all, err, stderr.String())
		}
		return stdout.Bytes()
	}
	var doc planDoc
	if err := json.Unmarshal(run("--plan", "-"), &doc); err != nil {
		t.Fatal(err)
	}
	stream := run("--emit=addresses")
	src, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	f, errs := frontend.Parse(input, src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if unfused {
		g = g.Unfused()
	}
	modules := strings.Split(string(stream), "// -----\n")
	if len(g.Bundles) == 0 {
		if len(stream) != 0 {
			t.Fatalf("%s: no bundles, yet output:\n%s", name, stream)
		}
		return
	}
	if len(modules) != len(g.Bundles) {
		t.Fatalf("%s: %d modules for %d bundles", name, len(modules), len(g.Bundles))
	}
	r := rand.New(rand.NewSource(int64(len(name))))
	for bi := range g.Bundles {
		b := &g.Bundles[bi]
		ll := lowerToLLVM(t, []byte(modules[bi]))
		m, err := llinterp.Parse(name+"/"+b.Name+".ll", ll)
		if err != nil {
			t.Fatalf("%s/%s: llir/llvm cannot parse the lowered IR: %v\n%s", name, b.Name, err, ll)
		}
		for trial := 0; trial < 6; trial++ {
			// Bases on sticks, far apart; induction values in range,
			// including the first and last iteration.
			pool := int64(1<<32) + int64(r.Intn(1<<20))*128
			bases := map[int]int64{}
			argBase := func(n int) int64 {
				if _, ok := bases[n]; !ok {
					bases[n] = int64(1<<40) + int64(n)<<30 + int64(r.Intn(1<<16))*128
				}
				return bases[n]
			}
			iv := make([]int64, len(b.Loops))
			for k, l := range b.Loops {
				switch trial {
				case 0:
					iv[k] = 0
				case 1:
					iv[k] = l.Count - 1
				default:
					iv[k] = r.Int63n(l.Count)
				}
			}
			want, nargs := expectedAddresses(g, &doc, b, pool, argBase, iv)
			callArgs := []int64{pool}
			for n := 0; n < nargs; n++ {
				callArgs = append(callArgs, argBase(n))
			}
			callArgs = append(callArgs, iv...)
			v, err := m.Call("sdsc_bundle_addresses", callArgs...)
			if err != nil {
				t.Fatalf("%s/%s: %v\n%s", name, b.Name, err, ll)
			}
			var got []int64
			switch {
			case len(want) == 1:
				got = []int64{v.Int}
			case v.Elems != nil:
				for _, e := range v.Elems {
					got = append(got, e.Int)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s/%s trial %d (pool %d, ivs %v):\n got  %v\n want %v\n%s", name, b.Name, trial, pool, iv, got, want, modules[bi])
			}
		}
	}
}

// caseUnfused reports whether a case runs with fusion off.
func caseUnfused(c Case) bool {
	for _, a := range c.Args {
		if a == "--bundle-symbolic-args=false" || a == "-bundle-symbolic-args=false" {
			return true
		}
	}
	for _, e := range c.Env {
		if e == "BUNDLE_SYMBOLIC_ARGS=0" || e == "BUNDLE_SYMBOLIC_ARGS=false" {
			return true
		}
	}
	return false
}

// TestAddressesLowered: for every golden case and a few random graphs, the
// address functions lowered by stock MLIR to LLVM IR compute exactly the
// operand addresses the plan implies.
func TestAddressesLowered(t *testing.T) {
	requireTool(t, "mlir-opt-16")
	requireTool(t, "mlir-translate-16")
	for _, c := range Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			checkAddresses(t, c.Name, filepath.Join(c.Dir, "input.bir"), c.Env, c.Args, caseUnfused(c))
		})
	}
	dir := t.TempDir()
	for seed := int64(1); seed <= 3; seed++ {
		name := fmt.Sprintf("random_%d", seed)
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(seed))
			src := randgraph.Generate(r, randgraph.Config{Buffers: 14, Bundles: 3, MaxOps: 6, MaxDepth: 3})
			path := filepath.Join(dir, name+".bir")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			checkAddresses(t, name, path, nil, []string{"--budget", "4096"}, false)
			checkAddresses(t, name+"_unfused", path, nil, []string{"--bundle-symbolic-args=false"}, true)
		})
	}
}
