package planner_test

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/planner"
)

// TestIndexMatchesScan: the Index, built in two counting passes, holds
// what a plain scan finds. For every group of random graphs, its touches
// are every bundle access to it in bundle, step and access order (reads
// before writes as ops list them) and its CPU touches every CPU access
// in node order, reads before writes (each locating its access); for
// every bundle, its groups are the set of groups its ops access,
// ascending; Usage lists the distinct bundles and CPU nodes of those
// touches, ascending.
func TestIndexMatchesScan(t *testing.T) {
	touches, cpuTouches := 0, 0
	for seed := int64(0); seed < 400; seed++ {
		r := rand.New(rand.NewSource(seed))
		src := randgraph.Generate(r, randgraph.Config{Buffers: 2 + r.Intn(30), Bundles: 1 + r.Intn(8), MaxOps: 1 + r.Intn(8), MaxDepth: r.Intn(3)})
		g, errs := frontend.ParseCheck("t.bir", []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		p := planner.Plan(g, planner.Options{Budget: 1 << 20})
		ix := p.Index()
		for gi := range g.Groups {
			var want []planner.Touch
			var wantU planner.Usage
			add := func(l *[]int, v int) {
				if !slices.Contains(*l, v) {
					*l = append(*l, v)
				}
			}
			for bi := range g.Bundles {
				for oi := range g.Bundles[bi].Ops {
					op := &g.Bundles[bi].Ops[oi]
					for k := int32(0); k < op.Accesses.Len; k++ {
						a := op.Accesses.Off + k
						if int(g.GroupOf(g.Accesses.At(int(a)))) != gi {
							continue
						}
						read := k < op.NReads
						want = append(want, planner.Touch{Bundle: int32(bi), Step: int32(oi), Read: read, Access: a})
						if read {
							add(&wantU.ReadBy, bi)
						} else {
							add(&wantU.WrittenBy, bi)
						}
					}
				}
			}
			var wantCPU []planner.CPUTouch
			for ci := range g.CPU {
				for k, a := range g.CPUReads(&g.CPU[ci]) {
					if int(g.GroupOf(&a)) == gi {
						wantCPU = append(wantCPU, planner.CPUTouch{Node: int32(ci), K: int32(k), Read: true})
						add(&wantU.CPUReadBy, ci)
					}
				}
				for k, a := range g.CPUWrites(&g.CPU[ci]) {
					if int(g.GroupOf(&a)) == gi {
						wantCPU = append(wantCPU, planner.CPUTouch{Node: int32(ci), K: int32(k)})
						add(&wantU.CPUWrittenBy, ci)
					}
				}
			}
			if got := ix.Touches(gi); !slices.Equal(got, want) {
				t.Fatalf("seed %d, group %d: touches %v, want %v\n%s", seed, gi, got, want, src)
			}
			if got := ix.CPU(gi); !slices.Equal(got, wantCPU) {
				t.Fatalf("seed %d, group %d: CPU touches %v, want %v\n%s", seed, gi, got, wantCPU, src)
			}
			// A CPU touch's Index locates its Access in Graph.Accesses.
			for _, c := range wantCPU {
				if i := c.Index(g); g.Accesses.At(int(i)) != c.Access(g) {
					t.Fatalf("seed %d: CPU touch %+v: Index %d is not its access", seed, c, i)
				}
			}
			u := p.Usage(gi)
			for _, l := range [][2][]int{{u.ReadBy, wantU.ReadBy}, {u.WrittenBy, wantU.WrittenBy}, {u.CPUReadBy, wantU.CPUReadBy}, {u.CPUWrittenBy, wantU.CPUWrittenBy}} {
				if !slices.Equal(l[0], l[1]) {
					t.Fatalf("seed %d, group %d: Usage %+v, want %+v\n%s", seed, gi, u, wantU, src)
				}
			}
			touches += len(want)
			cpuTouches += len(wantCPU)
		}
		for bi := range g.Bundles {
			var want []int32
			for oi := range g.Bundles[bi].Ops {
				op := &g.Bundles[bi].Ops[oi]
				for k := int32(0); k < op.Accesses.Len; k++ {
					if gi := g.GroupOf(g.Accesses.At(int(op.Accesses.Off + k))); !slices.Contains(want, gi) {
						want = append(want, gi)
					}
				}
			}
			slices.Sort(want)
			if got := ix.Groups(bi); !slices.Equal(got, want) {
				t.Fatalf("seed %d, bundle %d: groups %v, want %v\n%s", seed, bi, got, want, src)
			}
		}
	}
	if touches < 5000 || cpuTouches < 200 {
		t.Fatalf("only %d bundle touches and %d CPU touches compared", touches, cpuTouches)
	}
}
