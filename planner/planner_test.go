package planner_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

func mustGraph(t testing.TB, src string) *ir.Graph {
	t.Helper()
	f, errs := frontend.Parse("t.bir", []byte(src))
	if len(errs) > 0 {
		t.Fatalf("parse: %v\n%s", errs, src)
	}
	g, errs := frontend.Check(f)
	if len(errs) > 0 {
		t.Fatalf("check: %v\n%s", errs, src)
	}
	return g
}

// TestRandomGraphs is the property test of issue 2: on thousands of seeded
// random graphs with random budgets, no two pooled groups of a bundle whose
// live ranges intersect overlap in bytes, every pool fits its budget, and
// the fast first-fit gives exactly the plan of the naive one.
func TestRandomGraphs(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	pooledSeen := 0
	reasons := map[planner.Reason]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		cfg := randgraph.Config{Buffers: 2 + r.Intn(20), Bundles: 1 + r.Intn(6), MaxOps: 1 + r.Intn(8), MaxDepth: r.Intn(4)}
		src := randgraph.Generate(r, cfg)
		g := mustGraph(t, src)
		if r.Intn(4) == 0 {
			g = g.Unfused()
		}
		budget := []int64{0, 1, 128, 1024, 4096, 16384, DefaultBudgetForTest}[r.Intn(7)]
		fast := planner.Plan(g, planner.Options{Budget: budget, Allocator: alloc.FirstFit})
		naive := planner.Plan(g, planner.Options{Budget: budget, Allocator: alloc.NaiveFirstFit})
		if a, b := summary(fast), summary(naive); a != b {
			t.Fatalf("seed %d: fast and naive first-fit differ:\n%s\nvs\n%s\n%s", seed, a, b, src)
		}
		for _, gr := range fast.Groups {
			reasons[gr.Reason]++
		}
		for bi := range g.Bundles {
			pb := fast.Bundles[bi]
			if pb.PoolSize > budget {
				t.Fatalf("seed %d: bundle %s pool %d over budget %d", seed, g.Bundles[bi].Name, pb.PoolSize, budget)
			}
			var top int64
			for _, x := range pb.Candidates {
				gx := fast.Groups[x]
				if gx.Offset < 0 {
					continue
				}
				pooledSeen++
				top = max(top, gx.Offset+g.Groups[x].Size)
				for _, y := range pb.Candidates {
					gy := fast.Groups[y]
					if x == y || gy.Offset < 0 {
						continue
					}
					live := gx.Start <= gy.End && gy.Start <= gx.End
					bytes := gx.Offset < gy.Offset+g.Groups[y].Size && gy.Offset < gx.Offset+g.Groups[x].Size
					if live && bytes {
						t.Fatalf("seed %d: %s and %s overlap in time and bytes\n%s", seed, g.Groups[x].Name, g.Groups[y].Name, src)
					}
				}
			}
			if pb.HasPool() && top != pb.PoolSize {
				t.Fatalf("seed %d: pool size %d but highest byte %d", seed, pb.PoolSize, top)
			}
		}
	}
	// The generator must keep exercising every rule: pooling in at least
	// one graph in three, and every reason code somewhere.
	if pooledSeen < n/3 {
		t.Fatalf("only %d pooled groups over %d graphs: the generator no longer exercises pooling", pooledSeen, n)
	}
	for _, r := range planner.Reasons {
		if r != planner.Disabled && reasons[r] == 0 {
			t.Errorf("reason %s never occurred over %d graphs", r, n)
		}
	}
}

// DefaultBudgetForTest keeps the test independent of the default's value.
const DefaultBudgetForTest = 1 << 40

func summary(p *planner.Result) string {
	s := ""
	for gi, gr := range p.Groups {
		s += fmt.Sprintf("%s:%s:%d:%d:%d:%d\n", p.Graph.Groups[gi].Name, gr.Reason, gr.Bundle, gr.Start, gr.End, gr.Offset)
	}
	for _, b := range p.Bundles {
		s += fmt.Sprintf("%v:%d:%d\n", b.Candidates, b.PoolSize, b.LowerBound)
	}
	return s
}
