package planner_test

import (
	"bytes"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
)

var (
	applyRE   = regexp.MustCompile(`^\s*(%addr_\d+) = affine\.apply #map_\d+\([^)]*\)\[(%[A-Za-z0-9_]+)\]$`)
	executeRE = regexp.MustCompile(`^\s*sdscbundle\.sdsc_execute \(([^)]*)\)`)
	argRE     = regexp.MustCompile(`^%arg_(\d+)(_|$)`)
	paramRE   = regexp.MustCompile(`%arg_\d+_base_addr:`)
)

// TestKernelArgsMatchMLIR: the numbering of planner.KernelArgs is the one
// mlirgen prints, on random graphs. For every op (one sdsc_execute each,
// in step order) the kernel argument numbers its operands refer to, in
// order of first appearance (an %addr_K operand refers to what its
// affine.apply applies to), must be the numbers KernelArgs gives the
// groups of the op's accesses that are neither pooled nor LX, in operand
// order, each once; and the function must have one %arg_N_base_addr
// parameter per argument. As operands follow the accesses in operand order
// and ops the steps, this pins every N to its group.
func TestKernelArgsMatchMLIR(t *testing.T) {
	checked := 0
	for seed := int64(0); seed < 300; seed++ {
		r := rand.New(rand.NewSource(seed))
		src := randgraph.Generate(r, randgraph.Config{Buffers: 4 + int(seed%20), Bundles: 1 + int(seed%5), MaxOps: 1 + int(seed%8), MaxDepth: int(seed % 3)})
		opt := planner.Options{Budget: []int64{planner.DefaultBudget, 1024}[seed%2], Disabled: seed%13 == 0}
		p := planSrc(t, src, opt, seed%5 == 2)
		g := p.Graph
		for bi := range g.Bundles {
			args := p.KernelArgs(bi)
			num := map[int32]int{}
			for n, a := range args {
				num[a.Group] = n
				for _, b := range a.Names {
					if buf := g.Buffers.At(int(b)); buf.Group != a.Group {
						t.Fatalf("seed %d: %%arg_%d: name %s is not of its group", seed, n, g.Str(buf.Name))
					}
				}
			}
			var out bytes.Buffer
			if err := mlirgen.Emit(&out, p, bi, mlirgen.Options{Workers: 1}); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			if got := len(paramRE.FindAllString(text, -1)); got != len(args) {
				t.Fatalf("seed %d bundle %s: %d parameters, KernelArgs has %d\n%s", seed, g.Bundles[bi].Name, got, len(args), text)
			}
			applied := map[string]string{}
			step := 0
			for _, line := range strings.Split(text, "\n") {
				if m := applyRE.FindStringSubmatch(line); m != nil {
					applied[m[1]] = m[2]
					continue
				}
				m := executeRE.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				var got []int
				for _, v := range strings.Split(m[1], ", ") {
					if a, ok := applied[v]; ok {
						v = a
					}
					if am := argRE.FindStringSubmatch(v); am != nil {
						n, _ := strconv.Atoi(am[1])
						got = appendNew(got, n)
					}
				}
				op := &g.Bundles[bi].Ops[step]
				var want []int
				for _, a := range g.OpAccesses(op) {
					if n, ok := num[g.GroupOf(&a)]; ok {
						want = appendNew(want, n)
					} else if !g.GroupClaims[g.GroupOf(&a)].Has(ir.ClaimLX) && !p.Pooled(int(g.GroupOf(&a)), bi) {
						t.Fatalf("seed %d: group of %s is a kernel argument without a number", seed, g.Str(g.Buffers.At(int(a.Buffer)).Name))
					}
				}
				if !eq(got, want) {
					t.Fatalf("seed %d bundle %s op %s: operands refer to %v, KernelArgs gives %v\n%s", seed, g.Bundles[bi].Name, g.Str(op.Name), got, want, text)
				}
				step++
				checked++
			}
			if step != len(g.Bundles[bi].Ops) {
				t.Fatalf("seed %d bundle %s: %d executes for %d ops", seed, g.Bundles[bi].Name, step, len(g.Bundles[bi].Ops))
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d ops checked", checked)
	}
}

func appendNew(s []int, n int) []int {
	for _, x := range s {
		if x == n {
			return s
		}
	}
	return append(s, n)
}
