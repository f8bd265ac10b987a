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
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
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

// pooledFunc reports where a group sits in a bundle's pool, if pooled.
type pooledFunc func(gi int) (offset int64, pooled bool)

// pooledFromDoc reads the pool offsets of bundle b from the plan JSON.
func pooledFromDoc(g *ir.Graph, doc *planDoc, b *ir.Bundle) pooledFunc {
	return func(gi int) (int64, bool) {
		jb := doc.Buffers[g.Members(&g.Groups[gi])[0]]
		if jb.Offset != nil && jb.Bundle != nil && *jb.Bundle == b.Name {
			return *jb.Offset, true
		}
		return 0, false
	}
}

// coreOffset is core c's byte offset of an access (bundle-ir.md §2), computed
// here from the definition: digit d of c in the mixed radix of the cores
// list, first dimension fastest, times split[d].
func coreOffset(cores, split []int64, c int64) int64 {
	if split == nil {
		return 0
	}
	var off int64
	for d, s := range cores {
		off += (c % s) * split[d]
		c /= s
	}
	return off
}

// expectedAddresses computes, from the graph and the plan alone (spec
// bundle-ir.md §2 and bundle-ir.md §4), the address each core of each access gets in bundle b:
// for every op in step order, every non-LX access in operand order
// (reads, then writes) and every core in order, for the given pool base,
// kernel-argument bases (by %arg_N) and induction values (by loop index).
// That is the order of the address function's results. It also returns
// the number of kernel arguments.
//
// The address is the one bundle-ir.md §4's symbols give: the group's base (pool + P,
// or argument N's base) + view offset + core offset, and, when the symbol
// that core uses is tiled in this op, the steps times the induction
// values of the FIRST tiled access of the op that uses that symbol (the
// symbol's one %addr serves every access that uses it). Symbols are
// told apart by their keys: pool(address), kernel/slice (N, v) for core
// 0 and cores whose offset equals core 0's, derived (N, v + o_c) for the
// others.
func expectedAddresses(g *ir.Graph, pooledAt pooledFunc, b *ir.Bundle, pool int64, argBase func(n int) int64, iv []int64) ([]int64, int) {
	argOf := map[int]int{}
	for _, op := range b.Ops {
		for _, a := range append(append([]ir.Access(nil), g.Reads(&op)...), g.Writes(&op)...) {
			if _, pooled := pooledAt(int(g.GroupOf(&a))); !pooled && !g.GroupClaims[g.GroupOf(&a)].Has(ir.ClaimLX) {
				if _, ok := argOf[int(g.GroupOf(&a))]; !ok {
					argOf[int(g.GroupOf(&a))] = len(argOf)
				}
			}
		}
	}
	type key struct {
		kind string
		a, b int64
	}
	type symbol struct {
		base, tile int64
		tiled      bool
	}
	var out []int64
	for _, op := range b.Ops {
		cores := int64(1)
		for _, s := range g.Cores(&op) {
			cores *= s
		}
		syms := map[key]*symbol{}
		var uses []*symbol
		for _, a := range append(append([]ir.Access(nil), g.Reads(&op)...), g.Writes(&op)...) {
			if g.GroupClaims[g.GroupOf(&a)].Has(ir.ClaimLX) {
				continue
			}
			v := g.ViewOf(g.Buffers.At(int(a.Buffer))).ViewOffset
			var tile int64
			tiled := false
			for k, s := range g.Strides(&a) {
				tile += s * iv[g.OpLoops(&op)[k]]
				tiled = tiled || s != 0
			}
			for c := int64(0); c < cores; c++ {
				oc := coreOffset(g.Cores(&op), g.Split(&a), c)
				var k key
				var base int64
				if off, pooled := pooledAt(int(g.GroupOf(&a))); pooled {
					k, base = key{"pool", off + v + oc, 0}, pool+off+v+oc
				} else {
					n := int64(argOf[int(g.GroupOf(&a))])
					if oc == coreOffset(g.Cores(&op), g.Split(&a), 0) {
						k, base = key{"kernel", n, v}, argBase(int(n))+v
					} else {
						k, base = key{"derived", n, v + oc}, argBase(int(n))+v+oc
					}
				}
				s := syms[k]
				if s == nil {
					s = &symbol{base: base}
					syms[k] = s
				}
				if tiled && !s.tiled {
					s.tiled, s.tile = true, tile
				}
				uses = append(uses, s)
			}
		}
		for _, s := range uses {
			out = append(out, s.base+s.tile)
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
	evalAddresses(t, name, g, modules, func(b *ir.Bundle) pooledFunc { return pooledFromDoc(g, &doc, b) })
}

// evalAddresses lowers each bundle's address function (modules[bi]) to
// LLVM IR, evaluates it with llinterp for several pool bases, argument
// bases and induction values, and compares each result with the address
// expectedAddresses derives from the graph and the plan.
func evalAddresses(t *testing.T, name string, g *ir.Graph, modules []string, pooledIn func(b *ir.Bundle) pooledFunc) {
	t.Helper()
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
			want, nargs := expectedAddresses(g, pooledIn(b), b, pool, argBase, iv)
			callArgs := []int64{pool}
			for n := 0; n < nargs; n++ {
				callArgs = append(callArgs, argBase(n))
			}
			callArgs = append(callArgs, iv...)
			v, err := m.Call(mlirgen.AddressFunc, callArgs...)
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

// v2Edit sets the v2 fields that .bir text cannot spell yet on a graph
// checked from v1 text: views at offsets (name -> offset, the group's
// size regrown), cores (op -> list) and splits (op -> one list per access
// in operand order, nil for broadcast).
type v2Edit struct {
	views  map[string]int64
	cores  map[string][]int64
	splits map[string][][]int64
}

func (e v2Edit) apply(t *testing.T, g *ir.Graph) {
	t.Helper()
	for _, b := range g.Buffers.All() {
		if off, ok := e.views[g.Str(b.Name)]; ok {
			g.EditView(b).ViewOffset = off
		}
	}
	for gi := range g.Groups {
		gr := &g.Groups[gi]
		for _, m := range g.Members(gr) {
			b := g.Buffers.At(int(m))
			gr.Size = max(gr.Size, g.ViewOf(b).ViewOffset+b.Size)
		}
	}
	for bi := range g.Bundles {
		for k := range g.Bundles[bi].Ops {
			op := &g.Bundles[bi].Ops[k]
			if c, ok := e.cores[g.Str(op.Name)]; ok {
				op.Cores = g.AddInts(c)
			}
			for j, sp := range e.splits[g.Str(op.Name)] {
				if j < len(g.Reads(op)) {
					g.SetSplit(&g.Reads(op)[j], sp)
				} else {
					g.SetSplit(&g.Writes(op)[j-len(g.Reads(op))], sp)
				}
			}
		}
	}
}

// checkAddressesV2 plans a v1 graph edited with v2 fields, emits its
// address functions in-process and checks them as checkAddresses does.
func checkAddressesV2(t *testing.T, name, src string, edit func(t *testing.T, g *ir.Graph)) {
	t.Helper()
	p := planV2(t, name, src, edit)
	g := p.Graph
	var buf bytes.Buffer
	if err := mlirgen.EmitAll(&buf, p, mlirgen.Options{Addresses: true}); err != nil {
		t.Fatal(err)
	}
	if len(g.Bundles) == 0 {
		return
	}
	modules := strings.Split(buf.String(), mlirgen.Separator)
	if len(modules) != len(g.Bundles) {
		t.Fatalf("%s: %d modules for %d bundles", name, len(modules), len(g.Bundles))
	}
	evalAddresses(t, name, g, modules, func(b *ir.Bundle) pooledFunc {
		bi := 0
		for k := range g.Bundles {
			if &g.Bundles[k] == b {
				bi = k
			}
		}
		return func(gi int) (int64, bool) {
			if p.Pooled(gi, bi) {
				return p.Groups[gi].Offset, true
			}
			return 0, false
		}
	})
}

// planV2 checks v1 text, edits the graph and plans it.
func planV2(t *testing.T, name, src string, edit func(t *testing.T, g *ir.Graph)) *planner.Result {
	t.Helper()
	f, errs := frontend.Parse(name+".bir", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	edit(t, g)
	return planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
}

// v2Handmade is the edit that makes v2Source a v2 graph.
var v2Handmade = v2Edit{
	views: map[string]int64{"xv": 8192, "tv": 2048},
	cores: map[string][]int64{"a": {2, 2}, "b": {2}, "c": {2, 3}, "e": {2}},
	splits: map[string][][]int64{
		"a": {{1024, 4096}, {512, 1024}},
		"b": {{256}, {1024}, nil, {512}},
		"c": {{256, 0}, nil, nil, {128, 256}},
		"e": {{256}, {8448}, {128}},
	},
}

// v2Source covers, in one fused bundle with nested loops: multi-core ops
// with 1-D and 2-D cores, split and broadcast accesses, views at offsets
// into a kernel group (x) and a pooled group (t), tiled accesses with
// splits, the same symbol read twice with different steps (c reads x at
// [1024, 0] and [0, 128]: broadcast, one symbol, the first step wins),
// and a derived key reached by a view and by its root (e: xv + 256 and
// x + 8448 are both derived(0, 8448)).
const v2Source = `graph v2 {
  buffer x : 16384
  buffer xv : 4096
  buffer t : 4096
  buffer tv : 1024
  buffer u : 4096
  buffer y : 16384
  input x
  output y
  alias xv = x
  alias tv = t
  fused f {
    op a reads x writes t
    loop L count 3 {
      op b reads tv step 128, xv step 256, x writes u
      loop M count 2 {
        op c reads u step [0, 512], x step [1024, 0], x step [0, 128] writes y step [4096, 1024]
      }
    }
    op d reads u writes y
    op e reads xv, x writes y
  }
}`

// TestAddressesLoweredV2: the address functions of multi-core ops and of
// views at offsets compute, once lowered by stock MLIR, the addresses the
// spec derives (group offset + view offset + core offset + steps * ivs).
// The graphs are v1 text edited with the v2 fields, since the frontend
// cannot read them yet; random graphs get cores, splits and views too.
func TestAddressesLoweredV2(t *testing.T) {
	requireTool(t, "mlir-opt-16")
	requireTool(t, "mlir-translate-16")
	t.Run("handmade", func(t *testing.T) {
		checkAddressesV2(t, "v2", v2Source, v2Handmade.apply)
	})
	for seed := int64(1); seed <= 4; seed++ {
		name := fmt.Sprintf("random_v2_%d", seed)
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(seed))
			src := randgraph.Generate(r, randgraph.Config{Buffers: 14, Bundles: 3, MaxOps: 6, MaxDepth: 3})
			checkAddressesV2(t, name, src, func(t *testing.T, g *ir.Graph) {
				// Every non-root member of a group sits 128*k into it;
				// every other op runs on 2 or [2, 2] cores, its accesses
				// split by random stick multiples or broadcast.
				views := map[string]int64{}
				for _, gr := range g.Groups {
					for k, m := range g.Members(&gr)[1:] {
						views[g.Str(g.Buffers.At(int(m)).Name)] = 128 * int64(k+1)
					}
				}
				e := v2Edit{views: views, cores: map[string][]int64{}, splits: map[string][][]int64{}}
				for _, b := range g.Bundles {
					for k, op := range b.Ops {
						if k%2 == 1 {
							continue
						}
						cores := []int64{2}
						if r.Intn(2) == 0 {
							cores = []int64{2, 2}
						}
						e.cores[g.Str(op.Name)] = cores
						for range len(g.Reads(&op)) + len(g.Writes(&op)) {
							var sp []int64
							if r.Intn(3) > 0 {
								for range cores {
									sp = append(sp, 128*int64(r.Intn(4)))
								}
							}
							e.splits[g.Str(op.Name)] = append(e.splits[g.Str(op.Name)], sp)
						}
					}
				}
				e.apply(t, g)
			})
		})
	}
}
